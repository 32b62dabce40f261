import {
  debtListQuerySchema,
  debtListResponseSchema,
  debtTotalsQuerySchema,
  debtTotalsResponseSchema,
  missingIseeResponseSchema,
} from '../domain/debt-summaries.ts';
import { idParamsSchema } from '../domain/validation.ts';
import type { RouteDef } from '../http/route.ts';

/** The payment list of a call (operators; delegates read it): its own small function, reads only. */
export const paymentListRoutes = [
  {
    operationId: 'listDebtSummaries',
    method: 'GET',
    path: '/api/calls/{id}/payment-list',
    resource: 'payment-list',
    access: ['OPERATOR', 'DELEGATE'],
    summary: 'Lista pagamenti di un bando per cittadino e anno',
    params: idParamsSchema,
    query: debtListQuerySchema,
    status: 200,
    response: debtListResponseSchema,
  },
  {
    operationId: 'debtTotals',
    method: 'GET',
    path: '/api/calls/{id}/payment-totals',
    resource: 'payment-list',
    access: ['OPERATOR', 'DELEGATE'],
    summary: 'Totali dei pagamenti di un bando per anno',
    params: idParamsSchema,
    query: debtTotalsQuerySchema,
    status: 200,
    response: debtTotalsResponseSchema,
  },
  {
    operationId: 'listMissingIsee',
    method: 'GET',
    path: '/api/calls/{id}/payment-list/missing-isee',
    resource: 'payment-list',
    access: ['OPERATOR', 'DELEGATE'],
    summary: 'Iscritti senza posizione per ISEE scaduto o mancante, mese per mese',
    params: idParamsSchema,
    query: debtTotalsQuerySchema,
    status: 200,
    response: missingIseeResponseSchema,
  },
] as const satisfies readonly RouteDef<'payment-list'>[];
