import { generationStatusSchema, periodSchema, positionEditSchema, positionListQuerySchema, positionSchema, positionsCsvStatusSchema, syncStatusSchema } from '../domain/payments.ts';
import { idParamsSchema, pageOf } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Debt positions of a call and month (payments function; the full table is functions/routes.ts). */
export const paymentRoutes = [
  { operationId: 'generatePositions', method: 'POST', path: '/api/calls/{id}/positions/generate', resource: 'payments', access: OPERATOR, summary: 'Avvia in background la generazione o l’aggiornamento delle posizioni debitorie del mese (mese e anno: quelli correnti se assenti)', params: idParamsSchema, body: periodSchema, status: 200, response: generationStatusSchema, problems: [409] },
  { operationId: 'generationStatus', method: 'GET', path: '/api/calls/{id}/positions/generate', resource: 'payments', access: OPERATOR, summary: 'Stato della generazione delle posizioni del mese, con i conteggi quando è terminata', params: idParamsSchema, status: 200, response: generationStatusSchema },
  { operationId: 'positionsCsv', method: 'POST', path: '/api/calls/{id}/positions/csv', resource: 'payments', access: OPERATOR, summary: 'Verifica / genera CSV: avvia in background l’aggiornamento delle posizioni del mese e il CSV di importazione MyPay', params: idParamsSchema, body: periodSchema, status: 200, response: positionsCsvStatusSchema, problems: [409] },
  { operationId: 'positionsCsvStatus', method: 'GET', path: '/api/calls/{id}/positions/csv', resource: 'payments', access: OPERATOR, summary: 'Stato di Verifica / genera CSV, con il collegamento al file quando è pronto', params: idParamsSchema, status: 200, response: positionsCsvStatusSchema },
  { operationId: 'listPositions', method: 'GET', path: '/api/calls/{id}/positions', resource: 'payments', access: OPERATOR, summary: 'Posizioni debitorie di un bando per mese (importi in centesimi)', params: idParamsSchema, query: positionListQuerySchema, status: 200, response: pageOf(positionSchema) },
  { operationId: 'editPosition', method: 'PUT', path: '/api/positions/{id}', resource: 'payments', access: OPERATOR, summary: 'Modifica una posizione (importo 0: annullata)', params: idParamsSchema, body: positionEditSchema, status: 200, response: positionSchema, problems: [409] },
  { operationId: 'startPositionsSync', method: 'POST', path: '/api/calls/{id}/positions/sync', resource: 'payments', access: OPERATOR, summary: 'Sincronizza: ricalcolo in background', params: idParamsSchema, status: 200, response: syncStatusSchema, problems: [409] },
  { operationId: 'positionsSyncStatus', method: 'GET', path: '/api/calls/{id}/positions/sync', resource: 'payments', access: OPERATOR, summary: 'Stato del ricalcolo (isUpdating)', params: idParamsSchema, status: 200, response: syncStatusSchema },
] as const satisfies readonly RouteDef<'payments'>[];
