import * as z from 'zod/mini';

/**
 * The notices' API payloads (kept apart from the rules in notices.ts, so the route table, and the public
 * function's OpenAPI document with it, carries only the schema).
 */
export const flowEmailResultSchema = z.object({
  /** False while the run (a background job) is not finished: the flows page polls GET /api/flows/{id}/email. */
  done: z.boolean(),
  sent: z.number().check(z.int()),
  skipped: z.number().check(z.int()),
  failed: z.number().check(z.int()),
  message: z.string(),
  /** The latest run's state (NONE: never run as a job) and, when it failed, why. */
  state: z.enum(['NONE', 'RUNNING', 'SUCCEEDED', 'FAILED']),
  error: z.nullable(z.string()),
});
export type FlowEmailResult = z.output<typeof flowEmailResultSchema>;

/**
 * POST /api/positions/{id}/io?resend=true: the operator confirmed sending again a notice already sent (or maybe
 * sent) to IO; without it such a send is a 409 saying when the first one went (IO has no idempotency key).
 */
export const ioNoticeQuerySchema = z.object({
  resend: z.pipe(
    z.optional(z.enum(['true', 'false'], { error: 'Il parametro resend deve essere true o false.' })),
    z.transform((value) => value === 'true'),
  ),
});
