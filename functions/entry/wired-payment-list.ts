import { systemClock } from '../adapters/ports/clock.ts';
import { getUserItems } from '../users/repository.ts';
import { positionsOfYears } from '../positions/payment-list-repository.ts';
import { listPositionsOfMonth, makePositionWriter } from '../positions/repository.ts';
import {
  addToDebtTotals,
  getDebtSummaries,
  putDebtSummary,
  putDebtTotals,
  sumDebtSummaries,
} from '../payment-list/repository.ts';
import { makeMonthSummaryRefresh } from '../payment-list/month-refresh.ts';
import { makePaymentListProjection } from '../payment-list/projection.ts';
import { putDebtSummaries, summariesOfYear } from '../payment-list/summary-batch-repository.ts';
import { makeDebtRefreshUseCases } from '../payment-list/use-cases.ts';

/**
 * The payment list's aggregates on the real table: refreshed by every position write, reconciled by
 * 'Sincronizza'. Each function's wiring makes its own (it holds no state: a refresh reads and writes the
 * table only).
 */
export const makePaymentListRefresh = () =>
  makeDebtRefreshUseCases({
    debts: { getDebtSummaries, putDebtSummary, addToDebtTotals, putDebtTotals, sumDebtSummaries },
    positions: { positionsOfYears },
    users: { getUserItems },
    clock: systemClock,
  });

/** The payment list as the projection of the positions' writes (payment-list/projection.ts). */
export function makePaymentListProjectionOf(refresh = makePaymentListRefresh()) {
  return makePaymentListProjection({
    refresh,
    month: makeMonthSummaryRefresh({
      debts: { summariesOfYear, putDebtSummaries, addToDebtTotals },
      positions: { listPositionsOfMonth },
      refresh,
      clock: systemClock,
    }),
    users: { getUserItems },
  });
}

/** The one writer of positions, telling the payment list what it wrote: every function that writes positions takes this. */
export const positionWriter = (refresh = makePaymentListRefresh()) =>
  makePositionWriter(makePaymentListProjectionOf(refresh));
