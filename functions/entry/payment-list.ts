import { systemClock } from '../adapters/ports/clock.ts';
import { getCall } from '../calls/repository.ts';
import { resourceHandler } from '../http/handler.ts';
import { listMissingIsee } from '../positions/payment-list-repository.ts';
import { countDebtSummaries, getDebtTotals, listDebtSummaries } from '../payment-list/repository.ts';
import { paymentListRoutes } from '../payment-list/routes.ts';
import { makeDebtListUseCases } from '../payment-list/use-cases.ts';

const paymentList = makeDebtListUseCases({
  debts: { getDebtTotals, listDebtSummaries, countDebtSummaries },
  calls: { getCall },
  clock: systemClock,
  missingIsee: { listMissingIsee },
});

export const handler = resourceHandler(paymentListRoutes, {
  listDebtSummaries: ({ params, query }) => paymentList.listDebtSummaries(params.id, query),
  debtTotals: ({ params, query }) => paymentList.debtTotals(params.id, query),
  listMissingIsee: ({ params, query }) => paymentList.missingIsee(params.id, query),
});
