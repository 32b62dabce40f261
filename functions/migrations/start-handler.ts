import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { systemClock } from '../adapters/ports.ts';
import type { Actor } from '../domain/roles.ts';
import { logger } from '../http/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { MIGRATIONS_JOB, MIGRATIONS_JOB_KEY } from './ids.ts';

/** Who started the run, on the job's record: the deployment, not a person. */
export const deploymentActor: Actor = {
  sub: 'deployment',
  role: 'OPERATOR',
  fiscalCode: null,
  firstName: 'Rilascio',
  lastName: 'automatico',
  fullName: 'Rilascio automatico (CDK)',
  email: null,
  workingEntityId: null,
};

/** How long the deployment waits for the migrations before going on (they go on in the background after it). */
export const WAIT_MS = 12 * 60 * 1000;
const POLL_MS = 5000;

const jobs = makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits while a run of the migrations is going on; then the run's record. Throws when it failed, so the
 * deployment that started it fails with the reason (the job's record and the task function's log say more).
 */
async function waitForRun(deadline: number) {
  for (;;) {
    const { job, running } = await jobs.status(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY);
    if (!running) {
      if (job?.state === 'FAILED') throw new Error(`Data migrations failed: ${job.error ?? 'see the migration task log'}`);
      return { job, running };
    }
    if (Date.now() >= deadline) return { job, running };
    await sleep(POLL_MS);
  }
}

/**
 * The deployment's trigger (lib/migrations.ts): starts the data migrations (a run already going on, e.g. of
 * the deployment before, is waited for first, then one more run picks up what this deployment added) and
 * waits up to WAIT_MS for them, logging where they stand.
 */
export async function startMigrations(): Promise<{ state: string; done: number; total: number | null }> {
  const deadline = Date.now() + WAIT_MS;
  let run = await jobs.start(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, {}, deploymentActor);
  if (!run) {
    logger.info('Data migrations already running: waiting for that run first');
    const earlier = await waitForRun(deadline);
    if (earlier.running) return { state: 'RUNNING', done: earlier.job?.done ?? 0, total: earlier.job?.total ?? null };
    run = await jobs.start(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, {}, deploymentActor);
  }
  logger.info('Data migrations started', { jobId: run?.id });
  const { job, running } = await waitForRun(deadline);
  const outcome = { state: running ? 'RUNNING' : (job?.state ?? 'NONE'), done: job?.done ?? 0, total: job?.total ?? null };
  if (running) logger.warn('Data migrations still running: the deployment goes on, they finish in the background', outcome);
  else logger.info('Data migrations finished', outcome);
  return outcome;
}

export const handler = middy(startMigrations).use(injectLambdaContext(logger));
