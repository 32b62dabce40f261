import { systemClock } from '../adapters/ports.ts';
import { getUserItems } from '../users/repository.ts';
import { positionsOfYears } from '../positions/payment-list-repository.ts';
import {
  addToDebtTotals,
  getDebtSummaries,
  putDebtSummary,
  putDebtTotals,
  sumDebtSummaries,
} from '../payment-list/repository.ts';
import { makeDebtRefreshUseCases } from '../payment-list/use-cases.ts';

/**
 * The payment list's aggregates on the real table: refreshed by every position write, reconciled by
 * 'Sincronizza'. Each function's wiring makes its own and hands it to the use cases that write positions
 * (it holds no state: a refresh reads and writes the table only).
 */
export const makePaymentListRefresh = () =>
  makeDebtRefreshUseCases({
    debts: { getDebtSummaries, putDebtSummary, addToDebtTotals, putDebtTotals, sumDebtSummaries },
    positions: { positionsOfYears },
    users: { getUserItems },
    clock: systemClock,
  });
