import type { ExportState } from '../position-rules.ts';

/**
 * A debt position's states (design §4), decided here once. Open: neither paid nor cancelled (the only
 * state an edit, a recalculation, a cancellation, a checkout or a notice may touch); held: open, and a
 * citizen's live MyPay checkout holds it; paid and cancelled are final (money collected for a cancelled
 * position is recorded too, and reads paid); to reconcile: paid with something an operator must look at.
 * Type-only imports: the web, the repositories and every rule import this file.
 */
export type PositionState = 'open' | 'held' | 'paid' | 'cancelled' | 'to-reconcile';

/** What the states read of a position. */
export interface StateFields {
  isPagato: boolean;
  annullato: boolean;
  checkoutUntil?: string | null;
  riconciliazione?: unknown;
}

/** The one definition of "an open position": neither paid nor cancelled. */
export const isOpen = (position: Pick<StateFields, 'isPagato' | 'annullato'>): boolean =>
  !position.isPagato && !position.annullato;

/** A paid or cancelled position never changes again (design §4): the opposite of open. */
export const isFinal = (position: Pick<StateFields, 'isPagato' | 'annullato'>): boolean => !isOpen(position);

/** Whether a citizen's checkout holds the position at `now` (until its checkoutUntil). */
export const isHeld = (position: Pick<StateFields, 'checkoutUntil'>, now: Date): boolean =>
  Boolean(position.checkoutUntil) && Date.parse(position.checkoutUntil!) > now.getTime();

/** Whether an operator must reconcile what MyPay collected for the position. */
export const isToReconcile = (position: Pick<StateFields, 'riconciliazione'>): boolean =>
  Boolean(position.riconciliazione);

/** The position's state at `now`. */
export function positionState(position: StateFields, now: Date): PositionState {
  if (isToReconcile(position)) return 'to-reconcile';
  if (position.isPagato) return 'paid';
  if (position.annullato) return 'cancelled';
  return isHeld(position, now) ? 'held' : 'open';
}

/** The export status beside the state: what the next MyPay import must do with the position (never a paid one). */
export const isPendingExport = (position: { statoExport: ExportState; isPagato: boolean }): boolean =>
  !position.isPagato && (position.statoExport === 'DA_ESPORTARE' || position.statoExport === 'ERRORE');
