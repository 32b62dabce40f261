import * as z from 'zod/mini';
import { flowFileKinds, flowSteps } from './flows.ts';
import { PAYMENT_PLATFORMS } from './payment-platform.ts';
import { skippedSchema } from './payments.ts';

/** The flows' API payloads, apart from their rules (flows.ts), which the MyPay export's task applies without zod. */

export const exportRequestSchema = z.object({
  mese: z.coerce
    .number({ error: 'Il mese non è valido.' })
    .check(z.int('Il mese non è valido.'), z.gte(1, 'Il mese non è valido.'), z.lte(12, 'Il mese non è valido.')),
  anno: z.coerce
    .number({ error: 'L’anno non è valido.' })
    .check(z.int('L’anno non è valido.'), z.gte(2000, 'L’anno non è valido.'), z.lte(2100, 'L’anno non è valido.')),
  /** The single-payment button of the enrolment table sends one citizen's position only. */
  fiscalCode: z.optional(
    z.string().check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9]{16}$/, 'Il codice fiscale non è valido.')),
  ),
});
export type ExportRequest = z.output<typeof exportRequestSchema>;

const flowFileSchema = z.object({ available: z.boolean() });

export const flowSchema = z.object({
  id: z.string(),
  stato: z.string(),
  statoLabel: z.string(),
  step: z.enum(flowSteps),
  stepLabel: z.string(),
  dataInsert: z.string(),
  dataUpdate: z.string(),
  announcement: z.object({ id: z.string(), name: z.string(), service: z.object({ id: z.string(), name: z.string() }) }),
  mese: z.number(),
  anno: z.number(),
  fiscalCode: z.nullable(z.string()),
  /** How many positions the file carries, and MyPay's verdict on them. */
  num: z.number(),
  accepted: z.nullable(z.number()),
  rejected: z.nullable(z.number()),
  isEmailSent: z.boolean(),
  /**
   * The notice e-mail job while it runs (null when none runs), as the flow item holds it (its first slice sets the run, its last
   * one finishes it): the page shows "Invio in corso..." on load and polls the job's status from there.
   */
  emailJob: z.nullable(z.object({ sent: z.number().check(z.int()) })),
  /** False while MyPay's result files are not yet in the exports bucket. */
  available: z.boolean(),
  error: z.nullable(z.string()),
  files: z.object({ avvisi: flowFileSchema, iuv: flowFileSchema, scarti: flowFileSchema }),
  /** Positions of the month not sent, each with the reason to fix (mypay-csv.ts heldBackReasons). */
  heldBack: z.array(skippedSchema),
});
export type Flow = z.output<typeof flowSchema>;

/** The payment platform the flows go to (issue 37): its name and what it has (MyPay's result files, GPD's publication). */
export const platformInfoSchema = z.object({
  name: z.enum(PAYMENT_PLATFORMS),
  capabilities: z.object({
    importFiles: z.boolean(),
    publication: z.boolean(),
    cartSize: z.number(),
    batchSize: z.number(),
    platformAssignsIuv: z.boolean(),
  }),
});

/** A page of flows, with the platform they go to. */
export const flowPageSchema = z.object({
  items: z.array(flowSchema),
  nextCursor: z.nullable(z.string()),
  platform: platformInfoSchema,
});
export type FlowPage = z.output<typeof flowPageSchema>;

export const flowListQuerySchema = z.object({
  descrizione: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const flowFileParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  kind: z.enum(flowFileKinds),
});
