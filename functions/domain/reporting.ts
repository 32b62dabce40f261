import type { DebtTotals } from './debt-summary-rules.ts';
import { CHECKOUT_HOLD_MS } from './payment-rules.ts';

/**
 * Which days 'Rendicontazione' asks MyPay about (paaSILPrenotaExportFlusso, dateFrom–dateTo, both included):
 * incrementally, from the last day already reported (read again: a receipt of that day may have reached MyPay
 * after the last run) to today, in slices of at most REPORTING_SLICE_DAYS, so a run never outgrows its job
 * slice however old the call is. The first run of a call starts at the call's creation, never before the
 * spec's totals start. Pure: days are yyyy-MM-dd in Europe/Rome.
 */

/** The spec's fixed start of the payment totals (operator-admin §9). */
export const REPORTING_START = '2025-01-01';

/** The most days one export of MyPay covers (one job slice: its export and the settlement of what it lists). */
export const REPORTING_SLICE_DAYS = 31;

/** A checkout whose outcome the portal did not learn is followed by a reporting of its call this much later. */
export const REPORTING_FOLLOW_UP_MS = 5 * 60_000;

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const latest = (...days: (string | null | undefined)[]) =>
  days
    .filter((d): d is string => Boolean(d))
    .sort()
    .at(-1)!;

/** The days still to report: from the last one reported (else the call's first day) to today. */
export function reportingWindow(input: { callStart: string | null; reportedThrough: string | null; today: string }): {
  from: string;
  to: string;
} {
  const from = latest(REPORTING_START, input.callStart, input.reportedThrough);
  return { from: from > input.today ? input.today : from, to: input.today };
}

/** The last day of the slice that starts at `from` (never past `to`). */
export const sliceEnd = (from: string, to: string, days = REPORTING_SLICE_DAYS) => {
  const end = addDays(from, days - 1);
  return end < to ? end : to;
};

/** What a run carries from slice to slice (the job's cursor): where the next slice starts and the counts so far. */
export interface ReportingCursor {
  from: string;
  to: string;
  /** The first day the run asked about (the result's `from`). */
  start: string;
  marked: number;
  alreadyPaid: number;
  toReconcile: number;
  unmatched: number;
}

/**
 * A call whose positions may still be paid: some position of the years asked is due and unpaid (the payment
 * list's totals, functions/payment-list: daPagareCount).
 */
export const hasOpenPositions = (totals: readonly Pick<DebtTotals, 'daPagareCount'>[]) =>
  totals.some((t) => t.daPagareCount > 0);

/**
 * When to report a call after a citizen's checkout starts, its outcome not known yet: a few minutes later (a
 * payment done at once), and a few minutes after the checkout's hold lapses (a citizen who never came back).
 */
export const followUpTimes = (now: Date) =>
  [REPORTING_FOLLOW_UP_MS, CHECKOUT_HOLD_MS + REPORTING_FOLLOW_UP_MS].map((ms) =>
    new Date(now.getTime() + ms).toISOString(),
  );
