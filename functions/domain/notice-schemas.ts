import * as z from 'zod';

/**
 * The notices' API payloads (kept apart from the rules in notices.ts, so the route table, and the public
 * function's OpenAPI document with it, carries only the schema).
 */
export const flowEmailResultSchema = z.object({
  /** False while the run is not finished (the API answers 202: press the button again to continue). */
  done: z.boolean(),
  sent: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  message: z.string(),
});
export type FlowEmailResult = z.output<typeof flowEmailResultSchema>;
