import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import { JOB_INTERRUPTED, JOB_STALE_AFTER_MS, isJobRunning, jobFailureText, type JobRecord } from '../domain/jobs.ts';
import type { Actor } from '../domain/roles.ts';

export interface JobRepository {
  getJob(kind: string, key: string): Promise<JobRecord | null>;
  /** The key's lock: false when another run of that kind on that key is running (and alive). */
  takeJob(job: JobRecord, staleBefore: string): Promise<boolean>;
  /** False (nothing written) when run `id` is no longer the running one. */
  updateJob(
    kind: string,
    key: string,
    id: string,
    fields: Partial<
      Pick<JobRecord, 'state' | 'cursor' | 'done' | 'total' | 'error' | 'result' | 'endedAt' | 'updatedAt'>
    >,
  ): Promise<boolean>;
}

/** Starts the jobs' state machine for one run (Step Functions in the cloud, the local stand-in here). */
export interface JobRunner {
  start(run: JobRun): Promise<void>;
}

/** What the state machine carries from slice to slice. */
export interface JobRun {
  kind: string;
  key: string;
  jobId: string;
  cursor: string | null;
}

/** One slice's outcome: where the next starts (null: finished) and how far the job is. */
export interface SliceResult {
  cursor: string | null;
  done: number;
  total: number | null;
  /** The last slice's answer, kept on the job's record (JobRecord.result). */
  result?: Record<string, unknown>;
}

/**
 * A kind of job: `slice` does a bounded piece of work from `cursor` (null at the start) and says where the
 * next piece starts, or null when there is nothing left. A slice may run twice (a retried Lambda), so it
 * must be idempotent. `failure` is the Italian line shown when a slice fails with an unexpected error.
 */
export interface JobKind {
  /** `progress` moves the record's done and total while a long slice runs (the status the web polls). */
  slice(
    input: Record<string, unknown>,
    cursor: string | null,
    actor: Actor,
    progress: (done: number, total: number) => Promise<unknown>,
  ): Promise<SliceResult>;
  failure: string;
}

/** Starting a job and reading its state (the API functions). */
export function makeJobs({
  jobs,
  runner,
  clock,
  ids,
}: {
  jobs: JobRepository;
  runner: JobRunner;
  clock: Clock;
  ids: IdGenerator;
}) {
  return {
    /** Starts a run of `kind` on `key`; null (nothing started) while one runs there. */
    async start(kind: string, key: string, input: Record<string, unknown>, actor: Actor): Promise<JobRecord | null> {
      const now = clock.now();
      const at = now.toISOString();
      const job: JobRecord = {
        id: ids(),
        kind,
        key,
        state: 'RUNNING',
        input,
        actor,
        cursor: null,
        done: 0,
        total: null,
        error: null,
        result: null,
        startedAt: at,
        updatedAt: at,
        endedAt: null,
      };
      if (!(await jobs.takeJob(job, new Date(now.getTime() - JOB_STALE_AFTER_MS).toISOString()))) return null;
      try {
        await runner.start({ kind, key, jobId: job.id, cursor: null });
      } catch (error) {
        // Not started: the key is free again and the record says why.
        await jobs.updateJob(kind, key, job.id, {
          state: 'FAILED',
          error: 'Avvio non riuscito: riprova.',
          endedAt: clock.now().toISOString(),
          updatedAt: clock.now().toISOString(),
        });
        throw error;
      }
      return job;
    },
    /** The latest run of `kind` on `key` (null: never run), and whether it is still running. */
    async status(kind: string, key: string): Promise<{ job: JobRecord | null; running: boolean }> {
      const job = await jobs.getJob(kind, key);
      return { job, running: isJobRunning(job, clock.now()) };
    },
  };
}

/** The job function: one slice at a time, and the end of a failed run (functions/jobs/state-machine.ts). */
export function makeJobWorker({
  jobs,
  kinds,
  clock,
}: {
  jobs: JobRepository;
  kinds: Record<string, JobKind>;
  clock: Clock;
}) {
  const now = () => clock.now().toISOString();
  return {
    async slice(run: JobRun): Promise<{ cursor: string | null; finished: boolean }> {
      const job = await jobs.getJob(run.kind, run.key);
      // Replaced by a newer run, or already ended: this execution stops without touching anything.
      if (!job || job.id !== run.jobId || job.state !== 'RUNNING') return { cursor: null, finished: true };
      const kind = kinds[run.kind];
      if (!kind) throw new Error(`Unknown job kind ${run.kind}`);
      const progress = (done: number, total: number) =>
        jobs.updateJob(run.kind, run.key, run.jobId, { done, total, updatedAt: now() });
      const result = await kind.slice(job.input, run.cursor, job.actor, progress);
      const finished = result.cursor === null;
      const at = now();
      const current = await jobs.updateJob(run.kind, run.key, run.jobId, {
        cursor: result.cursor,
        done: result.done,
        total: result.total,
        updatedAt: at,
        ...(finished ? { state: 'SUCCEEDED' as const, endedAt: at, result: result.result ?? null } : {}),
      });
      return { cursor: result.cursor, finished: finished || !current };
    },
    async markFailed(run: JobRun & { error?: { Error?: string; Cause?: string } | null }): Promise<void> {
      const at = now();
      const generic = kinds[run.kind]?.failure ?? 'Operazione non riuscita.';
      await jobs.updateJob(run.kind, run.key, run.jobId, {
        state: 'FAILED',
        error: jobFailureText(run.error, generic),
        endedAt: at,
        updatedAt: at,
      });
    },
  };
}

export type JobWorker = ReturnType<typeof makeJobWorker>;

/**
 * An execution of the jobs' machine that ended outside every Catch (TIMED_OUT at its two-hour limit, ABORTED,
 * FAILED: the Step Functions "Execution Status Change" event, an EventBridge rule in the cloud): its run is
 * marked failed at once, keeping its cursor, so a new start resumes it instead of waiting for the record to go
 * stale. A run that ended already (or was replaced) is left as it is.
 */
export function makeJobExecutionEnd({ jobs, clock }: { jobs: JobRepository; clock: Clock }) {
  return async (run: Pick<JobRun, 'kind' | 'key' | 'jobId'>): Promise<boolean> => {
    const at = clock.now().toISOString();
    return jobs.updateJob(run.kind, run.key, run.jobId, {
      state: 'FAILED',
      error: JOB_INTERRUPTED,
      endedAt: at,
      updatedAt: at,
    });
  };
}
