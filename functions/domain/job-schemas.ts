import * as z from 'zod/mini';
import { jobStates } from './jobs.ts';

/**
 * A background job's status as the API answers it (NONE: never run): its state, units done and in all, when it
 * started and ended, and why it failed. Each kind's status schema extends it (domain/enrolment.ts
 * importStatusSchema, domain/payments.ts syncStatusSchema); the web polls it with useJobStatus.
 */
export const jobStatusSchema = z.object({
  state: z.enum(['NONE', ...jobStates]),
  done: z.number().check(z.int()),
  total: z.nullable(z.number().check(z.int())),
  startedAt: z.nullable(z.string()),
  endedAt: z.nullable(z.string()),
  error: z.nullable(z.string()),
});
export type JobStatus = z.output<typeof jobStatusSchema>;

/** The status of a job that answers a result: the common status, whether it runs, and its answer once it succeeded. */
export const resultJobStatusSchema = <T extends z.ZodMiniType>(result: T) =>
  z.extend(jobStatusSchema, { isRunning: z.boolean(), result: z.nullable(result) });
