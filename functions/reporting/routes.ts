import { reportingResultSchema } from '../domain/position-payment.ts';
import { idParamsSchema } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** 'Rendicontazione' of a call (the reporting function; the full table is functions/routes.ts). */
export const reportingRoutes = [
  { operationId: 'runReporting', method: 'POST', path: '/api/calls/{id}/reporting', resource: 'reporting', access: OPERATOR, summary: 'Rendicontazione', params: idParamsSchema, status: 200, response: reportingResultSchema, problems: [503] },
] as const satisfies readonly RouteDef<'reporting'>[];
