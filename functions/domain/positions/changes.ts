import type { Transition } from './transitions.ts';

/** A position one write changed: as it was read (null: created) and as it was written. */
export type PositionChange = Pick<Transition, 'before' | 'after'>;

/**
 * The "positions changed" port. The one writer of positions (functions/positions/repository.ts
 * makePositionWriter) tells it which positions each successful write changed; what is derived from
 * positions (the payment list's rows and totals, functions/payment-list/projection.ts) follows from
 * that, so no use case refreshes it itself.
 */
export interface PositionsChanged {
  positionsChanged(changes: readonly PositionChange[]): Promise<unknown>;
}

/** Nothing follows the positions (a tool or a test that only writes them). */
export const noPositionsListener: PositionsChanged = { positionsChanged: async () => undefined };
