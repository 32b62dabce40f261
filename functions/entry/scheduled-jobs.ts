import middy from '@middy/core';
import { randomUUID } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports/clock.ts';
import { secretsFromManager } from '../adapters/secrets.ts';
import { EXPIRY_JOB, NEW_YEAR_JOB, refreshStart } from '../domain/isee-refresh.ts';
import { listCallStarts } from '../calls/repository.ts';
import { getDebtTotals } from '../payment-list/repository.ts';
import { deleteFollowUp, listDueFollowUps } from '../reporting/repository.ts';
import { makeReportingSchedule } from '../reporting/schedule.ts';
import { currentPeriod } from '../domain/period.ts';
import type { Actor } from '../domain/roles.ts';
import { logger, tracer } from '../adapters/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobExecutionEnd, makeJobs, type JobRun } from '../jobs/use-cases.ts';

/**
 * What the schedules start (EventBridge Scheduler, lib/background-jobs.ts; locally lib/local/schedules.ts): the
 * ISEE expiry job, every day of December from the configured day (the list, and the reminders once), and the
 * January refresh from INPS — the same jobs an operator starts from /lista_isee —; and 'Rendicontazione' of every
 * call with open positions each day, and of the calls whose checkouts ended a few minutes ago without the
 * portal learning the outcome (functions/reporting/schedule.ts). It only takes the jobs' locks and starts the
 * state machine: a run already going is left alone. It also hears of the jobs' executions that ended outside
 * every Catch (the machine's two-hour limit, a stop): their runs are marked failed, resumable at once.
 */
const jobs = makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID });

const SYSTEM_ACTOR_BASE: Actor = {
  sub: 'system:scheduler',
  role: 'OPERATOR',
  fiscalCode: null,
  firstName: 'Sistema',
  lastName: 'Portale',
  fullName: 'Lavoro pianificato del portale',
  email: null,
  workingEntityId: null,
};
/** Who the scheduled runs are audited as (the jobs' writes name it). */
export const SYSTEM_ACTOR: Actor = { ...SYSTEM_ACTOR_BASE, sub: 'system:isee-scheduler' };

/** The daily reporting of every call with open positions, and the sweep of the reportings due after checkouts. */
export const REPORTING_DAILY = 'reporting-daily';
export const REPORTING_FOLLOW_UPS = 'reporting-follow-ups';

const reportingSchedule = makeReportingSchedule({
  calls: { listCallStarts },
  totals: { getDebtTotals },
  followUps: { listDueFollowUps, deleteFollowUp },
  jobs,
  clock: systemClock,
  actor: { ...SYSTEM_ACTOR_BASE, sub: 'system:reporting-scheduler' },
});

export interface ScheduledEvent {
  kind: typeof EXPIRY_JOB | typeof NEW_YEAR_JOB | typeof REPORTING_DAILY | typeof REPORTING_FOLLOW_UPS;
}

/** Step Functions' "Execution Status Change" event of the jobs' machine (EventBridge; locally lib/local/step-functions.ts). */
export interface JobExecutionEnded {
  source: 'aws.states';
  detail: { status: string; input?: string | null };
}

const executionEnded = makeJobExecutionEnd({ jobs: jobRepository, clock: systemClock });

const isExecutionEnd = (event: ScheduledEvent | JobExecutionEnded): event is JobExecutionEnded =>
  'detail' in event && event.source === 'aws.states';

export async function runScheduled(event: ScheduledEvent | JobExecutionEnded): Promise<string> {
  if (isExecutionEnd(event)) {
    const run = JSON.parse(event.detail.input || '{}') as Partial<JobRun>;
    if (!run.kind || !run.key || !run.jobId) return 'not a job run';
    const marked = await executionEnded({ kind: run.kind, key: run.key, jobId: run.jobId });
    logger.info('Job execution ended', { ...run, status: event.detail.status, marked });
    return marked ? 'marked failed' : 'already ended';
  }
  if (event.kind === REPORTING_DAILY || event.kind === REPORTING_FOLLOW_UPS) {
    const outcome =
      event.kind === REPORTING_DAILY
        ? await reportingSchedule.startDaily()
        : await reportingSchedule.startDueFollowUps();
    logger.info('Scheduled reporting', { kind: event.kind, ...outcome });
    return JSON.stringify(outcome);
  }
  if (event.kind !== EXPIRY_JOB && event.kind !== NEW_YEAR_JOB)
    throw new Error(`Unknown scheduled job ${String(event.kind)}`);
  const year = currentPeriod(systemClock.now()).anno;
  // A run the machine ended before it finished (its two-hour limit) is resumed, as an operator's start does.
  const { job: previous } = await jobs.status(event.kind, String(year));
  const job = await jobs.start(
    event.kind,
    String(year),
    { year, scheduled: true, ...refreshStart(previous, systemClock.now(), randomUUID) },
    SYSTEM_ACTOR,
  );
  const outcome = job ? `started ${job.id}` : 'already running';
  logger.info('Scheduled ISEE job', { kind: event.kind, outcome });
  return outcome;
}

export const handler = middy(runScheduled)
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer))
  .use(secretsFromManager());
