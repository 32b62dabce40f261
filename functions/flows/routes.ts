import { idParamsSchema } from '../domain/validation.ts';
import {
  exportRequestSchema,
  flowFileParamsSchema,
  flowListQuerySchema,
  flowPageSchema,
  flowSchema,
} from '../domain/flow-schemas.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';
import * as z from 'zod/mini';

/** Payment flows (flussi MyPay): the export of a month's debt positions and its follow-up: the routes of the flows function. */
export const flowRoutes = [
  {
    operationId: 'startExport',
    method: 'POST',
    path: '/api/calls/{id}/exports',
    resource: 'flows',
    access: OPERATOR,
    summary: 'Invia a MyPay le posizioni debitorie di un mese (anche di un solo cittadino): avvia il flusso',
    params: idParamsSchema,
    body: exportRequestSchema,
    status: 201,
    response: flowSchema,
  },
  {
    operationId: 'listFlows',
    method: 'GET',
    path: '/api/flows',
    resource: 'flows',
    access: OPERATOR,
    summary:
      'Flussi MyPay o pagoPA, dal più recente (100 per pagina, ricerca nel titolo), e la piattaforma di pagamento',
    query: flowListQuerySchema,
    status: 200,
    response: flowPageSchema,
  },
  {
    operationId: 'getFlow',
    method: 'GET',
    path: '/api/flows/{id}',
    resource: 'flows',
    access: OPERATOR,
    summary: 'Un flusso e il suo avanzamento',
    params: idParamsSchema,
    status: 200,
    response: flowSchema,
  },
  {
    operationId: 'restartFlow',
    method: 'POST',
    path: '/api/flows/{id}/restart',
    resource: 'flows',
    access: OPERATOR,
    summary: 'Rielabora un flusso interrotto, da dove si era fermato',
    params: idParamsSchema,
    status: 200,
    response: flowSchema,
  },
  {
    operationId: 'getFlowFile',
    method: 'GET',
    path: '/api/flows/{id}/files/{kind}',
    resource: 'flows',
    access: OPERATOR,
    summary: 'Link di pochi minuti a un file di esito (avvisi, iuv, scarti)',
    params: flowFileParamsSchema,
    status: 200,
    response: z.object({ url: z.string() }),
  },
] as const satisfies readonly RouteDef<'flows'>[];
