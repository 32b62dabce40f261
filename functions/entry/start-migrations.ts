import { randomUUID } from 'node:crypto';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { systemClock, type Clock } from '../adapters/ports/clock.ts';
import type { Actor } from '../domain/roles.ts';
import { logger } from '../adapters/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs, type JobRepository, type JobRunner } from '../jobs/use-cases.ts';
import { MIGRATIONS_JOB, MIGRATIONS_JOB_KEY } from '../migrations/ids.ts';
import { MIGRATION_DEPLOY_WAIT_MS } from '../migrations/state-machine.ts';

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

const POLL_MS = 5000;
/** A run recorded but with no execution yet (it is being started) is left alone this long. */
const STARTING_MS = 60 * 1000;

/** Where an execution of the migrations' state machine stands: null when it does not exist. */
export type ExecutionStatus = (jobId: string) => Promise<string | null>;

export interface MigrationStartDeps {
  jobs: JobRepository;
  runner: JobRunner;
  executionStatus: ExecutionStatus;
  clock: Clock;
  waitMs: number;
  pollMs: number;
  log: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
}

export interface MigrationStartOutcome {
  /** SUCCEEDED, FAILED, or RUNNING (still going on in the background when the wait ended). */
  state: string;
  done: number;
  total: number | null;
  /** A run found dead (its execution stopped, timed out or failed without marking it) and taken over. */
  resumed: boolean;
}

/**
 * The start of the data migrations (the deployment's trigger; the runbook's manual resume): one run at a time
 * (the job's record is the lock). A run still going on is waited for, then one more run picks up what this
 * deployment added. A run whose execution is no longer running (stopped, timed out) is marked failed and a new
 * one goes on from the migrations' checkpoints. Waits up to `waitMs`, then answers where they stand: it never
 * throws for a failed migration, so a deployment never fails on one (the state machine's alarm reports it).
 */
export function makeMigrationStart({ jobs, runner, executionStatus, clock, waitMs, pollMs, log }: MigrationStartDeps) {
  const jobUseCases = makeJobs({ jobs, runner, clock, ids: randomUUID });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const status = () => jobUseCases.status(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY);

  /** True when the running record's execution is over: the record is then marked failed, freeing the lock. */
  async function releaseDeadRun(): Promise<boolean> {
    const { job, running } = await status();
    if (!job || !running) return false;
    const execution = await executionStatus(job.id);
    const starting = execution === null && clock.now().getTime() - Date.parse(job.updatedAt) < STARTING_MS;
    if (execution === 'RUNNING' || starting) return false;
    const at = clock.now().toISOString();
    log('warn', 'Data migrations: the running run has no live execution, taking over', { jobId: job.id, execution });
    await jobs.updateJob(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, job.id, {
      state: 'FAILED',
      error: `Interrotta (${execution ?? 'nessuna esecuzione'}): ripresa da un nuovo avvio.`,
      endedAt: at,
      updatedAt: at,
    });
    return true;
  }

  async function waitForRun(deadline: number) {
    for (;;) {
      const current = await status();
      if (!current.running || Date.now() >= deadline) return current;
      await sleep(pollMs);
    }
  }

  return async function startMigrations(): Promise<MigrationStartOutcome> {
    const deadline = Date.now() + waitMs;
    const start = () => jobUseCases.start(MIGRATIONS_JOB, MIGRATIONS_JOB_KEY, {}, deploymentActor);
    let resumed = false;
    let run = await start();
    if (!run && (await releaseDeadRun())) {
      resumed = true;
      run = await start();
    }
    if (!run) {
      log('info', 'Data migrations already running: waiting for that run first');
      const earlier = await waitForRun(deadline);
      if (!earlier.running) run = await start();
    }
    if (run) log('info', 'Data migrations started', { jobId: run.id });
    const { job, running } = await waitForRun(deadline);
    const outcome = {
      state: running ? 'RUNNING' : (job?.state ?? 'NONE'),
      done: job?.done ?? 0,
      total: job?.total ?? null,
      resumed,
    };
    if (running)
      log('warn', 'Data migrations still running: the deployment goes on, they finish in the background', outcome);
    else if (job?.state === 'FAILED')
      log('error', `Data migrations failed: ${job.error ?? 'see the migration task log'}`, outcome);
    else log('info', 'Data migrations finished', outcome);
    return outcome;
  };
}

const sfn = new SFNClient({ endpoint: process.env.SFN_ENDPOINT || undefined });

/** DescribeExecution of the run's execution (named after the job's id) on JOBS_STATE_MACHINE_ARN. */
export const describeMigrationExecution: ExecutionStatus = async (jobId) => {
  const machine = process.env.JOBS_STATE_MACHINE_ARN;
  if (!machine) throw new Error('Missing environment variable JOBS_STATE_MACHINE_ARN');
  try {
    const { status } = await sfn.send(
      new DescribeExecutionCommand({ executionArn: `${machine.replace(':stateMachine:', ':execution:')}:${jobId}` }),
    );
    return status ?? null;
  } catch (error) {
    if ((error as Error).name === 'ExecutionDoesNotExist') return null;
    throw error;
  }
};

export const startMigrations = makeMigrationStart({
  jobs: jobRepository,
  runner: stepFunctionsJobRunner,
  executionStatus: describeMigrationExecution,
  clock: systemClock,
  waitMs: MIGRATION_DEPLOY_WAIT_MS,
  pollMs: POLL_MS,
  log: (level, message, fields) => logger[level](message, fields ?? {}),
});

export const handler = middy(startMigrations).use(injectLambdaContext(logger));
