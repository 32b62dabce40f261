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
