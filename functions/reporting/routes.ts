import { reportingStatusSchema } from '../domain/position-payment.ts';
import { idParamsSchema } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** 'Rendicontazione' of a call (the reporting function; the full table is functions/routes.ts). */
export const reportingRoutes = [
  {
    operationId: 'runReporting',
    method: 'POST',
    path: '/api/calls/{id}/reporting',
    resource: 'reporting',
    access: OPERATOR,
    summary: 'Rendicontazione: la avvia in background',
    params: idParamsSchema,
    status: 200,
    response: reportingStatusSchema,
    problems: [409],
  },
  {
    operationId: 'reportingStatus',
    method: 'GET',
    path: '/api/calls/{id}/reporting',
    resource: 'reporting',
    access: OPERATOR,
    summary: 'Stato della rendicontazione, con l’esito quando è terminata',
    params: idParamsSchema,
    status: 200,
    response: reportingStatusSchema,
  },
] as const satisfies readonly RouteDef<'reporting'>[];
