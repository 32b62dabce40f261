import { hourlyQuota } from './band-rules.ts';
import type { Band } from './bands.ts';
import { validatedIsee } from './latest-isee.ts';
import { decimalComma, toCents } from './money.ts';

/** An ISEE value of 3000 € or less is exempt: no fee, no debt position (design §4). */
export const EXEMPT_ISEE_CENTS = 300_000;

/** Services counted in rides rather than hours: their name contains 'taxi' (part 2 §2.11). */
export const isRideService = (serviceName: string): boolean => /taxi/i.test(serviceName);

/** Weekly hours (or rides) as the portal writes them: 12.5 → '12,5'; none → '—'. */
export const formatHours = (hours: number | null): string => (hours === null ? '—' : decimalComma(hours));

/** The ISEE value that exempts from any fee (≤ 3000 €). */
export const isExemptIsee = (isee: Pick<FeeIsee, 'valueCents'>): boolean => isee.valueCents <= EXEMPT_ISEE_CENTS;

export type FeeBand = Pick<Band, 'id' | 'name' | 'min' | 'max' | 'percent' | 'fixedCost'>;

/**
 * The citizen's newest ISEE as the user record (and each subscription's copy) carries it. Recording a new
 * ISEE invalidates the older ones, so the newest is the latest validated one only in that state.
 */
export interface FeeIsee {
  valueCents: number;
  state: string;
  /** The ISEE's year (the DSU's): without an expiry, the DSU is valid until 31 December of it. */
  year: number;
  /** The expiry (yyyy-mm-dd…): INPS's DataValidita, the attestation's, or what the operator typed. */
  scadenza?: string | null;
}

/** The last day an ISEE counts (design §4: a DSU is valid until 31 December of the year it was presented). */
export const iseeExpiry = (isee: Pick<FeeIsee, 'year' | 'scadenza'>): string => {
  const given = isee.scadenza?.slice(0, 10);
  return given && /^\d{4}-\d{2}-\d{2}$/.test(given) ? given : `${isee.year}-12-31`;
};

/** Valid for the month: it has not expired before the month's first day. */
export const isIseeValidFor = (isee: Pick<FeeIsee, 'year' | 'scadenza'>, year: number, month: number): boolean =>
  iseeExpiry(isee) >= `${year}-${String(month).padStart(2, '0')}-01`;

/** The ISEE a month's fee starts from: the latest validated one when it is valid for that month, else none. */
export const iseeForMonth = <T extends FeeIsee>(isee: T | null | undefined, year: number, month: number): T | null => {
  const validated = validatedIsee(isee);
  return validated && isIseeValidFor(validated, year, month) ? validated : null;
};

/**
 * Part 2 §4 'Pagamento singolo' on an approved (VALIDATED) subscription, disabled when the latest ISEE value is
 * 3000 € or less (calls-citizens-roles.md §4: the latest ISEE's value, whatever its review state; the export
 * then bills what the fee counts).
 */
export const singlePaymentAllowed = (
  subscriptionState: string,
  newestIsee: Pick<FeeIsee, 'valueCents'> | null | undefined,
): boolean => subscriptionState === 'VALIDATED' && !!newestIsee && !isExemptIsee(newestIsee);

export interface FeeInput {
  /** The citizen's newest ISEE (any state: only a VALIDATED one valid for the month counts); null when there is none. */
  isee: FeeIsee | null;
  /** The call's bands. */
  bands: readonly FeeBand[];
  /** Weekly hours (or rides), at most two decimals. */
  weeklyHours: number;
  year: number;
  /** 1–12. */
  month: number;
}

/**
 * What the month costs a citizen, or why it costs nothing:
 * - NO_ISEE: no validated ISEE valid for the month (none, not yet validated, or expired: a December ISEE
 *   does not bill January), so no fee can be computed and no position is made ('ISEE scaduto o mancante');
 * - EXEMPT: ISEE ≤ 3000 €;
 * - NO_BAND: the ISEE falls in none of the call's bands (the operator must fix the bands);
 * - DUE: the amount, which is 0 when the hours are 0.
 */
export type Fee =
  | { kind: 'NO_ISEE'; amountCents: 0 }
  | { kind: 'EXEMPT'; amountCents: 0 }
  | { kind: 'NO_BAND'; amountCents: 0 }
  | { kind: 'DUE'; band: FeeBand; quotaCents: number; amountCents: number };

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The band with min ≤ ISEE ≤ max; when bands overlap, the one with the lowest minimum. */
export function bandFor(iseeCents: number, bands: readonly FeeBand[]): FeeBand | null {
  const matching = bands.filter((band) => toCents(band.min) <= iseeCents && iseeCents <= toCents(band.max));
  return matching.sort((a, b) => a.min - b.min)[0] ?? null;
}

/**
 * The monthly fee (design §4): quota × weekly hours × days in month / 7, rounded half up to the cent once,
 * at the end. The quota is percent/100 × fixedCost (or fixedCost), NOT rounded first: '33% di 17,77 €' is
 * 5,8641 € an hour, and 3 hours in a 30-day month are 75,40 € (rounding the quota to 5,86 € first gave
 * 75,34 €). Computed on integers (percent in hundredths, cost in cents, hours in hundredths), so no binary
 * fraction can tip the rounding. `quotaCents` is the quota as the bands page shows it (rounded): display only.
 */
export function monthlyFee(input: FeeInput): Fee {
  const isee = iseeForMonth(input.isee, input.year, input.month);
  if (isee === null) return { kind: 'NO_ISEE', amountCents: 0 };
  if (isExemptIsee(isee)) return { kind: 'EXEMPT', amountCents: 0 };
  const band = bandFor(isee.valueCents, input.bands);
  if (!band) return { kind: 'NO_BAND', amountCents: 0 };
  // The hourly quota in ten-thousandths of a cent (percent in hundredths × cost in cents), hours in
  // hundredths: amount = quota × hours × days / (10,000 × 100 × 7), rounded half up.
  const quota =
    BigInt(band.percent === null ? 10_000 : Math.round(band.percent * 100)) * BigInt(toCents(band.fixedCost));
  const numerator = quota * BigInt(Math.round(input.weeklyHours * 100)) * BigInt(daysInMonth(input.year, input.month));
  const amountCents = Number((numerator + 3_500_000n) / 7_000_000n);
  return { kind: 'DUE', band, quotaCents: toCents(hourlyQuota(band)), amountCents };
}
