import { dsvFormat } from 'd3-dsv';
import type { PositionRecord } from './debt-positions.ts';
import { gpdDueDay } from './gpd.ts';
import { centsToDecimal } from './money.ts';
import type { PlatformPosition } from './payment-platform.ts';
import { italianDay } from './period.ts';
import { neutraliseCell } from './spreadsheet-cells.ts';

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
    ...(position.iupd ? { iupd: position.iupd } : {}),
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

/** The columns of the month's check file on GPD ('Verifica / genera CSV', platformCheckCsv). */
export const PLATFORM_CHECK_COLUMNS = [
  'azione',
  'iud',
  'codiceFiscale',
  'anagrafica',
  'email',
  'importo',
  'causale',
  'scadenza',
  'iuv',
] as const;

/** What the export will do at pagoPA with a position, as the file names it. */
export const platformCheckActions: Record<PlatformPosition['action'], string> = {
  create: 'nuova',
  update: 'modifica',
  cancel: 'annullamento',
};

const checkFormat = dsvFormat(';');

/**
 * 'Verifica / genera CSV' on pagoPA GPD (issue 37): MyPay's import file means nothing to pagoPA, so the file lists
 * what the next export will do there with each of the month's pending positions, for the operator to check before
 * sending: the action, the debtor, the amount (a decimal comma), the causale, the due day GPD will get (the month's
 * last, or GPD_LATE_DUE_DAYS from `today` once it has passed) and the IUV (empty for a new position: the export
 * gives it). UTF-8 with BOM, `;`, CRLF, as a spreadsheet with Italian settings opens it; no cell runs as a formula.
 */
export function platformCheckCsv(positions: readonly PlatformPosition[], today: string): string {
  const cell = (text: string) => checkFormat.formatValue(neutraliseCell(text));
  const lines = [
    [...PLATFORM_CHECK_COLUMNS],
    ...positions.map((p) => [
      platformCheckActions[p.action],
      p.iud,
      p.fiscalCode,
      p.fullName,
      p.email ?? '',
      centsToDecimal(p.amountCents).replace('.', ','),
      p.description,
      italianDay(gpdDueDay(p.dueDay, today)),
      p.iuv ?? '',
    ]),
  ].map((row) => row.map(cell).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
