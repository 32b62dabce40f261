import type { PositionRecord, RecordedPayment } from './debt-positions.ts';
import { navOfIuv } from './iuv.ts';
import { fill, paymentOutcomeMessages } from './messages.ts';
import type { ClosedReconciliation, Position, Reconciliation } from './payments.ts';
import { isHeld, isOpen } from './positions/states.ts';

/**
 * Paying a debt position (issues 9, 21, 26): the rules, without zod, so that the functions that only apply
 * them (the settlement, the payments' conditional writes) do not bundle the payment routes' schemas
 * (position-payment.ts re-exports them with those schemas). One rule for both paths — the citizen's return
 * from MyPay and the reporting of what MyPay says was paid — so a payment is recorded the same way whichever
 * comes first, and only once.
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
  /** identificativoUnivocoRiscossione: pagoPA's id of the transaction (GPD: the receipt's receiptId). */
  iur: string;
  /** The PSP that collected it, when the platform says. */
  psp?: string;
}

/** A payment as the payment platform reports it (domain/payment-platform.ts), as the settlement reads it. */
export const receiptOfPayment = (payment: {
  iud: string;
  iuv: string;
  amountCents: number;
  paidOn: string;
  receiptId: string;
  psp?: string;
}): PaymentReceipt => ({
  iud: payment.iud,
  iuv: payment.iuv,
  amountCents: payment.amountCents,
  paidOn: payment.paidOn,
  iur: payment.receiptId,
  ...(payment.psp ? { psp: payment.psp } : {}),
});

/** The fields a payment writes on a position (a record keeps them; the API shows isPagato and the date). */
export interface PaidFields {
  isPagato: boolean;
  importoTotalePagato: number;
  dataEsitoSingoloPagamento: string | null;
  codIuv: string | null;
  nav: string | null;
  /** identificativoUnivocoRiscossione of the first payment, once paid. */
  iur?: string | null;
  pagamenti?: RecordedPayment[];
  riconciliazione?: Reconciliation | null;
  /** The last reconciliation an operator closed (closeReconciliation). */
  riconciliazioneChiusa?: ClosedReconciliation | null;
}

type Payable = Pick<Position, 'iud' | 'isPagato' | 'annullato' | 'importoDovuto' | 'codIuv' | 'nav' | 'updatedAt'> &
  PaidFields &
  Pick<PositionRecord, 'checkoutSession' | 'checkoutUrl' | 'checkoutUntil'> & { version: number };

/** A position can be paid while it is neither paid nor cancelled and asks for some money. */
export const isPayable = (position: Pick<Position, 'isPagato' | 'annullato' | 'importoDovuto'>) =>
  isOpen(position) && position.importoDovuto > 0;

/**
 * The portal sends the citizen to pay a position only once MyPay holds it exactly as shown: accepted by an
 * import (a notice number) with no change waiting to be sent. MyPay4 pays an imported position by its own
 * record (paaSILVerificaAvviso's landing), so an amount changed here but not yet exported would be collected
 * at the old one.
 */
export const isPayableOnline = (
  position: Pick<Position, 'isPagato' | 'annullato' | 'importoDovuto' | 'nav' | 'statoExport'>,
) => isPayable(position) && position.nav !== null && position.statoExport === 'ESPORTATA';

/**
 * How long a citizen's checkout holds the position: MyPay4 expires a cart not started within 15 minutes
 * (application.properties task.scadenzaCarrello.minutiScadenzaCarrello) and pagoPA's payment token lives 30
 * (activatePaymentNotice's default expirationTime, 1800 s). A receipt arriving later is still recorded
 * (settlePayment), marked for reconciliation if the position changed meanwhile.
 */
export const CHECKOUT_HOLD_MS = 30 * 60_000;

/**
 * How long past its hold a checkout whose outcome MyPay could not tell yet keeps the position: until the
 * reporting that follows the hold (functions/domain/reporting.ts followUpTimes, swept every 5 minutes) has run.
 * By then pagoPA's token has expired: a payment made is recorded, and one never made will not come.
 */
