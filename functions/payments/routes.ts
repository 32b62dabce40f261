import { generationResultSchema, periodSchema, positionListQuerySchema, positionSchema, positionsCsvSchema } from '../domain/payments.ts';
import { idParamsSchema, pageOf } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Debt positions of a call and month (payments function; the full table is functions/routes.ts). */
export const paymentRoutes = [
  { operationId: 'generatePositions', method: 'POST', path: '/api/calls/{id}/positions/generate', resource: 'payments', access: OPERATOR, summary: 'Genera o aggiorna le posizioni debitorie del mese (mese e anno: quelli correnti se assenti)', params: idParamsSchema, body: periodSchema, status: 200, response: generationResultSchema },
  { operationId: 'positionsCsv', method: 'POST', path: '/api/calls/{id}/positions/csv', resource: 'payments', access: OPERATOR, summary: 'Verifica / genera CSV: aggiorna le posizioni del mese e restituisce il CSV di importazione MyPay', params: idParamsSchema, body: periodSchema, status: 200, response: positionsCsvSchema },
  { operationId: 'listPositions', method: 'GET', path: '/api/calls/{id}/positions', resource: 'payments', access: OPERATOR, summary: 'Posizioni debitorie di un bando per mese (importi in centesimi)', params: idParamsSchema, query: positionListQuerySchema, status: 200, response: pageOf(positionSchema) },
] as const satisfies readonly RouteDef<'payments'>[];
