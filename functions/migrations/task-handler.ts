import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports.ts';
import { logger, tracer } from '../http/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import type { JobTaskEvent } from '../jobs/task-handler.ts';
import { makeJobWorker } from '../jobs/use-cases.ts';
import { migrationRunner } from './catalogue.ts';
import { MIGRATIONS_JOB } from './ids.ts';

/**
 * One slice of the data migrations (MIGRATIONS_JOB): the job mechanism of functions/jobs, on a state machine
 * of its own (lib/migrations.ts) and this function, which carries the migrations and nothing else. A slice
 * stops after SLICE_BUDGET_MS (the function may run 15 minutes) and the state machine calls it again; the
 * progress lives on the migrations' records, so a slice cut short goes on from the last page written.
 */
export const SLICE_BUDGET_MS = 10 * 60 * 1000;

const runner = migrationRunner((message, fields) => logger.info(message, fields));

const worker = makeJobWorker({
  jobs: jobRepository,
  kinds: {
    [MIGRATIONS_JOB]: {
      async slice() {
        const progress = await runner.runSlice(SLICE_BUDGET_MS);
        return { cursor: progress.finished ? null : 'continue', done: progress.done, total: progress.total };
      },
      failure: 'Migrazione dei dati non riuscita: vedi i log della funzione.',
    },
  },
  clock: systemClock,
});

export async function runMigrationStep(event: JobTaskEvent): Promise<unknown> {
  return event.step === 'Slice' ? worker.slice(event) : worker.markFailed(event);
}

export const handler = middy(runMigrationStep).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer));
