import type { PositionRecord } from '../debt-positions.ts';
import { gpdCallIupd } from '../gpd-iupd.ts';
import { withAmount, type MonthPlan } from '../debt-positions.ts';
import type { ExportOutcome, PaymentRecord } from '../payment-record.ts';
import {
  closeReconciliation as closedReconciliation,
  settlePayment,
  type PaymentReceipt,
  type SettlementEffect,
} from '../payment-rules.ts';
import type { Guard } from './guards.ts';
import { isOpen } from './states.ts';

/**
 * The debt position's transitions, pure: each gives the position's next record and the guard the stored one
 * must pass for it to be written (guards.ts). The one writer of positions (functions/positions/repository.ts
 * applyTransition, applyTransitions) writes nothing else.
 *
 * `write`: 'replace' puts the whole record; 'patch' sets only the fields that changed (a checkout's hold, an
 * export's verdict, a payment put back: other writers' fields stay), moving the version on when `after`'s
 * did.
 */
export type TransitionName =
  | 'create'
  | 'edit'
  | 'cancel'
  | 'reserve-iuv'
  | 'export-outcome'
  | 'hold'
  | 'verify'
  | 'release'
  | 'settle'
  | 'restore-payment'
  | 'close-reconciliation';

export interface Transition {
  name: TransitionName;
  /** The position as read (null: a create). */
  before: PositionRecord | null;
  after: PositionRecord;
  guard: Guard;
  write: 'replace' | 'patch';
  /** Fields a patch removes whatever the read said (a checkout's hold ends). */
  remove?: readonly (keyof PositionRecord)[];
}

/**
 * What a 'patch' writes over the stored position: the fields of `after` that differ from `before` (set), the
 * fields `after` no longer has and those the transition always removes (remove), and whether the stored
 * version moves on by one. The repository turns it into its UpdateExpression; an in-memory store applies it.
 */
export function patchOf({ before, after, remove = [] }: Transition & { before: PositionRecord }) {
  const was = before as unknown as Record<string, unknown>;
  const next = after as unknown as Record<string, unknown>;
  const set = Object.fromEntries(
    Object.entries(next).filter(
      ([name, value]) =>
        name !== 'version' && value !== undefined && JSON.stringify(value) !== JSON.stringify(was[name]),
    ),
  );
  const gone = Object.keys(was).filter((name) => was[name] !== undefined && next[name] === undefined);
  return { set, remove: [...new Set([...gone, ...remove])], movesVersion: after.version !== before.version };
}

/** A citizen's checkout's hold on the position. */
const CHECKOUT_FIELDS = ['checkoutSession', 'checkoutUrl', 'checkoutUntil', 'checkoutInVerifica'] as const;

/** An edit, a recalculation or a cancellation needs the version read, an open position and no live checkout at `now`. */
const changeGuard = (before: PositionRecord, now: string): Guard => [
  { kind: 'version', version: before.version },
  { kind: 'open' },
  { kind: 'not-held', at: now },
];

/**
 * A new position (the month's plan): only where none is. Under the call's export lock, right after a
 * consistent read found none, it needs no condition and goes in a batch.
 */
export const create = (position: PositionRecord, underExportLock = false): Transition => ({
  name: 'create',
  before: null,
  after: position,
  guard: underExportLock ? [{ kind: 'export-lock' }] : [{ kind: 'absent' }],
  write: 'replace',
});

/** A planned or edited change of an open position (debt-positions.ts withAmount): 'cancel' when the amount is 0. */
const change = (before: PositionRecord, after: PositionRecord, now: string): Transition => ({
  name: after.annullato ? 'cancel' : 'edit',
  before,
  after,
  guard: changeGuard(before, now),
  write: 'replace',
});

/** The operator's edit (a new amount and description; 0 cancels, final). */
export function edit(before: PositionRecord, amount: number, descrizione: string, now: string): Transition {
  return change(before, withAmount(before, amount, { descrizione }, now).after, now);
}

