import * as z from 'zod';
import { isValidFiscalCode } from './fiscal-code.ts';
import { resultJobStatusSchema } from './jobs.ts';
import { navOfIuv } from './iuv.ts';
import { messages } from './messages.ts';
import { paymentBadge, positionSchema, type Position } from './payments.ts';
import { idParamsSchema, pageQuerySchema } from './validation.ts';

/**
 * Paying a debt position (issue 9, citizens; issue 8, 'Rendicontazione'). One rule for both paths — the
 * citizen's return from MyPay's checkout and the reporting of what MyPay says was paid — so a position is
 * marked paid the same way whichever comes first, and only once. Pure: no AWS, no node:crypto (the web
 * imports the schemas below).
 */

/** What MyPay says about one paid position (paaSILChiediPagati or the reporting export). */
export interface PaymentReceipt {
  iud: string;
  /** The IUV MyPay paid it under (the position's own when it had one). */
  iuv: string;
  /** Cents actually paid. */
  amountCents: number;
  /** yyyy-MM-dd (dataEsitoSingoloPagamento). */
  paidOn: string;
  /** identificativoUnivocoRiscossione: pagoPA's id of the transaction. */
  iur: string;
}

/** The fields a payment writes on a position (a record keeps them; the API shows isPagato and the date). */
export interface PaidFields {
  isPagato: boolean;
  importoTotalePagato: number;
  dataEsitoSingoloPagamento: string | null;
  codIuv: string | null;
  nav: string | null;
  /** identificativoUnivocoRiscossione of the payment, once paid. */
  iur?: string | null;
}

type Payable = Pick<Position, 'iud' | 'isPagato' | 'annullato' | 'importoDovuto' | 'codIuv' | 'nav' | 'updatedAt'> & PaidFields & { version: number };

/** A position can be paid while it is neither paid nor cancelled and asks for some money. */
export const isPayable = (position: Pick<Position, 'isPagato' | 'annullato' | 'importoDovuto'>) =>
  !position.isPagato && !position.annullato && position.importoDovuto > 0;

export type PaymentEffect<P> =
  | { kind: 'paid'; after: P }
  /** Already paid: nothing changes (the same payment again, or any other: a paid position never changes). */
  | { kind: 'already-paid' }
  /** Cancelled (amount 0, final): a payment cannot reopen it. */
  | { kind: 'cancelled' }
  /** The receipt is for another position, or for another amount: nothing is written. */
  | { kind: 'mismatch'; reason: 'iud' | 'amount' };

/**
 * Marks a position paid from MyPay's receipt: from unpaid and not cancelled to isPagato, with the amount
 * paid (cents), dataEsitoSingoloPagamento, the IUR and the IUV (and its notice number); the next version.
 * Idempotent: a paid position is left as it is, whatever the receipt says.
 */
export function applyPayment<P extends Payable>(position: P, receipt: PaymentReceipt, now: string): PaymentEffect<P> {
  if (receipt.iud !== position.iud) return { kind: 'mismatch', reason: 'iud' };
  if (position.isPagato) return { kind: 'already-paid' };
  if (position.annullato) return { kind: 'cancelled' };
  if (receipt.amountCents !== position.importoDovuto) return { kind: 'mismatch', reason: 'amount' };
  const iuv = receipt.iuv || position.codIuv;
  return {
    kind: 'paid',
    after: {
      ...position,
      isPagato: true,
      importoTotalePagato: receipt.amountCents,
      dataEsitoSingoloPagamento: receipt.paidOn,
      iur: receipt.iur || null,
      codIuv: iuv,
      nav: iuv ? (position.nav ?? navOfIuv(iuv)) : position.nav,
      updatedAt: now,
      version: position.version + 1,
    },
  };
}

/** MyPay's answer to paaSILChiediPagati, as the adapter reads it (functions/adapters/ports.ts). */
export type CheckoutStatus = 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING';

// ——— The payloads of the citizen's and the operators' payment routes ———

/** GET /api/me/positions: optionally only one call's positions. */
export const myPositionsQuerySchema = pageQuerySchema.extend({ callId: idParamsSchema.shape.id.optional() });

/** GET /api/positions?fiscalCode= (operators' 'Pagamenti' page). */
export const positionsByFiscalCodeQuerySchema = pageQuerySchema.extend({
  fiscalCode: z.string({ error: messages.payment.fiscalCode }).trim().toUpperCase().refine(isValidFiscalCode, messages.payment.fiscalCode),
});

/** A position as its owner and the operators see it: the stored fields, its badge and its notice PDF. */
export const positionViewSchema = positionSchema.extend({
  badge: z.enum(['Annullato', 'Pagato', 'Da pagare']),
  /** The notice PDF (a link of a few minutes), when the export brought it back; null otherwise. */
  noticeUrl: z.string().nullable(),
  payable: z.boolean(),
});
export type PositionView = z.output<typeof positionViewSchema>;

export const toPositionView = (position: Position, noticeUrl: string | null): PositionView => ({
  ...position,
  badge: paymentBadge(position),
  noticeUrl,
  payable: isPayable(position),
});

/** POST /api/me/positions/{id}/pay: the page MyPay sends the citizen back to (same site, a citizen page). */
const text = (max: number, error: string) => z.string({ error }).trim().min(1, error).max(max, error);
export const payBodySchema = z.object({ returnUrl: text(2000, messages.payment.returnUrl) });
export const checkoutSchema = z.object({ url: z.string(), idSession: z.string() });

/** POST /api/me/payments/return: the session the portal page read from MyPay's redirect. */
export const paymentReturnBodySchema = z.object({ idSession: text(100, messages.payment.sessionNotFound) });
export const paymentReturnSchema = z.object({
  /** What MyPay says, never what the URL said. */
  esito: z.enum(['PAID', 'FAILED', 'CANCELLED', 'PENDING']),
  /** Paid now by this return (false on a reload: it was recorded before). */
  recorded: z.boolean(),
  message: z.string(),
  position: positionViewSchema.nullable(),
});
export type PaymentReturn = z.output<typeof paymentReturnSchema>;

/** POST /api/calls/{id}/reporting. */
export const reportingResultSchema = z.object({
  /** The export is still being prepared by MyPay: run it again in a moment. */
  inProgress: z.boolean(),
  /** Positions of the call marked paid now. */
  marked: z.number(),
  /** Positions of the call MyPay reports paid that were already paid here. */
  alreadyPaid: z.number(),
  /** Rows MyPay reports paid that match no position (unknown IUD, or another amount). */
  unmatched: z.number(),
  from: z.string(),
  to: z.string(),
  message: z.string(),
});
export type ReportingResult = z.output<typeof reportingResultSchema>;

/** 'Rendicontazione' as a background job (domain/jobs.ts REPORTING_JOB): its status, and its outcome once done. */
export const reportingStatusSchema = resultJobStatusSchema(reportingResultSchema);
export type ReportingStatus = z.output<typeof reportingStatusSchema>;
