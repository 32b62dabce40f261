import { createHash } from 'node:crypto';
import type { MyPayAction } from './configuration.ts';
import { daysInMonth, type Fee } from './fee.ts';
import { messages } from './messages.ts';
import type { Position, Skipped } from './payments.ts';
import { periodKey, type Period } from './period.ts';
import { monthNames, type ExportState } from './position-rules.ts';
import { isFinal, isPendingExport } from './positions/states.ts';

export { isFinal, isPendingExport };

/**
 * Debt positions (posizioni debitorie): one per approved subscription and month with a fee above zero
 * (design §4). Pure rules: the IUD, the due date, the causale, and `planMonth`, which says what a
 * (re)generation of a month does. Amounts are integer euro cents.
 */

/** A position as stored: the API view plus what the rules need. */
export interface PositionRecord extends Position {
  /** When MyPay first accepted the position (the export writes it back); null while MyPay does not know it. */
  exportedAt: string | null;
  /** The ISEE the amount was computed from. */
  iseeId: string | null;
  version: number;
  /** identificativoUnivocoRiscossione of the payment (position-payment.ts), once paid. */
  iur?: string | null;
  /** MyPay's AVVISI ZIP (exports bucket) holding the notice PDF, written back with the IUV (adapters/notice-pdf.ts). */
  noticeZip?: string | null;
  /** Every payment MyPay reported for the position, oldest first (position-payment.ts settlePayment). */
  pagamenti?: RecordedPayment[];
  /**
   * A citizen's MyPay checkout of this position, while live (position-payment.ts): its session, where to
   * resume it, and until when it holds the position (ISO). No edit, recalculation or export touches it then.
   */
  checkoutSession?: string | null;
  checkoutUrl?: string | null;
  /**
   * Cents: the amount the position had when it was cancelled. MyPay4 refuses a zero amount for every action,
   * cancellations included, and wants the bilancio to add up to it (ImportFlussoTaskService.validaElabora,
   * IMPORTO SINGOLO VERSAMENTO and BILANCIO), so the A row carries this, not the 0 the portal shows.
   */
  importoAnnullato?: number | null;
  /**
   * GPD (issue 37): the IUV the export reserved for the position from the council's sequence, saved BEFORE it is
   * sent, so a retried step sends the same IUV (and GPD reads a 409 back by iupd). Once GPD accepts it, it is
   * also codIuv. Never set on MyPay, which gives the IUV itself.
   */
  reservedIuv?: string | null;
  /**
   * GPD: the iupd the position was created with at GPD, chosen with its reserved IUV (domain/gpd.ts gpdCallIupd, so
   * that a call's positions sit together in GPD's list). Absent on positions reserved before it existed: GPD knows
   * those by the iupd derived from the IUD (gpdIupd), and they keep it. Never changed once set.
   */
  iupd?: string | null;
}

/** One payment MyPay collected for a position (a receipt of paaSILChiediPagati or of the reporting). */
export interface RecordedPayment {
  /** identificativoUnivocoRiscossione: pagoPA's id of the receipt (empty when MyPay gave none). */
  iur: string;
  iuv: string;
  /** Cents. */
  importo: number;
  /** yyyy-MM-dd (dataEsitoSingoloPagamento). */
  data: string;
  /** When the portal recorded it (ISO). */
  registratoIl: string;
  /** The PSP that collected it, when the platform says (GPD's receipt: PSPCompanyName). */
  psp?: string;
}

export const IUD_MAX_LENGTH = 35;

/** What the API shows of a stored position (the internal fields stay in the table). */
export function publicPosition(record: PositionRecord): Position {
  const {
    exportedAt: _e,
    iseeId: _i,
    version: _v,
    iur: _r,
    noticeZip: _z,
    pagamenti: _p,
    checkoutSession: _s,
    checkoutUrl: _u,
    importoAnnullato: _a,
    reservedIuv: _ri,
    iupd: _iupd,
    ...position
  } = record;
  return position;
}

/**
 * The months 'Sincronizza' looks at for a call of `callYear`: from January of that year to December of it,
 * or to the current month when later, at most the last 36 (a call's unpaid positions are within these).
 */
export function syncCandidateMonths(callYear: number, current: Period): Period[] {
  const index = (p: Period) => p.anno * 12 + (p.mese - 1);
  const end = Math.max(index({ anno: callYear, mese: 12 }), index(current));
  const start = Math.max(index({ anno: callYear, mese: 1 }), end - 35);
  const months: Period[] = [];
  for (let i = start; i <= end; i++) months.push({ anno: Math.floor(i / 12), mese: (i % 12) + 1 });
  return months;
}

