import type { PositionRecord } from './debt-positions.ts';
import type { PlatformPayment, PlatformPositionState } from './payment-platform.ts';
import { cancelledAtPlatform, edit, isOpen, type Transition } from './positions/index.ts';

/**
 * 'Sincronizza' on a platform that keeps each position's state (GPD, issue 37): what the portal does with an open
 * position it has sent, given the platform's state of it (the adapter maps GPD's onto the portal's states,
 * domain/gpd.ts portalStateOfGpd). Pure: the use case (functions/payments) reads the states and writes.
 *
 * - paid there (through pagoPA or outside it: a counter, a bank's app): the payments are recorded as the reporting
 *   records them (positions/settlement.ts: another amount goes to reconciliation);
 * - invalidated there (final at GPD): cancelled here, nothing to send;
 * - not payable there and able to be again (GPD's EXPIRED, or DRAFT after an update without toPublish): sent
 *   again by the next export, which publishes it with a due date GPD accepts;
 * - anything else, or a position the platform does not know: nothing.
 */
export type PlatformSync =
  | { kind: 'settle'; payments: PlatformPayment[] }
  | { kind: 'cancel' | 'republish'; transition: Transition }
  | { kind: 'none' };

/** Positions whose platform state 'Sincronizza' reads: open, and accepted by the platform once. */
export const syncsWithPlatform = (position: PositionRecord): boolean =>
  isOpen(position) && position.exportedAt !== null;

const REPUBLISHABLE = new Set(['EXPIRED', 'DRAFT']);

export function platformSync(
  position: PositionRecord,
  atPlatform: PlatformPositionState | null,
  now: string,
): PlatformSync {
  if (!atPlatform || !syncsWithPlatform(position)) return { kind: 'none' };
  if (atPlatform.payments.length) return { kind: 'settle', payments: atPlatform.payments };
  if (atPlatform.state === 'cancelled') return { kind: 'cancel', transition: cancelledAtPlatform(position, now) };
  if (
    atPlatform.state === 'open' &&
    !atPlatform.payable &&
    REPUBLISHABLE.has(atPlatform.platformState) &&
    position.statoExport === 'ESPORTATA'
  )
    return {
      kind: 'republish',
      transition: edit(position, position.importoDovuto, position.descrizione, now),
    };
  return { kind: 'none' };
}
