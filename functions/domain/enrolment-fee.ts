import { monthlyFee, type FeeBand } from './fee.ts';
import { currentPeriod } from './period.ts';

/**
 * The current month's fee of a subscription (design §4: monthlyFee), from its call's bands and the user's
 * latest ISEE when it is VALIDATED (recording a new ISEE invalidates the older ones, so the newest is the
 * latest validated one only in that state); null while no hours are set.
 */
export function subscriptionFee(record: { weeklyHour: number | null; isee?: { valueCents: number; state: string } | null }, bands: readonly FeeBand[], at: Date) {
  if (record.weeklyHour === null) return null;
  const { anno: year, mese: month } = currentPeriod(at);
  const validated = record.isee?.state === 'VALIDATED' ? record.isee.valueCents : null;
  return monthlyFee({ iseeCents: validated, bands, weeklyHours: record.weeklyHour, year, month });
}