export const VERIFY_AFTER_HOLD_MS = 15 * 60_000;

/** Until when a checkout in verification holds the position (ISO), from the hold it had. */
export const verifyingUntil = (position: Pick<PositionRecord, 'checkoutUntil'>, now: Date) =>
  new Date(
    Math.max(position.checkoutUntil ? Date.parse(position.checkoutUntil) : 0, now.getTime()) + VERIFY_AFTER_HOLD_MS,
  ).toISOString();

/** 'Pagamento in verifica': the citizen's checkout's outcome is not known yet, and it still holds the position. */
export const isVerifyingPayment = (position: Pick<PositionRecord, 'checkoutUntil' | 'checkoutInVerifica'>, now: Date) =>
  Boolean(position.checkoutInVerifica) && isHeld(position, now);

/** Whether a citizen's checkout holds the position now. */
export const hasLiveCheckout = (position: Pick<PositionRecord, 'checkoutUntil'>, now: Date) => isHeld(position, now);

/** The payments recorded on a position: the list, or the one payment of a position paid before the list existed. */
export function paymentsOf(
  position: Pick<
    Payable,
    'pagamenti' | 'isPagato' | 'importoTotalePagato' | 'iur' | 'codIuv' | 'dataEsitoSingoloPagamento' | 'updatedAt'
  >,
): RecordedPayment[] {
  if (position.pagamenti) return position.pagamenti;
  if (!position.isPagato || position.importoTotalePagato <= 0) return [];
  return [
    {
      iur: position.iur ?? '',
      iuv: position.codIuv ?? '',
      importo: position.importoTotalePagato,
      data: position.dataEsitoSingoloPagamento ?? '',
      registratoIl: position.updatedAt,
    },
  ];
}

/**
 * Whether an operator must reconcile what MyPay collected (design §4): money for a cancelled position, a
 * position paid more than once, or an amount other than the one due. Null when the payment matches.
 */
export function reconciliationOf(
  position: Pick<Position, 'annullato' | 'importoDovuto'>,
  payments: readonly RecordedPayment[],
): Reconciliation | null {
  if (!payments.length) return null;
  const paid = payments.reduce((sum, p) => sum + p.importo, 0);
  if (position.annullato) return { motivo: 'ANNULLATA', differenza: paid };
  if (payments.length > 1) return { motivo: 'PAGATA_PIU_VOLTE', differenza: paid - position.importoDovuto };
  if (paid !== position.importoDovuto) return { motivo: 'IMPORTO_DIVERSO', differenza: paid - position.importoDovuto };
  return null;
}

/** The same receipt again (a reload, the reporting after the return): by pagoPA's IUR, or all its data when it has none. */
const sameReceipt = (recorded: RecordedPayment, receipt: PaymentReceipt) =>
  receipt.iur
    ? recorded.iur === receipt.iur
    : !recorded.iur &&
      recorded.iuv === receipt.iuv &&
      recorded.importo === receipt.amountCents &&
      recorded.data === receipt.paidOn;

export type SettlementEffect<P> =
  /** Recorded now; `reconciliation` when an operator must look at it. */
  | { kind: 'recorded'; after: P; reconciliation: Reconciliation | null }
  /** This receipt was recorded before: nothing changes. */
  | { kind: 'already-recorded' }
  /** The receipt is for another position: nothing is written. */
  | { kind: 'mismatch' };

/**
 * Records what MyPay says was paid (design §4, issue 21): whatever MyPay collected is kept, never dropped.
 * The first payment of an unpaid position makes it paid with the amount actually paid, the date, the IUR and
 * the IUV (and its notice number); a payment of another amount, of a cancelled position, or a second
 * payment is recorded too and marks the position for reconciliation with the difference. The same receipt
 * twice changes nothing. A live checkout ends with the payment. The next version.
 */
