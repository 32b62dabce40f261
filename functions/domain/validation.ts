import * as z from 'zod';
import { ValidationError } from './errors.ts';
import { fill, messages } from './messages.ts';

/** A required free text: trimmed, not empty, bounded. */
export const requiredText = (max: number) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, messages.required)
    .max(max, fill(messages.tooLong, { max }));

/** The field → message map a form shows beside each field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    byField[field] ??= issue.message;
  }
  return byField;
}

/** Parses input against a schema; a failure becomes a 400 carrying each field's Italian message. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const byField = fieldErrors(result.error);
  const detail = Object.keys(byField).length === 1 ? Object.values(byField)[0] : messages.invalidRequest;
  throw new ValidationError(detail, byField);
}

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().max(2000).optional(),
});

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const idParamsSchema = z.object({ id: z.string().min(1).max(64) });
