import middy from '@middy/core';
import { randomUUID } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports.ts';
import { EXPIRY_JOB, NEW_YEAR_JOB } from '../domain/isee-refresh.ts';
import { currentPeriod } from '../domain/period.ts';
import type { Actor } from '../domain/roles.ts';
import { logger, tracer } from '../http/observability.ts';
import * as jobRepository from './repository.ts';
import { stepFunctionsJobRunner } from './runner.ts';
import { makeJobs } from './use-cases.ts';

/**
 * What the schedules start (EventBridge Scheduler, lib/background-jobs.ts): the ISEE expiry job, every day of
 * December from the configured day (the list, and the reminders once), and the January refresh from INPS.
 * The same jobs an operator starts from /lista_isee (locally, where no scheduler runs, that is the way). It
 * only takes the year's job lock and starts the state machine: a run already going is left alone.
 */
const jobs = makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID });

/** Who the scheduled runs are audited as (the jobs' writes name it). */
export const SYSTEM_ACTOR: Actor = {
  sub: 'system:isee-scheduler',
  role: 'OPERATOR',
  fiscalCode: null,
  firstName: 'Sistema',
  lastName: 'Portale',
  fullName: 'Lavoro pianificato del portale',
  email: null,
  workingEntityId: null,
};

export interface ScheduledEvent {
  kind: typeof EXPIRY_JOB | typeof NEW_YEAR_JOB;
}

export async function runScheduled(event: ScheduledEvent): Promise<string> {
  if (event.kind !== EXPIRY_JOB && event.kind !== NEW_YEAR_JOB) throw new Error(`Unknown scheduled job ${String(event.kind)}`);
  const year = currentPeriod(systemClock.now()).anno;
  const job = await jobs.start(event.kind, String(year), { year, scheduled: true, reportId: randomUUID() }, SYSTEM_ACTOR);
  const outcome = job ? `started ${job.id}` : 'already running';
  logger.info('Scheduled ISEE job', { kind: event.kind, outcome });
  return outcome;
}

export const handler = middy(runScheduled).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer));
