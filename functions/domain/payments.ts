import * as z from 'zod';
import { messages } from './messages.ts';
import { hasAtMostTwoDecimals, toCents } from './money.ts';
import { pageQuerySchema } from './validation.ts';
import { currentPeriod, type Period } from './period.ts';
import { jobStatusSchema, resultJobStatusSchema } from './jobs.ts';

export { currentPeriod, type Period };

/**
 * The payments resource's payloads (debt positions of a call and month). Kept apart from the rules
 * (debt-positions.ts, which hashes with node:crypto) so the web can import these schemas.
 * Amounts are integer euro cents, as stored.
 */

const monthSchema = z.coerce
  .number({ error: messages.positions.month })
  .int(messages.positions.month)
  .min(1, messages.positions.month)
  .max(12, messages.positions.month);
const yearSchema = z.coerce
  .number({ error: messages.positions.year })
  .int(messages.positions.year)
  .min(2000, messages.positions.year)
  .max(2100, messages.positions.year);

/**
 * Part 2 §3 "Payment-send period": mese and anno, both optional (default: the current ones in
 * Europe/Rome). A value given must be valid: month 13 or a year in letters is a 400, not "now".
 */
export const periodSchema = z.object({
  mese: z.preprocess(emptyToUndefined, monthSchema.optional()),
  anno: z.preprocess(emptyToUndefined, yearSchema.optional()),
});
export type PeriodInput = z.output<typeof periodSchema>;

function emptyToUndefined(value: unknown) {
  return value === '' || value === null ? undefined : value;
}

export const positionListQuerySchema = pageQuerySchema.extend(periodSchema.shape);

/** The export state of a position: what the next MyPay import must do with it. */
export const exportStates = ['DA_ESPORTARE', 'ESPORTATA', 'ERRORE', 'NESSUNA'] as const;
export type ExportState = (typeof exportStates)[number];

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
  importoDovuto: z.number().int(),
  /** Cents. */
  importoTotalePagato: z.number().int(),
  isPagato: z.boolean(),
  annullato: z.boolean(),
  codIuv: z.string().nullable(),
  nav: z.string().nullable(),
  /** yyyy-MM-dd: the last day of the month. */
  dataScadenza: z.string(),
  azione: z.enum(['I', 'M', 'A']),
  statoExport: z.enum(exportStates),
  lastExportError: z.string().nullable(),
  isEmailSent: z.boolean(),
  dataIsEmailSent: z.string().nullable(),
  ioId: z.string().nullable(),
  dataEsitoSingoloPagamento: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Position = z.output<typeof positionSchema>;

export const skippedSchema = z.object({ fiscalCode: z.string(), cognome: z.string(), nome: z.string(), reason: z.string() });
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

/** Skipped subscriptions listed in a generation's answer (a few KB each hundred). */
export const SKIPPED_SHOWN = 500;

/** 'Genera' as a background job (domain/jobs.ts GENERATE_JOB): its status, and its counts once done. */
export const generationStatusSchema = resultJobStatusSchema(generationResultSchema);
export type GenerationStatus = z.output<typeof generationStatusSchema>;

export const positionsCsvSchema = generationResultSchema.extend({
  fileName: z.string(),
  /**
   * A link of a few minutes to the MyPay import CSV (UTF-8, text/csv) in the exports bucket: a month of
   * thousands of rows is megabytes, over what an API answer may carry.
   */
  url: z.string(),
  rows: z.number(),
});
export type PositionsCsv = z.output<typeof positionsCsvSchema>;

/** 'Verifica / genera CSV' as a background job (domain/jobs.ts CSV_JOB): its status, and the file once done (a fresh link at each ask). */
export const positionsCsvStatusSchema = resultJobStatusSchema(positionsCsvSchema);
export type PositionsCsvStatus = z.output<typeof positionsCsvStatusSchema>;


export const resolvePeriod = (input: PeriodInput, now: Date): Period => {
  const current = currentPeriod(now);
  return { mese: input.mese ?? current.mese, anno: input.anno ?? current.anno };
};

/** "2026-03". */
export const periodKey = ({ mese, anno }: Period) => `${anno}-${String(mese).padStart(2, '0')}`;

export const monthNames = ['Gennaio', 'Febbraio', 'Marzo', 'Aprile', 'Maggio', 'Giugno', 'Luglio', 'Agosto', 'Settembre', 'Ottobre', 'Novembre', 'Dicembre'];

/** The file the operator downloads: `<nomeMyPay>_<yyyy>_<mm>.csv`, safe as a file name. */
export const positionsCsvFileName = (nomeMyPay: string, period: Period) =>
  `${nomeMyPay.replace(/[^A-Za-z0-9_-]+/g, '_') || 'posizioni'}_${period.anno}_${String(period.mese).padStart(2, '0')}.csv`;

/** Operator-admin §4 "Payment badge": paid with total 0 = 'Annullato'; paid = 'Pagato'; otherwise 'Da pagare'. */
export type PaymentBadge = 'Annullato' | 'Pagato' | 'Da pagare';
export function paymentBadge(position: Pick<Position, 'isPagato' | 'annullato' | 'importoTotalePagato'>): PaymentBadge {
  if (position.annullato || (position.isPagato && position.importoTotalePagato === 0)) return 'Annullato';
  return position.isPagato ? 'Pagato' : 'Da pagare';
}

/** Operator-admin §4 "IO badge": sent when an IO id exists and is not -1. */
export const sentToIo = (position: Pick<Position, 'ioId'>) => position.ioId !== null && position.ioId !== '-1';

/**
 * Where a position's payment-notice PDF (MyPay's avviso) is kept in the exports bucket once an export
 * brought it back: the e-mail notice attaches it, the citizen and the operator download it. The
 * user-positions function, which leaves it there at the first link, may write under this prefix only.
 */
export const NOTICE_PDF_PREFIX = 'notices/';
export const noticePdfKey = (iud: string) => `${NOTICE_PDF_PREFIX}${iud}.pdf`;

/** Operator-admin §9: a payment's description is at most 300 characters. */
export const DESCRIPTION_MAX_LENGTH = 300;

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
export const positionEditSchema = z
  .object({
    descrizione: z
      .string({ error: messages.positions.descriptionRequired })
      .trim()
      .min(1, messages.positions.descriptionRequired)
      .max(DESCRIPTION_MAX_LENGTH, messages.positions.descriptionTooLong),
    importo: z.preprocess(
      amountInput,
      z
        .number({ error: messages.positions.amount })
        .finite(messages.positions.amount)
        .min(0, messages.positions.amount)
        .max(10_000_000, messages.positions.amount)
        .refine(hasAtMostTwoDecimals, messages.positions.amount),
    ),
  })
  .transform(({ descrizione, importo }) => ({ descrizione, importoCents: toCents(importo) }));
export type PositionEditInput = z.input<typeof positionEditSchema>;
export type PositionEdit = z.output<typeof positionEditSchema>;

/** Operator-admin §9: the import status is polled every 10000 ms. */
export const SYNC_POLL_MS = 10_000;

/** 'Sincronizza' (operator-admin §7 "GET import status"): whether a recalculation of the call runs, and how far it is. */
/** done/total: months recalculated so far and months to do (known once the job has looked). */
export const syncStatusSchema = jobStatusSchema.extend({ isUpdating: z.boolean() });
export type SyncStatus = z.output<typeof syncStatusSchema>;
