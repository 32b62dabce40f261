import type { PositionsChanged } from '../domain/positions/index.ts';
import { changesSummary, type summaryPersonOf } from '../domain/debt-summary-rules.ts';
import { periodKey } from '../domain/period.ts';
import type { MonthRefreshInput } from '../adapters/ports/payment-list.ts';
import type { DebtChange } from './use-cases.ts';

/**
 * From this many positions of a month written at once on, the payment list's rows are refreshed for the whole
 * month (a few Queries and batched writes: month-refresh.ts) instead of citizen by citizen (two or three
 * DynamoDB calls each).
 */
export const MONTH_REFRESH_FROM = 200;

export interface PaymentListProjectionDeps {
  /** The general refresh: each citizen's row from their twelve positions (use-cases.ts). */
  refresh: { refreshDebtSummaries(changes: readonly DebtChange[]): Promise<unknown> };
  /** The refresh of a month generated for thousands of citizens (month-refresh.ts). */
  month: { refreshMonthSummaries(input: MonthRefreshInput): Promise<unknown> };
  users: { getUserItems(ids: readonly string[]): Promise<ReadonlyMap<string, Parameters<typeof summaryPersonOf>[0]>> };
}

/**
 * The payment list as a projection of the positions: the "positions changed" port that the one writer of
 * positions tells after each write (functions/positions/repository.ts makePositionWriter). A change its rows
 * cannot show (a checkout's hold, an export's verdict, an IO status) is left; the citizens of a month written
 * at once for MONTH_REFRESH_FROM or more are refreshed with their month, the others one row each.
 */
export function makePaymentListProjection({ refresh, month, users }: PaymentListProjectionDeps): PositionsChanged {
  return {
    async positionsChanged(changes) {
      const byMonth = new Map<string, (typeof changes)[number]['after'][]>();
      for (const { after } of changes.filter(changesSummary)) {
        const key = `${after.callId}|${periodKey(after)}`;
        const written = byMonth.get(key) ?? [];
        if (!written.length) byMonth.set(key, written);
        written.push(after);
      }
      const rows: DebtChange[] = [];
      for (const written of byMonth.values()) {
        if (written.length < MONTH_REFRESH_FROM) {
          rows.push(...written.map(({ callId, userId, anno }) => ({ callId, userId, anno })));
          continue;
        }
        const [{ callId, mese, anno }] = written as [(typeof written)[number]];
        const userIds = written.map((p) => p.userId);
        await month.refreshMonthSummaries({
          callId,
          period: { mese, anno },
          userIds,
          people: await users.getUserItems(userIds),
        });
      }
      if (rows.length) await refresh.refreshDebtSummaries(rows);
    },
  };
}
