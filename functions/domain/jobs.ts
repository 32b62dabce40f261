import type { Actor } from './roles.ts';

/**
 * Background jobs (functions/jobs): work longer than an API request, run by a small state machine in bounded
 * slices. One record per kind and key holds the latest run; while it runs it is also the key's lock.
 * The rules only (no zod): the API's status schemas are in job-schemas.ts.
 */
export const jobStates = ['RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export type JobState = (typeof jobStates)[number];

export interface JobRecord {
  id: string;
  kind: string;
  /** What the job works on (e.g. a call id): one job per kind and key at a time. */
  key: string;
  state: JobState;
  /** The kind's own input, as given at the start. */
  input: Record<string, unknown>;
  /** Who started it: the kind's writes are audited in their name. */
  actor: Actor;
  /** Where the next slice starts (the kind's own text); null before the first slice and once done. */
  cursor: string | null;
  /** Units done so far and in all (null until the job knows). */
  done: number;
  total: number | null;
  error: string | null;
  /**
   * What a finished run answers (a kind whose work used to be one API request: the generation's counts, the
   * CSV's file, the reporting's outcome), kept small: under a few tens of KB (the record is an item of 400 KB).
   */
  result?: Record<string, unknown> | null;
  startedAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/**
 * A running job whose record has not moved for this long is taken as dead (its state machine timed out or
 * was stopped without marking it): the key may start again. A slice lasts at most the job function's
 * timeout (5 minutes), retries included well under this.
 */
export const JOB_STALE_AFTER_MS = 20 * 60 * 1000;

/** 'Sincronizza': the recalculation of a call's unpaid positions (keyed by call); no export of the call runs beside it. */
export const SYNC_JOB = 'sync-positions';

export const isJobRunning = (job: Pick<JobRecord, 'state' | 'updatedAt'> | null, now: Date): boolean =>
  job !== null && job.state === 'RUNNING' && now.getTime() - Date.parse(job.updatedAt) < JOB_STALE_AFTER_MS;

/**
 * The previous run of a kind on a key when it ended without finishing: failed (a slice's error, or cut at its
 * function's timeout), ended by the machine (its two-hour limit, a stop: functions/jobs/use-cases.ts
 * executionEnded), or dead. A kind that resumes starts the new run from its checkpoint (its cursor, its report).
 */
export function unfinishedRun(job: JobRecord | null, now: Date): JobRecord | null {
  if (!job) return null;
  return job.state === 'FAILED' || (job.state === 'RUNNING' && !isJobRunning(job, now)) ? job : null;
}

/** What a run ended by the machine itself (outside every Catch: its time limit, a stop) records. */
export const JOB_INTERRUPTED =
  'Il lavoro si è interrotto prima di finire (limite di tempo). Avviandolo di nuovo riprende da dove si è fermato.';

/**
 * A job's common status as the API answers it (NONE: never run); a run whose record stopped moving long ago
 * (dead) reads as failed, with `deadText`.
 */
export function jobStatusOf({ job, running }: { job: JobRecord | null; running: boolean }, deadText: string) {
  const dead = !!job && job.state === 'RUNNING' && !running;
  return {
    state: !job ? ('NONE' as const) : dead ? ('FAILED' as const) : job.state,
    done: job?.done ?? 0,
    total: job?.total ?? null,
    startedAt: job?.startedAt ?? null,
    endedAt: job?.endedAt ?? null,
    error: dead ? deadText : (job?.error ?? null),
  };
}

/** An Italian line for the operator out of a Step Functions error ({ Error, Cause }): a domain error's own message, else the kind's generic one. */
export function jobFailureText(error: { Error?: string; Cause?: string } | null | undefined, generic: string): string {
  if (!error) return generic;
  let cause = error.Cause ?? '';
  try {
    cause = JSON.parse(cause).errorMessage ?? cause;
  } catch {
    // Not JSON (the local Step Functions passes the message as it is).
  }
  const domain = ['DomainError', 'ValidationError', 'NotFoundError', 'ConflictError', 'ForbiddenError'].includes(
    error.Error ?? '',
  );
  return domain && cause ? cause.slice(0, 500) : generic;
}

/**
 * Work that grows with a call's size and used to be one API request: an API Gateway integration lasts at most
 * 29 s (and a request's Lambda 10 s here), so each runs as a background job whose last slice keeps its answer
 * (JobRecord.result). The route that starts it answers the status at once, the web asks again until it ends.
 */
export const GENERATE_JOB = 'generate-positions';
export const CSV_JOB = 'positions-csv';
export const REPORTING_JOB = 'reporting';
export const RESET_HOURS_JOB = 'reset-hours';

/** How often the web asks for the status of such a job while it runs. */
export const RESULT_JOB_POLL_MS = 1500;

/**
 * A job's status as the API answers it (NONE: never run); a run whose record stopped moving long ago (dead)
 * reads as failed, with `deadText`. `result` is the kind's own view of the stored answer.
 */
export function resultJobStatus<R>(
  status: { job: JobRecord | null; running: boolean },
  deadText: string,
  result: (stored: Record<string, unknown>) => R,
) {
  const { job } = status;
  return {
    isRunning: status.running,
    ...jobStatusOf(status, deadText),
    result: job && job.state === 'SUCCEEDED' && job.result ? result(job.result) : null,
  };
}

/** Starting a background job and reading its state (functions/jobs/use-cases.ts makeJobs): what a use case that starts jobs receives. */
export interface BackgroundJobs {
  /** Starts a run of `kind` on `key`; null (nothing started) while one runs there. */
  start(kind: string, key: string, input: Record<string, unknown>, actor: Actor): Promise<JobRecord | null>;
  /** The latest run of `kind` on `key` (null: never run), and whether it is still running. */
  status(kind: string, key: string): Promise<{ job: JobRecord | null; running: boolean }>;
}

/** The flow e-mail's background job: one run per flow at a time (the job's lock), slices of FLOW_EMAIL_SLICE_MS (functions/notices/use-cases.ts). */
export const FLOW_EMAIL_JOB = 'flow-email';