/**
 * The IUD (MyPay's "identificativo univoco dovuto", ≤ 35 characters, unique per entity): 'P', the month
 * as yyyymm, and the first 28 hex digits (112 bits) of SHA-256(callId NUL userId). Deterministic, so a
 * month generated or exported twice names the same position. Two different positions can only share an
 * IUD if they are in the same month AND their (call, citizen) pairs share 112 hash bits: with n pairs
 * the chance is about n²/2^113 (10^6 pairs → ~10^-22), and the month in clear keeps months apart.
 */
export function positionIud(callId: string, userId: string, period: Period): string {
  const digest = createHash('sha256').update(`${callId}\u0000${userId}`).digest('hex').slice(0, 28).toUpperCase();
  return `P${periodKey(period).replace('-', '')}${digest}`;
}

/** Due date (design decision): the last day of the month the fee is for, yyyy-MM-dd (29 February in leap years). */
export const dueDate = (period: Period): string =>
  `${periodKey(period)}-${String(daysInMonth(period.anno, period.mese)).padStart(2, '0')}`;

export interface PlanCall {
  id: string;
  name: string;
  serviceName: string;
}

/** An approved subscription with the fee of the month (functions/domain/fee.ts). */
export interface PlannedSubscription {
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  fee: Fee;
  iseeId: string | null;
}

/** Position title: the service and the month ("Assistenza domiciliare – Marzo 2026"). */
export const positionTitle = (call: PlanCall, period: Period) =>
  `${call.serviceName} – ${monthNames[period.mese - 1]} ${period.anno}`;

/**
 * The causale: which service, which call, whose subscription, which month (citizens asked that the
 * notice names the beneficiary: reference.md, IO). MyPay allows 1024 characters; pagoPA shows 140, so
 * the essentials come first.
 */
export const positionCausale = (
  call: PlanCall,
  subscriber: Pick<PlannedSubscription, 'firstName' | 'lastName' | 'fiscalCode'>,
  period: Period,
) =>
  `Quota ${monthNames[period.mese - 1]} ${period.anno} ${call.serviceName} - ${subscriber.lastName} ${subscriber.firstName} (${subscriber.fiscalCode}) - bando ${call.name}`;

export interface MonthPlan {
  create: PositionRecord[];
  update: Array<{ before: PositionRecord; after: PositionRecord }>;
  cancel: Array<{ before: PositionRecord; after: PositionRecord }>;
  unchanged: PositionRecord[];
  exempt: number;
  skipped: Skipped[];
}

/**
 * The platform holds (or may hold) this position: an import accepted it, or (GPD) an export sent it with the IUV it
 * reserved, whose answer may have been lost. Changes must go as M / A.
 */
export const knownToMyPay = (position: Pick<PositionRecord, 'exportedAt' | 'codIuv' | 'reservedIuv'>) =>
  position.exportedAt !== null || position.codIuv !== null || Boolean(position.reservedIuv);

const skip = (s: Pick<PlannedSubscription, 'fiscalCode' | 'firstName' | 'lastName'>, reason: string): Skipped => ({
  fiscalCode: s.fiscalCode,
  cognome: s.lastName,
  nome: s.firstName,
  reason,
});

/**
 * What generating a month does, from the month's positions and the call's approved subscriptions:
 * - a fee above zero and no position → create (azione I);
 * - an unpaid, not cancelled position with another amount → update (M if MyPay knows it, else still I);
 * - an amount now 0 (ISEE ≤ 3000 €, or 0 hours) on an unpaid position → cancel (A; final; a position
 *   MyPay never saw is cancelled locally with nothing to send);
 * - a paid position, a position with the same amount → unchanged; a cancelled one stays cancelled
 *   (reported when a fee is due again: a cancelled position is never reopened);
 * - no validated ISEE, or an ISEE in none of the call's bands → skipped with the reason (nothing written;
 *   an existing position stays as it is: the operator fixes the data, then regenerates);
 * - a position whose citizen is no longer among the approved subscriptions is left as it is and reported
 *   (suspending someone must not silently cancel money already asked for: cancelling is final).
 */
