import * as z from 'zod/mini';
import { messages } from './messages.ts';
import { hasAtMostTwoDecimals, toCents } from './money.ts';
import { pageQuerySchema, preprocess } from './validation.ts';
import { currentPeriod, periodKey, type Period } from './period.ts';
import { jobStatusSchema, resultJobStatusSchema } from './job-schemas.ts';

export { currentPeriod, periodKey, type Period };
// The positions' rules, without zod (position-rules.ts), for the importers of this module.
export {
  exportStates,
  type ExportState,
  ioStatuses,
  type IoStatus,
  reconciliationReasons,
  RECONCILE_LABEL,
  RECONCILED_LABEL,
  reconciliationTexts,
  SKIPPED_SHOWN,
  resolvePeriod,
  monthNames,
  positionsCsvFileName,
  type PaymentBadge,
  paymentBadge,
  type PositionIo,
  type IoBadge,
  ioBadge,
  ioSentBefore,
  IO_UNCONFIRMED_REASON,
  sentToIo,
  NOTICE_PDF_PREFIX,
  noticePdfKey,
  DESCRIPTION_MAX_LENGTH,
  SYNC_POLL_MS,
} from './position-rules.ts';
import { DESCRIPTION_MAX_LENGTH, exportStates, ioStatuses, reconciliationReasons } from './position-rules.ts';

/**
 * The payments resource's payloads (debt positions of a call and month). Kept apart from the rules
 * (debt-positions.ts, which hashes with node:crypto) so the web can import these schemas.
 * Amounts are integer euro cents, as stored.
 */

const monthSchema = z.coerce
  .number({ error: messages.positions.month })
  .check(z.int(messages.positions.month), z.gte(1, messages.positions.month), z.lte(12, messages.positions.month));
const yearSchema = z.coerce
  .number({ error: messages.positions.year })
  .check(z.int(messages.positions.year), z.gte(2000, messages.positions.year), z.lte(2100, messages.positions.year));

/**
 * Part 2 §3 "Payment-send period": mese and anno, both optional (default: the current ones in
 * Europe/Rome). A value given must be valid: month 13 or a year in letters is a 400, not "now".
 */
export const periodSchema = z.object({
  mese: preprocess(emptyToUndefined, z.optional(monthSchema)),
  anno: preprocess(emptyToUndefined, z.optional(yearSchema)),
});
export type PeriodInput = z.output<typeof periodSchema>;

function emptyToUndefined(value: unknown) {
  return value === '' || value === null ? undefined : value;
}

export const positionListQuerySchema = z.extend(pageQuerySchema, periodSchema.shape);

export const reconciliationSchema = z.object({
  motivo: z.enum(reconciliationReasons),
  differenza: z.number().check(z.int()),
});
export type Reconciliation = z.output<typeof reconciliationSchema>;

/**
 * A reconciliation an operator closed ('Chiudi riconciliazione'): what was to reconcile, the operator's
 * note (the refund made, the difference accepted), who closed it and when (ISO). The payments stay.
 */
export const closedReconciliationSchema = z.extend(reconciliationSchema, {
  nota: z.string(),
  chiusaDa: z.string(),
  chiusaIl: z.string(),
});
export type ClosedReconciliation = z.output<typeof closedReconciliationSchema>;
export const RECONCILIATION_NOTE_MAX_LENGTH = 500;

/** POST /api/positions/{id}/reconciliation: the operator's note, required; `updatedAt` as for the edit (a stale copy is a 409). */
export const reconciliationCloseSchema = z.object({
  nota: z
    .string({ error: messages.positions.reconciliationNoteRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.positions.reconciliationNoteRequired),
      z.maxLength(RECONCILIATION_NOTE_MAX_LENGTH, messages.positions.reconciliationNoteTooLong),
    ),
  updatedAt: z.optional(z.string().check(z.maxLength(40))),
});
export type ReconciliationCloseInput = z.input<typeof reconciliationCloseSchema>;
export type ReconciliationClose = z.output<typeof reconciliationCloseSchema>;