/** The transitions of a month's plan (debt-positions.ts planMonth), creates first. */
export function planTransitions(
  plan: Pick<MonthPlan, 'create' | 'update' | 'cancel'>,
  now: string,
  underExportLock = false,
): Transition[] {
  return [
    ...plan.create.map((position) => create(position, underExportLock)),
    ...[...plan.update, ...plan.cancel].map(({ before, after }) => change(before, after, now)),
  ];
}

/**
 * The position with MyPay's verdict on it: accepted, its IUV, notice number and where its notice PDF is (the
 * flow's AVVISI ZIP); rejected, the reason.
 */
export function withExportOutcome(position: PositionRecord, outcome: ExportOutcome): PositionRecord {
  if (outcome.kind === 'rejected')
    return {
      ...position,
      statoExport: 'ERRORE',
      lastExportError: outcome.reason,
      updatedAt: outcome.at,
      version: position.version + 1,
    };
  return {
    ...position,
    codIuv: outcome.iuv,
    nav: outcome.nav,
    statoExport: 'ESPORTATA',
    lastExportError: null,
    exportedAt: position.exportedAt ?? outcome.at,
    ...(outcome.noticeZip ? { noticeZip: outcome.noticeZip } : {}),
    updatedAt: outcome.at,
    version: position.version + 1,
  };
}

/**
 * The platform cancelled the position outside the portal (GPD: invalidated in pagoPA's back office; INVALID is
 * final there), read by 'Sincronizza': cancelled here too, with nothing left to send.
 */
export function cancelledAtPlatform(before: PositionRecord, now: string): Transition {
  const { after } = withAmount(before, 0, {}, now);
  return { ...change(before, after, now), after: { ...after, statoExport: 'ESPORTATA' } };
}

/**
 * GPD: the IUV an export reserved for a position it is about to create, saved on it with its iupd (gpdCallIupd)
 * before anything is sent (a retried step sends the same IUV and iupd). Under the call's export lock, on a position the platform does not
 * know yet (no IUV: nothing can pay it, no checkout holds it, edits are refused), so without a condition, in
 * batches (without the lock: on the version read); the version moves on, so an edit computed from an older read
 * cannot drop it.
 */
export function reserveIuv(before: PositionRecord, iuv: string, now: string, underExportLock = true): Transition {
  return {
    name: 'reserve-iuv',
    before,
    // The iupd goes with the IUV: from then on GPD knows the position by it, whatever changes in the code.
    after: {
      ...before,
      reservedIuv: iuv,
      iupd: before.iupd ?? gpdCallIupd(before.callId, before.iud),
      updatedAt: now,
      version: before.version + 1,
    },
    guard: underExportLock ? [{ kind: 'export-lock' }] : [{ kind: 'version', version: before.version }],
    write: 'replace',
  };
}

/**
 * Positions that only a payment can change while the export holds the call's lock: open, without a notice
 * number (no notice e-mail or IO message goes to them). Their verdicts go in batches inside the write-back
 * fence; the others are patched one by one.
 */
export const isBatchableWriteBack = (position: PositionRecord) => isOpen(position) && !position.nav;

/**
 * MyPay's verdict on an exported position (the export's write-back): in a batch inside the write-back fence
 * (isBatchableWriteBack), else on the position with that IUD, unless the verdict is there already.
 */
export function recordExportOutcome(before: PositionRecord, outcome: ExportOutcome): Transition {
  const batch = isBatchableWriteBack(before);
  return {
    name: 'export-outcome',
    before,
    after: withExportOutcome(before, outcome),
    guard: batch
      ? [{ kind: 'export-lock' }]
      : [
          { kind: 'iud', iud: before.iud },
          { kind: 'without-outcome', outcome },
        ],
    write: batch ? 'replace' : 'patch',
  };
}

/**
 * A citizen's checkout takes the position: the version read, open, not held by another live checkout. The
 * version does not move (nothing the operator sees changed).
 */
