import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports/clock.ts';
import { logger, tracer } from '../adapters/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import type { JobTaskEvent } from './job-task.ts';
import { makeJobWorker } from '../jobs/use-cases.ts';
import { migrationRunner } from './migration-catalogue.ts';
import { MIGRATIONS_JOB } from '../migrations/ids.ts';
import type { MigrationRunner } from '../migrations/use-cases.ts';

/**
 * One slice of the data migrations (MIGRATIONS_JOB): the job mechanism of functions/jobs, on a state machine
 * of its own (functions/migrations/state-machine.ts) and this function, which carries the migrations and
 * nothing else. A slice stops after SLICE_BUDGET_MS (the function may run 15 minutes) and the state machine
 * calls it again; the progress lives on the migrations' records, so a slice cut short goes on from the last
 * page written. Every step also moves the job's record (its heartbeat: a run whose record stops moving is
 * dead, and the next start takes over), and a run that is no longer the job's running one stops at once.
 */
export const SLICE_BUDGET_MS = 10 * 60 * 1000;

/** The task over a runner and a slice budget (the tests run their own migrations, a few steps a slice). */
export function migrationTask(runner: MigrationRunner, budgetMs: number) {
  const worker = makeJobWorker({
    jobs: jobRepository,
    kinds: {
      [MIGRATIONS_JOB]: {
        async slice(_input, _cursor, _actor, heartbeat) {
          const progress = await runner.runSlice(
            budgetMs,
            async ({ done, total }) => (await heartbeat(done, total)) !== false,
          );
          return { cursor: progress.finished ? null : 'continue', done: progress.done, total: progress.total };
        },
        failure: 'Migrazione dei dati non riuscita: vedi i log della funzione.',
      },
    },
    clock: systemClock,
  });
  return (event: JobTaskEvent): Promise<unknown> =>
    event.step === 'Slice' ? worker.slice(event) : worker.markFailed(event);
}

export const runMigrationStep = migrationTask(
  migrationRunner((message, fields) => logger.info(message, fields)),
  SLICE_BUDGET_MS,
);

export const handler = middy(runMigrationStep).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer));