export const positionSchema = z.object({
  id: z.string(),
  iud: z.string(),
  callId: z.string(),
  userId: z.string(),
  fiscalCode: z.string(),
  cognome: z.string(),
  nome: z.string(),
  mese: z.number(),
  anno: z.number(),
  titolo: z.string(),
  descrizione: z.string(),
  /** Cents. */
  importoDovuto: z.number().check(z.int()),
  /** Cents. */
  importoTotalePagato: z.number().check(z.int()),
  isPagato: z.boolean(),
  annullato: z.boolean(),
  codIuv: z.nullable(z.string()),
  nav: z.nullable(z.string()),
  /** yyyy-MM-dd: the last day of the month. */
  dataScadenza: z.string(),
  azione: z.enum(['I', 'M', 'A']),
  statoExport: z.enum(exportStates),
  lastExportError: z.nullable(z.string()),
  isEmailSent: z.boolean(),
  dataIsEmailSent: z.nullable(z.string()),
  ioId: z.nullable(z.string()),
  /** What became of the IO notice (ioStatuses); absent on positions sent to IO before it was recorded. */
  ioStatus: z.optional(z.nullable(z.enum(ioStatuses))),
  /** When the notice was last sent (or tried) to IO (ISO); absent on positions never sent. */
  dataIoSent: z.optional(z.nullable(z.string())),
  dataEsitoSingoloPagamento: z.nullable(z.string()),
  /** Set while a payment MyPay collected waits for an operator (null or absent otherwise). */
  riconciliazione: z.optional(z.nullable(reconciliationSchema)),
  /** The last reconciliation an operator closed, with the note (operators only: the citizen's views leave it out). */
  riconciliazioneChiusa: z.optional(z.nullable(closedReconciliationSchema)),
  /** Until when a citizen's MyPay checkout holds the position (ISO; null or absent: none). */
  checkoutUntil: z.optional(z.nullable(z.string())),
  /**
   * The citizen came back and MyPay could not say yet whether they paid ('Pagamento in verifica'): until
   * checkoutUntil 'Paga' is not offered, so nobody is invited to pay twice while the receipt may be on its way.
   */
  checkoutInVerifica: z.optional(z.nullable(z.boolean())),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Position = z.output<typeof positionSchema>;

export const skippedSchema = z.object({
  fiscalCode: z.string(),
  cognome: z.string(),
  nome: z.string(),
  reason: z.string(),
});
export type Skipped = z.output<typeof skippedSchema>;

export const generationResultSchema = z.object({
  mese: z.number(),
  anno: z.number(),
  created: z.number(),
  updated: z.number(),
  cancelled: z.number(),
  unchanged: z.number(),
  /** Approved subscriptions with ISEE ≤ 3000 € (or no hours): no position. */
  exempt: z.number(),
  /**
   * Subscriptions whose fee cannot be computed, or whose position cannot change: the operator must look. The
   * first SKIPPED_SHOWN of them (the answer is kept on the job's record, an item of at most 400 KB).
   */
  skipped: z.array(skippedSchema),
  /** How many were skipped in all. */
  skippedCount: z.number(),
});
export type GenerationResult = z.output<typeof generationResultSchema>;

/** 'Genera' as a background job (domain/jobs.ts GENERATE_JOB): its status, and its counts once done. */
export const generationStatusSchema = resultJobStatusSchema(generationResultSchema);
export type GenerationStatus = z.output<typeof generationStatusSchema>;

export const positionsCsvSchema = z.extend(generationResultSchema, {
  fileName: z.string(),
  /**
   * A link of a few minutes to the MyPay import CSV (UTF-8, text/csv) in the exports bucket: a month of
   * thousands of rows is megabytes, over what an API answer may carry.
   */
  url: z.string(),
  rows: z.number(),
  /**
   * Positions due but not in the file: MyPay would refuse them for the citizen's data (CAP, civic number,
   * province, nation, e-mail), or a text of theirs would run as a formula; each with the reason to fix.
   */
  heldBack: z.array(skippedSchema),
  /** How many were held back (the list above shows the first SKIPPED_SHOWN); absent on files made before. */
  heldBackCount: z.optional(z.number()),
  /** A link of a few minutes to the whole held-back list (a CSV beside the file); null when none was held back. */
  heldBackUrl: z.optional(z.nullable(z.string())),
});
export type PositionsCsv = z.output<typeof positionsCsvSchema>;

/** 'Verifica / genera CSV' as a background job (domain/jobs.ts CSV_JOB): its status, and the file once done (a fresh link at each ask). */
export const positionsCsvStatusSchema = resultJobStatusSchema(positionsCsvSchema);
export type PositionsCsvStatus = z.output<typeof positionsCsvStatusSchema>;

/** An amount field's text: the comma is the decimal point; empty is missing (never 0: 0 cancels). */
function amountInput(value: unknown) {
  if (typeof value !== 'string') return value;
  const text = value.trim().replace(',', '.');
  if (text === '') return undefined;
  return /^[-+]?\d+(\.\d*)?$|^[-+]?\.\d+$/.test(text) ? Number(text) : value;
}

/**
 * The payment edit modal (operator-admin §5), for the web form and for PUT /api/positions/{id}: description
 * required, at most 300 characters; amount in euro, a number ≥ 0 with at most two decimals (step 0.01),
 * 0 cancels the position. The output carries the amount in cents.
 */
export const positionEditSchema = z.pipe(
  z.object({
    descrizione: z
      .string({ error: messages.positions.descriptionRequired })
      .check(
        z.trim(),
        z.minLength(1, messages.positions.descriptionRequired),
        z.maxLength(DESCRIPTION_MAX_LENGTH, messages.positions.descriptionTooLong),
      ),
    importo: preprocess(
      amountInput,
      z
        .number({ error: messages.positions.amount })
        .check(
          z.gte(0, messages.positions.amount),
          z.lte(10_000_000, messages.positions.amount),
          z.refine(hasAtMostTwoDecimals, messages.positions.amount),
        ),
    ),
    /**
     * The position's `updatedAt` as the operator read it (issue 21): a save made on a copy that another
     * operator has changed since is a 409 'Il record è stato modificato da un altro operatore: ricarica la pagina.'
     */
    updatedAt: z.optional(z.string().check(z.maxLength(40))),
  }),
  z.transform(({ descrizione, importo, updatedAt }) => ({
    descrizione,
    importoCents: toCents(importo),
    ...(updatedAt ? { updatedAt } : {}),
  })),
);
export type PositionEditInput = z.input<typeof positionEditSchema>;
export type PositionEdit = z.output<typeof positionEditSchema>;

/** 'Sincronizza' (operator-admin §7 "GET import status"): whether a recalculation of the call runs, and how far it is. */
/** done/total: months recalculated so far and months to do (known once the job has looked). */
export const syncStatusSchema = z.extend(jobStatusSchema, { isUpdating: z.boolean() });
export type SyncStatus = z.output<typeof syncStatusSchema>;
