import { GENERIC_ERROR } from './api';
/** What a background job that answers a result says about itself (domain/job-schemas.ts resultJobStatusSchema). */
export interface ResultJobStatus<R> {
  isRunning: boolean;
  state: 'NONE' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  error: string | null;
  result: R | null;
}

/** How often the status is asked while the job runs (domain/jobs.ts RESULT_JOB_POLL_MS; not imported: it would pull zod into this module). */
const POLL_MS = 1500;

/**
 * The answer of work that runs as a background job (the month's generation and CSV, the reporting, the hours
 * reset: longer than an API request may last): the status the start answered, then the status asked every
 * 1.5 s until the job ends; its result, or its error (the job's own Italian line) thrown.
 */
export async function jobResult<R>(
  started: ResultJobStatus<R>,
  status: () => Promise<ResultJobStatus<R>>,
  pollMs = POLL_MS,
): Promise<R> {
  let current = started;
  while (current.isRunning) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    current = await status();
  }
  if (current.state !== 'SUCCEEDED' || current.result === null) throw new Error(current.error ?? GENERIC_ERROR);
  return current.result;
}
