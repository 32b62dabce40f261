import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { citizenIseeUploadSchema, inpsFetchResultSchema, iseeDecisionSchema, iseeSchema, operatorIseeUploadSchema } from '../domain/isee.ts';
import { inpsCheckSchema, inpsQueryPageSchema, myInpsQueryPageSchema } from '../domain/inps.ts';
import { countSchema } from '../domain/users.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** ISEE: the routes of the isee function (the full table is functions/routes.ts). */
export const iseeRoutes = [
  { operationId: 'listIseesToVerify', method: 'GET', path: '/api/isee', resource: 'isee', access: OPERATOR, summary: 'ISEE caricati e non ancora validati (5 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'countIseesToVerify', method: 'GET', path: '/api/isee/to-verify/count', resource: 'isee', access: ['OPERATOR', 'DELEGATE'], summary: 'Numero di ISEE da verificare (badge del pannello)', status: 200, response: countSchema },
  { operationId: 'getIsee', method: 'GET', path: '/api/isee/{id}', resource: 'isee', access: ['OPERATOR', 'CITIZEN'], summary: 'Un ISEE con la lettura del documento e un link di 5 minuti al file (il cittadino solo i propri)', params: idParamsSchema, status: 200, response: iseeSchema },
  { operationId: 'uploadMyIsee', method: 'POST', path: '/api/isee', resource: 'isee', access: ['CITIZEN'], summary: 'Caricamento dell’ISEE da parte del cittadino (invalida il precedente)', body: citizenIseeUploadSchema, status: 201, response: iseeSchema },
  { operationId: 'decideIsee', method: 'PUT', path: '/api/isee/{id}/decision', resource: 'isee', access: OPERATOR, summary: 'Conferma (stato 1) o rifiuto (stato 2) di un ISEE in attesa di verifica', params: idParamsSchema, body: iseeDecisionSchema, status: 200, response: iseeSchema },
  { operationId: 'deleteIsee', method: 'DELETE', path: '/api/isee/{id}', resource: 'isee', access: OPERATOR, summary: 'Cancellazione di un ISEE e del suo documento', params: idParamsSchema, status: 204 },
  { operationId: 'listMyIsees', method: 'GET', path: '/api/me/isee', resource: 'isee', access: ['CITIZEN'], summary: 'Gli ISEE caricati dal cittadino, dal più recente (5 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'listUserIsees', method: 'GET', path: '/api/users/{id}/isee', resource: 'isee', access: ['OPERATOR', 'DELEGATE'], summary: 'Gli ISEE di un utente, dal più recente (5 per pagina)', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'fetchMyIseeFromInps', method: 'POST', path: '/api/me/isee/inps', resource: 'isee', access: ['CITIZEN'], summary: 'Recupera il mio ISEE da INPS (PDND): accettato subito senza omissioni, altrimenti da verificare', status: 200, response: inpsFetchResultSchema, problems: [502, 503] },
  { operationId: 'listMyInpsQueries', method: 'GET', path: '/api/me/inps-queries', resource: 'isee', access: ['CITIZEN'], summary: 'Quando il Comune ha chiesto all’INPS l’ISEE del cittadino, e perché', query: pageQuerySchema, status: 200, response: myInpsQueryPageSchema },
  { operationId: 'fetchUserIseeFromInps', method: 'POST', path: '/api/users/{id}/isee/inps', resource: 'isee', access: OPERATOR, summary: 'Aggiorna ISEE da INPS (PDND) per un utente', params: idParamsSchema, status: 200, response: inpsFetchResultSchema, problems: [502, 503] },
  { operationId: 'listUserInpsQueries', method: 'GET', path: '/api/users/{id}/inps-queries', resource: 'isee', access: OPERATOR, summary: 'Le interrogazioni INPS su un utente (finalità, voucher, esito, chi e quando)', params: idParamsSchema, query: pageQuerySchema, status: 200, response: inpsQueryPageSchema },
  { operationId: 'checkIseeWithInps', method: 'POST', path: '/api/isee/{id}/inps-check', resource: 'isee', access: OPERATOR, summary: 'Verifica con INPS il valore di un ISEE caricato (nulla cambia)', params: idParamsSchema, status: 200, response: inpsCheckSchema, problems: [502, 503] },
  { operationId: 'uploadUserIsee', method: 'POST', path: '/api/users/{id}/isee', resource: 'isee', access: OPERATOR, summary: 'Caricamento di un ISEE per un utente da parte dell’operatore', params: idParamsSchema, body: operatorIseeUploadSchema, status: 201, response: iseeSchema },
] as const satisfies readonly RouteDef<'isee'>[];
