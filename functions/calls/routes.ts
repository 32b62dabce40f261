import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { callFileParamsSchema, callInputSchema, callListQuerySchema, callSchema, callSummarySchema, callUpdateSchema, openCallsQuerySchema, publicCallSchema } from '../domain/calls.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Calls (bandi): operators manage them; everyone reads the OPEN ones, a citizen also those they are enrolled in: the routes of the calls function (the full table is functions/routes.ts). */
export const callRoutes = [
  { operationId: 'listCalls', method: 'GET', path: '/api/calls', resource: 'calls', access: OPERATOR, summary: 'Elenco dei bandi (15 per pagina, ricerca per inizio del nome)', query: callListQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'getCall', method: 'GET', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Dettaglio di un bando per l’operatore', params: idParamsSchema, status: 200, response: callSchema },
  { operationId: 'createCall', method: 'POST', path: '/api/calls', resource: 'calls', access: OPERATOR, summary: 'Nuovo bando (stato CREATE) con fino a 5 moduli già caricati', body: callInputSchema, status: 201, response: callSchema },
  { operationId: 'updateCall', method: 'PUT', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Modifica di un bando: dati, anno, stato e nuovi moduli (5 meno quelli allegati)', params: idParamsSchema, body: callUpdateSchema, status: 200, response: callSchema },
  { operationId: 'deleteCall', method: 'DELETE', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Eliminazione di un bando senza iscrizioni', params: idParamsSchema, status: 204 },
  { operationId: 'deleteCallFile', method: 'DELETE', path: '/api/calls/{id}/files/{fileId}', resource: 'calls', access: OPERATOR, summary: 'Rimozione di un modulo allegato al bando', params: callFileParamsSchema, status: 204 },
  { operationId: 'listServiceCalls', method: 'GET', path: '/api/services/{id}/calls', resource: 'calls', access: OPERATOR, summary: 'I bandi di un servizio', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'listOpenCalls', method: 'GET', path: '/api/open-calls', resource: 'calls', access: 'public', summary: 'Bandi aperti, dal più recente (bacheca; anche di un solo servizio)', query: openCallsQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'getCitizenCall', method: 'GET', path: '/api/me/calls/{id}', resource: 'calls', access: ['CITIZEN'], summary: 'Un bando come lo vede il cittadino: aperto, oppure uno a cui è iscritto, anche chiuso (pagamenti, moduli)', params: idParamsSchema, status: 200, response: publicCallSchema },
  { operationId: 'getOpenCall', method: 'GET', path: '/api/open-calls/{id}', resource: 'calls', access: 'public', summary: 'Un bando aperto: servizio, fasce ISEE e moduli da scaricare (link di 5 minuti)', params: idParamsSchema, status: 200, response: publicCallSchema },
] as const satisfies readonly RouteDef<'calls'>[];
