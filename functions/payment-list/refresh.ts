import { systemClock } from '../adapters/ports.ts';
import { getUserItems } from '../users/repository.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { positionsOfYears } from '../payments/payment-list-repository.ts';
import { addToDebtTotals, getDebtSummaries, putDebtSummary, putDebtTotals, sumDebtSummaries } from './repository.ts';
import { makeDebtRefreshUseCases } from './use-cases.ts';

/** The payment list's aggregates on the real table: refreshed by every position write, reconciled by 'Sincronizza'. */
export const debtSummaries = makeDebtRefreshUseCases({
  debts: { getDebtSummaries, putDebtSummary, addToDebtTotals, putDebtTotals, sumDebtSummaries },
  positions: { positionsOfYears },
  users: { getUserItems },
  clock: systemClock,
});

type PositionKey = Pick<PositionRecord, 'callId' | 'userId' | 'anno'>;

/**
 * A position write of another function (a payment, a notice e-mail) that, when it wrote, refreshes that
 * citizen's row of the payment list: the wiring of each function wraps its writers with this, so the use
 * cases stay as they are and no write can forget the list.
 */
export const refreshingAfter =
  <A extends unknown[], R>(write: (...args: A) => Promise<R>, written: (result: R, ...args: A) => PositionKey | null) =>
  async (...args: A): Promise<R> => {
    const result = await write(...args);
    const position = written(result, ...args);
    if (position) await debtSummaries.refreshDebtSummaries([{ callId: position.callId, userId: position.userId, anno: position.anno }]);
    return result;
  };
