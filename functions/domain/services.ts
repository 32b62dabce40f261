import * as z from 'zod/mini';
import { inpsBenefitCodes } from './inps-benefits.ts';
import { requiredText } from './validation.ts';

export const serviceMessages = {
  inpsBenefitCode: 'Il codice prestazione INPS deve essere uno dei codici dell’elenco INPS (da A1.01 a Z9.99).',
} as const;

/**
 * A social service; `code` is its payment-platform (MyPay) code. `inpsBenefitCode` is the PrestazioneDaErogare
 * its ISEE queries to INPS send (inps-benefits.ts); none (null) means the council's default (INPS_BENEFIT_CODE).
 */
export const serviceInputSchema = z.object({
  code: requiredText(64),
  name: requiredText(120),
  description: requiredText(2000),
  inpsBenefitCode: z.optional(z.nullable(z.enum(inpsBenefitCodes, { error: serviceMessages.inpsBenefitCode }))),
});
export type ServiceInput = z.output<typeof serviceInputSchema>;

export const serviceSchema = z.extend(serviceInputSchema, {
  id: z.string(),
  inpsBenefitCode: z.nullable(z.enum(inpsBenefitCodes)),
});
export type Service = z.output<typeof serviceSchema>;
