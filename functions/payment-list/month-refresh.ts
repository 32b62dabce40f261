import type { PositionRecord } from '../domain/debt-positions.ts';
import {
  addTotals,
  isZeroDelta,
  sameSummary,
  summarize,
  summaryPersonOf,
  totalsDelta,
  zeroTotals,
  type DebtSummary,
  type DebtTotals,
} from '../domain/debt-summary-rules.ts';
import type { Period } from '../domain/payments.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { MonthRefreshInput } from '../adapters/ports/payment-list.ts';
import type { StoredDebtSummary } from './repository.ts';

/**
 * The payment list's rows after a month generation, for thousands of citizens at once (the export of a
 * month). The general refresh (functions/payment-list/use-cases.ts) reads twelve positions and the summary
 * of each citizen and writes each summary with a version condition: two or three DynamoDB calls per
 * citizen. Here (payment-list/projection.ts: a month written for many citizens at once):
 *
 * 1. one Query per month of the year (positions) and one of the call-year's summaries;
 * 2. each changed citizen's summary computed (domain summarize), written in batches of 25 without a
 *    condition, and the call-year's totals moved by the sum of the deltas (one ADD);
 * 3. the check: the same reads again and every summary
 *    recomputed. A concurrent refresh (a citizen paying an older month meanwhile) that wrote between the
 *    read of 1 and the batch of 2 was overwritten: its row no longer matches its positions and is repaired
 *    with the general, conditional refresh, and the totals are then recomputed from the rows (its delta
 *    was counted twice). Positions are never written here: only the list's aggregates.
 */
export interface MonthRefreshDeps {
  debts: {
    summariesOfYear(callId: string, anno: number): Promise<Map<string, StoredDebtSummary>>;
    putDebtSummaries(summaries: readonly StoredDebtSummary[]): Promise<void>;
    addToDebtTotals(callId: string, anno: number, delta: DebtTotals, at: string): Promise<void>;
  };
  positions: { listPositionsOfMonth(callId: string, period: Period): Promise<PositionRecord[]> };
  /** The general refresh: the repair of a row a concurrent writer changed. */
  refresh: {
    refreshDebtSummaries(changes: readonly { callId: string; userId: string; anno: number }[]): Promise<unknown>;
    reconcileDebtTotals(callId: string, anno: number): Promise<unknown>;
  };
  clock: Clock;
}

type Person = Parameters<typeof summaryPersonOf>[0];

export function makeMonthSummaryRefresh({ debts, positions, refresh, clock }: MonthRefreshDeps) {
  /** The year's positions of these citizens, from the table. */
  async function yearOf(callId: string, period: Period, users: ReadonlySet<string>) {
    const months = Array.from({ length: 12 }, (_, i) => ({ anno: period.anno, mese: i + 1 }));
    const read = await Promise.all(months.map((m) => positions.listPositionsOfMonth(callId, m)));
    const byUser = new Map<string, PositionRecord[]>();
    for (const position of read.flat())
      if (users.has(position.userId)) byUser.set(position.userId, [...(byUser.get(position.userId) ?? []), position]);
    return byUser;
  }

  const next = (
    callId: string,
    anno: number,
    userId: string,
    byUser: Map<string, PositionRecord[]>,
    people: ReadonlyMap<string, Person>,
  ): DebtSummary | null =>
    summarize({
      callId,
      anno,
      userId,
      positions: byUser.get(userId) ?? [],
      person: summaryPersonOf(people.get(userId)),
    });

  return {
    async refreshMonthSummaries({
      callId,
      period,
      userIds,
      people,
    }: MonthRefreshInput): Promise<{ written: number; repaired: number }> {
      const users = new Set(userIds);
      if (!users.size) return { written: 0, repaired: 0 };
      const { anno } = period;
      const at = clock.now().toISOString();
      const [stored, byUser] = await Promise.all([debts.summariesOfYear(callId, anno), yearOf(callId, period, users)]);
      const writes: StoredDebtSummary[] = [];
      let delta: DebtTotals = zeroTotals();
      for (const userId of users) {
        const before = stored.get(userId) ?? null;
        const after = next(callId, anno, userId, byUser, people);
        if (!after || (before && sameSummary(before, after))) continue;
        writes.push({ ...after, version: (before?.version ?? 0) + 1, updatedAt: at });
        delta = addTotals(delta, totalsDelta(before?.contribution ?? null, after.contribution));
      }
      await debts.putDebtSummaries(writes);
      if (!isZeroDelta(delta)) await debts.addToDebtTotals(callId, anno, delta, at);

      // The check (3. above): everything read again.
      const [storedNow, byUserNow] = await Promise.all([
        debts.summariesOfYear(callId, anno),
        yearOf(callId, period, users),
      ]);
      const stale = [...users].filter((userId) => {
        const expected = next(callId, anno, userId, byUserNow, people);
        const found = storedNow.get(userId);
        return expected ? !found || !sameSummary(found, expected) : false;
      });
      if (stale.length) {
        await refresh.refreshDebtSummaries(stale.map((userId) => ({ callId, userId, anno })));
        await refresh.reconcileDebtTotals(callId, anno);
      }
      return { written: writes.length, repaired: stale.length };
    },
  };
}

export type MonthSummaryRefresh = ReturnType<typeof makeMonthSummaryRefresh>;
