import type { PositionRecord } from './debt-positions.ts';
import type { PlatformPosition } from './payment-platform.ts';

/**
 * A month's export to a platform that takes positions one by one (GPD, issue 37): what the platform must do with
 * each pending position, as the payment-platform port says it (domain/payment-platform.ts PlatformPosition).
 * Pure: the use case (functions/payments) reserves the IUVs and saves them before any of this is sent.
 */

/**
 * What to do at the platform: a cancelled position is invalidated; one the platform never accepted is created
 * (again: a create whose answer was lost reads back as created, domain/gpd.ts sameGpdPosition); one it accepted
 * is updated.
 */
export const platformAction = (
  position: Pick<PositionRecord, 'annullato' | 'exportedAt'>,
): PlatformPosition['action'] => (position.annullato ? 'cancel' : position.exportedAt === null ? 'create' : 'update');

/** The IUV a position goes with: the one the platform accepted, else the one the export reserved for it. */
export const iuvOf = (position: Pick<PositionRecord, 'codIuv' | 'reservedIuv'>): string | null =>
  position.codIuv ?? position.reservedIuv ?? null;

/** Pending positions that need an IUV from the council's sequence before they are sent (GPD: the portal makes it). */
export const needsIuv = (position: Pick<PositionRecord, 'codIuv' | 'reservedIuv' | 'annullato'>): boolean =>
  !position.annullato && iuvOf(position) === null;

/** A pending position as the platform export sends it (its IUV reserved already). */
export function platformPositionOf(position: PositionRecord, email: string | null): PlatformPosition {
  const action = platformAction(position);
  return {
    iud: position.iud,
    action,
    iuv: iuvOf(position),
    fiscalCode: position.fiscalCode,
    fullName: `${position.cognome} ${position.nome}`.trim(),
    email,
    // A cancellation carries the amount the position had (GPD's invalidate reads only the iupd).
    amountCents: action === 'cancel' ? (position.importoAnnullato ?? position.importoDovuto) : position.importoDovuto,
    description: position.descrizione,
    dueDay: position.dataScadenza,
  };
}
