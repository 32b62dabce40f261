import { monthlyFee, type FeeBand, type FeeIsee } from './fee.ts';
import { currentPeriod } from './period.ts';

/**
 * The current month's fee of a subscription (design §4: monthlyFee), from its call's bands and the copy of
 * the user's newest ISEE (monthlyFee counts it only when validated and valid for the month); null while no
 * hours are set.
 */
export function subscriptionFee(
  record: { weeklyHour: number | null; isee?: FeeIsee | null },
  bands: readonly FeeBand[],
  at: Date,
) {
  if (record.weeklyHour === null) return null;
  const { anno: year, mese: month } = currentPeriod(at);
  return monthlyFee({ isee: record.isee ?? null, bands, weeklyHours: record.weeklyHour, year, month });
}