export function hold(
  before: PositionRecord,
  checkout: { session: string; url: string; until: string; now: string },
): Transition {
  return {
    name: 'hold',
    before,
    after: { ...before, checkoutSession: checkout.session, checkoutUrl: checkout.url, checkoutUntil: checkout.until },
    guard: [...changeGuard(before, checkout.now)],
    write: 'patch',
  };
}

/**
 * The citizen came back from checkout `session` and MyPay cannot say yet whether they paid (modello unico: no
 * receipt yet): the checkout keeps the position, marked 'in verifica', until `until` (payment-rules.ts
 * verifyingUntil), so 'Paga' is not offered meanwhile. Only if that session still holds it.
 */
export function verify(before: PositionRecord, session: string, until: string): Transition {
  return {
    name: 'verify',
    before,
    after: { ...before, checkoutUntil: until, checkoutInVerifica: true },
    guard: [{ kind: 'held-by', session }],
    write: 'patch',
  };
}

/** The checkout `session` ended without a payment: the position is free again (only if that session still holds it). */
export function release(before: PositionRecord, session: string): Transition {
  const { checkoutSession: _s, checkoutUrl: _u, checkoutUntil: _t, checkoutInVerifica: _v, ...after } = before;
  return {
    name: 'release',
    before,
    after: after as PositionRecord,
    guard: [{ kind: 'held-by', session }],
    write: 'patch',
    remove: CHECKOUT_FIELDS,
  };
}

/**
 * What MyPay says was paid (payment-rules.ts settlePayment): recorded on any position, paid or cancelled
 * too, on the version read only. Null when there is nothing to write (the same receipt, another position).
 */
export function settle(
  before: PositionRecord,
  receipt: PaymentReceipt,
  at: string,
): { transition: Transition | null; effect: SettlementEffect<PositionRecord> } {
  const effect = settlePayment(before, receipt, at);
  if (effect.kind !== 'recorded') return { transition: null, effect };
  return {
    transition: {
      name: 'settle',
      before,
      after: effect.after,
      guard: [{ kind: 'version', version: before.version }],
      write: 'replace',
    },
    effect,
  };
}

/** How many payments a position (or a receipt) holds: the one with more is the later one. */
export const paymentCount = (item: { pagamenti?: unknown[]; isPagato?: boolean }) =>
  Array.isArray(item.pagamenti) ? item.pagamenti.length : item.isPagato ? 1 : 0;

/**
 * A payment put back on its position after an export's batch overwrote it (the write-back fence): what the
 * payment wrote, as its receipt holds it; MyPay's IUV, once the write-back brought it, stays. Null when the
 * position holds as many payments already (this one or a later one) or is another position.
 */
export function restorePayment(before: PositionRecord, receipt: PaymentRecord): Transition | null {
  if (before.iud !== receipt.iud || paymentCount(before) >= paymentCount(receipt)) return null;
  const { userId: _userId, iud: _iud, codIuv, nav, ...paid } = receipt;
  const { checkoutSession: _s, checkoutUrl: _u, checkoutUntil: _t, checkoutInVerifica: _v, ...rest } = before;
  const after = {
    ...rest,
    ...paid,
    ...(before.codIuv ? {} : { codIuv, nav }),
    version: before.version + 1,
  } as PositionRecord;
  return {
    name: 'restore-payment',
    before,
    after,
    guard: [{ kind: 'version', version: before.version }],
    write: 'patch',
    remove: CHECKOUT_FIELDS,
  };
}

/** 'Chiudi riconciliazione' (payment-rules.ts closeReconciliation): the version read, still to reconcile. Null when there is nothing to close. */
export function closeReconciliation(
  before: PositionRecord,
  close: { nota: string; chiusaDa: string },
  now: string,
): Transition | null {
  const after = closedReconciliation(before, close, now);
  if (!after) return null;
  return {
    name: 'close-reconciliation',
    before,
    after,
    guard: [{ kind: 'version', version: before.version }, { kind: 'to-reconcile' }],
    write: 'replace',
  };
}