export function planMonth(input: {
  call: PlanCall;
  period: Period;
  existing: readonly PositionRecord[];
  subscriptions: readonly PlannedSubscription[];
  now: string;
}): MonthPlan {
  const { call, period, now } = input;
  const existingByUser = new Map(input.existing.map((position) => [position.userId, position]));
  const plan: MonthPlan = { create: [], update: [], cancel: [], unchanged: [], exempt: 0, skipped: [] };
  const seen = new Set<string>();

  for (const subscription of input.subscriptions) {
    if (seen.has(subscription.userId)) continue;
    seen.add(subscription.userId);
    const position = existingByUser.get(subscription.userId) ?? null;
    const { fee } = subscription;
    if (fee.kind === 'NO_ISEE' || fee.kind === 'NO_BAND') {
      plan.skipped.push(
        skip(subscription, fee.kind === 'NO_ISEE' ? messages.positions.noIsee : messages.positions.noBand),
      );
      if (position) plan.unchanged.push(position);
      continue;
    }
    const amount = fee.amountCents;
    if (!position) {
      if (amount > 0) plan.create.push(newPosition(call, period, subscription, amount, now));
      else plan.exempt += 1;
      continue;
    }
    if (position.annullato) {
      if (amount > 0) plan.skipped.push(skip(subscription, messages.positions.cancelledFinal));
      else plan.exempt += 1;
      plan.unchanged.push(position);
      continue;
    }
    if (position.isPagato || position.importoDovuto === amount) {
      plan.unchanged.push(position);
      continue;
    }
    const change = withAmount(position, amount, { iseeId: subscription.iseeId }, now);
    (change.kind === 'cancel' ? plan.cancel : plan.update).push({ before: position, after: change.after });
  }

  for (const position of input.existing) {
    if (seen.has(position.userId)) continue;
    if (!isFinal(position))
      plan.skipped.push({
        fiscalCode: position.fiscalCode,
        cognome: position.cognome,
        nome: position.nome,
        reason: messages.positions.notApproved,
      });
    plan.unchanged.push(position);
  }
  return plan;
}

/**
 * A new amount on an unpaid, not cancelled position (the month's generation and the operator's edit):
 * 0 cancels it (final; azione A to send when MyPay knows it, else cancelled locally with nothing to send);
 * another amount is a change (M once MyPay knows it, still I before), to export.
 */
export function withAmount(
  position: PositionRecord,
  amount: number,
  extra: { iseeId?: string | null; descrizione?: string },
  now: string,
): { kind: 'cancel' | 'update'; after: PositionRecord } {
  const known = knownToMyPay(position);
  const iseeId = extra.iseeId === undefined ? position.iseeId : extra.iseeId;
  const fields = extra.descrizione === undefined ? {} : { descrizione: extra.descrizione };
  if (amount === 0) {
    const cancelled = changed(
      position,
      {
        ...fields,
        importoDovuto: 0,
        annullato: true,
        azione: 'A',
        statoExport: known ? 'DA_ESPORTARE' : 'NESSUNA',
        iseeId,
      },
      now,
    );
    return { kind: 'cancel', after: { ...cancelled, importoAnnullato: position.importoDovuto } };
  }
  return {
    kind: 'update',
    after: changed(
      position,
      { ...fields, importoDovuto: amount, azione: known ? 'M' : 'I', statoExport: 'DA_ESPORTARE', iseeId },
      now,
    ),
  };
}

function changed(
  position: PositionRecord,
  fields: {
    importoDovuto: number;
    azione: MyPayAction;
    statoExport: ExportState;
    annullato?: boolean;
    iseeId: string | null;
    descrizione?: string;
  },
  now: string,
): PositionRecord {
  return { ...position, ...fields, lastExportError: null, updatedAt: now, version: position.version + 1 };
}

function newPosition(
  call: PlanCall,
  period: Period,
  subscription: PlannedSubscription,
  amount: number,
  now: string,
): PositionRecord {
  const iud = positionIud(call.id, subscription.userId, period);
  return {
    id: iud,
    iud,
    callId: call.id,
    userId: subscription.userId,
    fiscalCode: subscription.fiscalCode,
    cognome: subscription.lastName,
    nome: subscription.firstName,
    mese: period.mese,
    anno: period.anno,
    titolo: positionTitle(call, period),
    descrizione: positionCausale(call, subscription, period),
    importoDovuto: amount,
    importoTotalePagato: 0,
    isPagato: false,
    annullato: false,
    codIuv: null,
    nav: null,
    dataScadenza: dueDate(period),
    azione: 'I',
    statoExport: 'DA_ESPORTARE',
    lastExportError: null,
    isEmailSent: false,
    dataIsEmailSent: null,
    ioId: null,
    dataEsitoSingoloPagamento: null,
    createdAt: now,
    updatedAt: now,
    exportedAt: null,
    iseeId: subscription.iseeId,
    version: 1,
  };
}
