import * as z from 'zod/mini';
import { requiredText } from './validation.ts';

/** A social service; `code` is its payment-platform (MyPay) code. */
export const serviceInputSchema = z.object({
  code: requiredText(64),
  name: requiredText(120),
  description: requiredText(2000),
});
export type ServiceInput = z.output<typeof serviceInputSchema>;

export const serviceSchema = z.extend(serviceInputSchema, { id: z.string() });
export type Service = z.output<typeof serviceSchema>;
