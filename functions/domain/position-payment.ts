import * as z from 'zod/mini';
import { isValidFiscalCode } from './fiscal-code.ts';
import { resultJobStatusSchema } from './job-schemas.ts';
import { gpdPaymentMessages, messages } from './messages.ts';
import { paymentBadge, positionSchema, type Position } from './payments.ts';
import { idParamsSchema, pageQuerySchema } from './validation.ts';

import { hasLiveCheckout, isPayableOnline, isVerifyingPayment } from './payment-rules.ts';

/**
 * Paying a debt position (issue 9, citizens; issue 8, 'Rendicontazione'; issues 21, 26): the payloads of
 * the payment routes, and the rules of payment-rules.ts (re-exported). Pure: no AWS, no node:crypto (the
 * web imports the schemas below).
 */
export * from './payment-rules.ts';

// ——— The payloads of the citizen's and the operators' payment routes ———

/** GET /api/me/positions: optionally only one call's positions. */
export const myPositionsQuerySchema = z.extend(pageQuerySchema, { callId: z.optional(idParamsSchema.shape.id) });

/** GET /api/positions?fiscalCode= (operators' 'Pagamenti' page). */
export const positionsByFiscalCodeQuerySchema = z.extend(pageQuerySchema, {
  fiscalCode: z
    .string({ error: messages.payment.fiscalCode })
    .check(z.trim(), z.toUpperCase(), z.refine(isValidFiscalCode, messages.payment.fiscalCode)),
});

/** A position as its owner and the operators see it: the stored fields, its badge and its notice PDF. */
export const positionViewSchema = z.extend(positionSchema, {
  badge: z.enum(['Annullato', 'Pagato', 'Da pagare']),
  /** The notice PDF (a link of a few minutes), when the export brought it back; null otherwise. */
  noticeUrl: z.nullable(z.string()),
  /**
   * 'Avviso PDF' is asked for on request (GET /api/positions/{id}/notice): on pagoPA GPD, where the portal prints the
   * notice of an open position it exported (notices.ts isNoticeSendable). False on MyPay, whose notices are linked.
   */
  noticeDownload: z.boolean(),
  /** 'Paga' is offered: payable, and MyPay holds the position as shown (isPayableOnline). */
  payable: z.boolean(),
  /** A citizen's payment of it is in progress on MyPay ('Pagamento in corso'; 'Paga' resumes it). */
  inCorso: z.boolean(),
  /** 'Pagamento in verifica': the citizen came back and the outcome is not known yet; 'Paga' is not offered. */
  inVerifica: z.boolean(),
});
export type PositionView = z.output<typeof positionViewSchema>;

export const toPositionView = (
  position: Position,
  notice: { url: string | null; download?: boolean },
  now: Date,
): PositionView => {
  const inCorso = hasLiveCheckout(position, now);
  const inVerifica = isVerifyingPayment(position, now);
  return {
    ...position,
    badge: paymentBadge(position),
    noticeUrl: notice.url,
    noticeDownload: notice.download ?? false,
    payable: isPayableOnline(position) && !inVerifica,
    inCorso,
    inVerifica,
  };
};

/**
 * The portal pages MyPay may send the citizen back to (calls-citizens-roles §2.1, §2.5, §2.6): the client
 * names one of them (a path, with the call's id); the server puts it on the portal's own configured address
 * (PORTAL_URL), so no header and no client value decides where a citizen lands (issue 21, open redirect).
 */
export const PAYMENT_RETURN_PAGES = [
  '/iscrizioni/visualizza_servizio',
  '/sessione_servizi/visualizza_servizio',
  '/iscrizioni',
] as const;

/** The page a return path names, normalised ("/iscrizioni/visualizza_servizio?id=c1"), or null when it is not one of them. */
export function paymentReturnPath(text: string): string | null {
  const base = 'https://portale.invalid';
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return null;
  }
  // An absolute URL, a scheme-relative "//host" or "/\host" lands on another origin: refused.
  if (
    url.origin !== base ||
    !text.startsWith('/') ||
    !(PAYMENT_RETURN_PAGES as readonly string[]).includes(url.pathname)
  )
    return null;
  const names = [...url.searchParams.keys()];
  const id = url.searchParams.get('id');
  if (names.some((name) => name !== 'id') || (id !== null && !/^[A-Za-z0-9_-]{1,100}$/.test(id))) return null;
  return id ? `${url.pathname}?id=${id}` : url.pathname;
}

/** POST /api/me/positions/{id}/pay: the portal page MyPay sends the citizen back to (a path, never a site). */
const text = (max: number, error: string) =>
  z.string({ error }).check(z.trim(), z.minLength(1, error), z.maxLength(max, error));
export const payBodySchema = z.object({
  returnPath: text(300, messages.payment.returnUrl).check(
    z.refine((path) => paymentReturnPath(path) !== null, messages.payment.returnUrl),
  ),
});
/** POST /api/me/payments/cart: several positions paid at once (the platform's cart: up to five on GPD). */
export const payCartBodySchema = z.object({
  ids: z
    .array(text(100, messages.payment.notFound), { error: gpdPaymentMessages.cartEmpty })
    .check(
      z.minLength(1, gpdPaymentMessages.cartEmpty),
      z.maxLength(50, gpdPaymentMessages.cartTooMany.replace('{max}', '5')),
    ),
  returnPath: payBodySchema.shape.returnPath,
});
/** GET /api/me/payments/options: whether the citizen's page offers several notices at once. */
export const paymentOptionsSchema = z.object({ platform: z.enum(['mypay', 'gpd']), cartSize: z.number() });
export const checkoutSchema = z.object({ url: z.string(), idSession: z.string(), resumed: z.boolean() });

/** POST /api/me/payments/return: the session the portal page read from MyPay's redirect. */
export const paymentReturnBodySchema = z.object({ idSession: text(100, messages.payment.sessionNotFound) });
export const paymentReturnSchema = z.object({
  /** What MyPay says, never what the URL said. */
  esito: z.enum(['PAID', 'FAILED', 'CANCELLED', 'PENDING', 'EXPIRED']),
  /** Paid now by this return (false on a reload: it was recorded before). */
  recorded: z.boolean(),
  message: z.string(),
  position: z.nullable(positionViewSchema),
});
export type PaymentReturn = z.output<typeof paymentReturnSchema>;

/** POST /api/calls/{id}/reporting. */
export const reportingResultSchema = z.object({
  /** The export is still being prepared by MyPay: run it again in a moment. */
  inProgress: z.boolean(),
  /** Payments of the call's positions recorded now. */
  marked: z.number(),
  /** Payments MyPay reports that were already recorded here. */
  alreadyPaid: z.number(),
  /** Of the payments recorded now, those an operator must reconcile (another amount, a cancelled position, paid twice). */
  toReconcile: z.number(),
  /** Rows MyPay reports paid that match no position of the portal (unknown IUD). */
  unmatched: z.number(),
  from: z.string(),
  to: z.string(),
  message: z.string(),
});
export type ReportingResult = z.output<typeof reportingResultSchema>;

/** 'Rendicontazione' as a background job (domain/jobs.ts REPORTING_JOB): its status, and its outcome once done. */
export const reportingStatusSchema = resultJobStatusSchema(reportingResultSchema);
export type ReportingStatus = z.output<typeof reportingStatusSchema>;
