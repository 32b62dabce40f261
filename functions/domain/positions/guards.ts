import type { ExportOutcome } from '../payment-record.ts';
import { isOpen, type StateFields } from './states.ts';

/**
 * What a transition needs of the STORED position to be written (transitions.ts): each clause one condition,
 * all of them together. The repository turns a guard into the write's ConditionExpression
 * (functions/positions/repository.ts conditionOf); an in-memory store checks it with guardHolds. Pure data,
 * so the same guard is the rule in both places.
 */
export type GuardClause =
  /** No position there yet (a create). */
  | { kind: 'absent' }
  /** The position is there. */
  | { kind: 'present' }
  /** Still the version the transition was computed from (nobody wrote it meanwhile). */
  | { kind: 'version'; version: number }
  /** Open: neither paid nor cancelled (states.ts isOpen). */
  | { kind: 'open' }
  /** No citizen's checkout holds it at `at` (ISO): none, or one that has expired. */
  | { kind: 'not-held'; at: string }
  /** Still to reconcile. */
  | { kind: 'to-reconcile' }
  /** Held by this checkout session. */
  | { kind: 'held-by'; session: string }
  /** The position with this IUD (the item's key is call, month and citizen). */
  | { kind: 'iud'; iud: string }
  /** MyPay's verdict is not on it already (a restarted Collect writes nothing twice). */
  | { kind: 'without-outcome'; outcome: ExportOutcome }
  /**
   * No condition: the call's export lock keeps every other writer of the month off (a create right after a
   * consistent read found none; a verdict inside the write-back fence). Such writes go in batches.
   */
  | { kind: 'export-lock' };

export type Guard = readonly GuardClause[];

/** What a guard reads of a stored position. */
export type Guarded = StateFields & {
  version: number;
  iud: string;
  statoExport: string;
  codIuv: string | null;
  lastExportError: string | null;
  checkoutSession?: string | null;
};

/** The verdict is on the position already. */
export const hasExportOutcome = (
  position: Pick<Guarded, 'statoExport' | 'codIuv' | 'lastExportError'>,
  outcome: ExportOutcome,
): boolean =>
  outcome.kind === 'accepted'
    ? position.statoExport === 'ESPORTATA' && position.codIuv === outcome.iuv
    : position.statoExport === 'ERRORE' && position.lastExportError === outcome.reason;

function clauseHolds(clause: GuardClause, stored: Guarded | null): boolean {
  if (clause.kind === 'absent') return stored === null;
  if (clause.kind === 'export-lock') return true;
  if (stored === null) return false;
  switch (clause.kind) {
    case 'present':
      return true;
    case 'version':
      return stored.version === clause.version;
    case 'open':
      return isOpen(stored);
    case 'not-held':
      // As the stored condition compares it: an ISO time strictly before `at` has expired.
      return !stored.checkoutUntil || stored.checkoutUntil < clause.at;
    case 'to-reconcile':
      return typeof stored.riconciliazione === 'object' && stored.riconciliazione !== null;
    case 'held-by':
      return stored.checkoutSession === clause.session;
    case 'iud':
      return stored.iud === clause.iud;
    case 'without-outcome':
      return !hasExportOutcome(stored, clause.outcome);
  }
}

/** Whether the stored position (null: none) lets a transition with this guard be written. */
export const guardHolds = (guard: Guard, stored: Guarded | null): boolean =>
  guard.every((clause) => clauseHolds(clause, stored));

/** A guard's writes may go in batches (no condition to check: the export lock holds the month). */
export const isBatchable = (guard: Guard): boolean => guard.length === 1 && guard[0]!.kind === 'export-lock';