export function settlePayment<P extends Payable>(
  position: P,
  receipt: PaymentReceipt,
  now: string,
): SettlementEffect<P> {
  if (receipt.iud !== position.iud) return { kind: 'mismatch' };
  const before = paymentsOf(position);
  if (before.some((recorded) => sameReceipt(recorded, receipt))) return { kind: 'already-recorded' };
  const pagamenti = [
    ...before,
    {
      iur: receipt.iur,
      iuv: receipt.iuv || position.codIuv || '',
      importo: receipt.amountCents,
      data: receipt.paidOn,
      registratoIl: now,
      ...(receipt.psp ? { psp: receipt.psp } : {}),
    },
  ];
  const first = pagamenti[0]!;
  const reconciliation = reconciliationOf(position, pagamenti);
  const iuv = position.codIuv || receipt.iuv || null;
  return {
    kind: 'recorded',
    reconciliation,
    after: {
      ...position,
      isPagato: true,
      importoTotalePagato: pagamenti.reduce((sum, p) => sum + p.importo, 0),
      dataEsitoSingoloPagamento: first.data,
      iur: first.iur || null,
      pagamenti,
      riconciliazione: reconciliation,
      codIuv: iuv,
      nav: iuv ? (position.nav ?? navOfIuv(iuv)) : position.nav,
      checkoutSession: null,
      checkoutUrl: null,
      checkoutUntil: null,
      checkoutInVerifica: null,
      updatedAt: now,
      version: position.version + 1,
    },
  };
}

/**
 * 'Chiudi riconciliazione' (issue 21): the council refunded the citizen or accepted the difference. The
 * position is no longer to reconcile and keeps what was to reconcile with the operator's note, who closed it
 * and when; the payments MyPay collected stay as they are (money collected is never erased), so the position
 * reads 'Pagato' with what was paid. Null when there is nothing to close. A later payment marks it again
 * (settlePayment). The next version.
 */
export function closeReconciliation<P extends Payable>(
  position: P,
  close: { nota: string; chiusaDa: string },
  now: string,
): P | null {
  if (!position.riconciliazione) return null;
  return {
    ...position,
    riconciliazione: null,
    riconciliazioneChiusa: { ...position.riconciliazione, nota: close.nota, chiusaDa: close.chiusaDa, chiusaIl: now },
    updatedAt: now,
    version: position.version + 1,
  };
}

/** MyPay's answer to paaSILChiediPagati, as the adapter reads it (functions/adapters/ports/mypay.ts); UNKNOWN: not known yet. */
export type CheckoutStatus = 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING' | 'EXPIRED' | 'UNKNOWN';

/**
 * What MyPay4's landing would refuse before letting the citizen pay (PaymentManagerService.debitValidation,
 * DovutoService.validateAndNormalizeAnagraficaPagatore, Utilities.isValidCAP): an Italian payer's CAP that is
 * not 5 digits, and — where the payment type requires a due date (mygov_ente_tipo_dovuto
 * flg_scadenza_obbligatoria: the setting MYPAY_SCADENZA_OBBLIGATORIA) — a due date before today (Europe/Rome).
 * Each reason in Italian, saying what the office must fix; empty when MyPay would let the citizen pay.
 */
export function checkoutBlockers(
  payer: { cap?: string | null; nation?: string | null },
  position: { dataScadenza: string },
  options: { today: string; dueDateRequired: boolean },
): string[] {
  const reasons: string[] = [];
  const cap = (payer.cap ?? '').trim();
  const nation = ((payer.nation ?? '').trim() || 'IT').toUpperCase();
  if (cap && nation === 'IT' && !/^[0-9]{5}$/.test(cap)) reasons.push(fill(paymentOutcomeMessages.blockedCap, { cap }));
  if (options.dueDateRequired && position.dataScadenza.slice(0, 10) < options.today)
    reasons.push(paymentOutcomeMessages.blockedPastDue);
  return reasons;
}
