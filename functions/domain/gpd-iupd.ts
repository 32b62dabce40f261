import { createHash } from 'node:crypto';

/**
 * The identifiers of the portal's positions at pagoPA GPD (iupd), on their own so that the positions' writer, which
 * stores one when it reserves an IUV, does not carry the rest of domain/gpd.ts.
 */

/**
 * The iupd of a portal position at GPD: unique for the council (the creditor), derived from the IUD alone, so a
 * retried create names the same position and a 409 can be read back. A position restored after a cancellation is
 * a new GPD position (INVALID is final): `revision` 1, 2, … gives it a new iupd. The IUD is at most 35 characters
 * of [A-Za-z0-9_-] (debt-positions.ts), so the iupd stays URL-safe. Positions whose IUV was reserved before the
 * call-first iupds (gpdCallIupd) keep this one: GPD knows them by it.
 */
export function gpdIupd(iud: string, revision = 0): string {
  if (!/^[A-Za-z0-9_-]{1,35}$/.test(iud)) throw new RangeError(`IUD non valido per GPD: "${iud}"`);
  if (!Number.isSafeInteger(revision) || revision < 0) throw new RangeError(`revisione non valida: ${revision}`);
  return revision === 0 ? `PSS-${iud}` : `PSS-${iud}-R${revision}`;
}

/**
 * The iupd a position gets when the export reserves its IUV (positions/transitions.ts reserveIuv), stored on it:
 * `PSS-C<call key>-<IUD>`, the call key being the first 10 hex digits of SHA-256(callId). GPD lists a due-date window
 * ordered by iupd and offers no other filter (openapi_external_v1.json getOrganizationDebtPositions: orderby IUPD), so
 * a call's positions sit together in that order and 'Sincronizza' of one call reads its own pages, not those of every
 * call due the same day (adapters/gpd/reporting.ts). ≤ 51 characters of [A-Z0-9_-].
 */
export function gpdCallIupd(callId: string, iud: string): string {
  return `${gpdCallIupdPrefix(callId)}${gpdIupd(iud).slice('PSS-'.length)}`;
}

/** What every call-first iupd of a call starts with (gpdCallIupd). */
export const gpdCallIupdPrefix = (callId: string): string =>
  `PSS-C${createHash('sha256').update(callId).digest('hex').slice(0, 10).toUpperCase()}-`;

/** The iupd GPD knows a position by: the one stored when its IUV was reserved, else the one derived from its IUD. */
export const iupdOfPosition = (position: { iud: string; iupd?: string | null; revision?: number }): string =>
  position.iupd ?? gpdIupd(position.iud, position.revision ?? 0);

/** The IUD and revision an iupd was made from (gpdIupd, gpdCallIupd), or null for a position the portal did not create. */
export function iudOfIupd(iupd: string): { iud: string; revision: number } | null {
  const match = /^PSS-(?:C[0-9A-F]{10}-)?([A-Za-z0-9_-]{1,35}?)(?:-R([1-9][0-9]*))?$/.exec(iupd);
  return match ? { iud: match[1]!, revision: match[2] ? Number(match[2]) : 0 } : null;
}
