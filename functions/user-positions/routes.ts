import {
  checkoutSchema,
  myPositionsQuerySchema,
  payBodySchema,
  paymentReturnBodySchema,
  paymentReturnSchema,
  positionsByFiscalCodeQuerySchema,
  positionViewSchema,
} from '../domain/position-payment.ts';
import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * A citizen's debt positions and paying them through MyPay; one citizen's positions for operators and
 * delegates (the user-positions function; the full table is functions/routes.ts).
 */
export const userPositionRoutes = [
  {
    operationId: 'listMyPositions',
    method: 'GET',
    path: '/api/me/positions',
    resource: 'user-positions',
    access: ['CITIZEN'],
    summary: 'I pagamenti del cittadino',
    query: myPositionsQuerySchema,
    status: 200,
    response: pageOf(positionViewSchema),
  },
  {
    operationId: 'payPosition',
    method: 'POST',
    path: '/api/me/positions/{id}/pay',
    resource: 'user-positions',
    access: ['CITIZEN'],
    summary: 'Paga su MyPay',
    params: idParamsSchema,
    body: payBodySchema,
    status: 200,
    response: checkoutSchema,
    problems: [409, 503],
  },
  {
    operationId: 'paymentReturn',
    method: 'POST',
    path: '/api/me/payments/return',
    resource: 'user-positions',
    access: ['CITIZEN'],
    summary: 'Esito del pagamento',
    body: paymentReturnBodySchema,
    status: 200,
    response: paymentReturnSchema,
    problems: [503],
  },
  {
    operationId: 'listUserPositions',
    method: 'GET',
    path: '/api/users/{id}/positions',
    resource: 'user-positions',
    access: ['OPERATOR', 'DELEGATE'],
    summary: 'I pagamenti di un utente',
    params: idParamsSchema,
    query: pageQuerySchema,
    status: 200,
    response: pageOf(positionViewSchema),
  },
  {
    operationId: 'listPositionsByFiscalCode',
    method: 'GET',
    path: '/api/positions',
    resource: 'user-positions',
    access: OPERATOR,
    summary: 'Pagamenti per codice fiscale',
    query: positionsByFiscalCodeQuerySchema,
    status: 200,
    response: pageOf(positionViewSchema),
  },
] as const satisfies readonly RouteDef<'user-positions'>[];
