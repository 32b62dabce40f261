import type * as z from 'zod';
import { bandInputSchema, bandSchema } from './domain/bands.ts';
import { meSchema } from './domain/profile.ts';
import type { Role } from './domain/roles.ts';
import { serviceInputSchema, serviceSchema } from './domain/services.ts';
import { uploadRequestSchema, uploadTicketSchema } from './domain/files.ts';
import { idParamsSchema, pageOf, pageQuerySchema } from './domain/validation.ts';
import { citizenIseeUploadSchema, iseeDecisionSchema, iseeSchema, operatorIseeUploadSchema } from './domain/isee.ts';
import { countSchema, newUserSchema, profileUpdateSchema, userSchema, userSearchSchema, userStatusSchema, userUpdateSchema } from './domain/users.ts';
import { callFileParamsSchema, callInputSchema, callListQuerySchema, callSchema, callSummarySchema, callUpdateSchema, openCallsQuerySchema, publicCallSchema } from './domain/calls.ts';
import { mySubscriptionSchema, subscribeSchema, subscriptionListQuerySchema, subscriptionParamsSchema, subscriptionSchema, subscriptionSummarySchema } from './domain/subscriptions.ts';

/**
 * The one route table. The CDK stack (routes and Lambdas), the local API server, the authorization
 * check and the OpenAPI document are all derived from it.
 */
export const resources = ['bands', 'services', 'profile', 'public', 'uploads', 'calls', 'subscriptions', 'users', 'isee'] as const;
export type Resource = (typeof resources)[number];

/** 'public': no token needed; 'signed-in': any role; otherwise the roles allowed. */
export type Access = 'public' | 'signed-in' | readonly Role[];

export interface RouteDef {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  resource: Resource;
  access: Access;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  status: 200 | 201 | 204;
  response?: z.ZodType;
}

const OPERATOR: readonly Role[] = ['OPERATOR'];

export const routes = [
  // ISEE bands (fasce)
  { operationId: 'listBands', method: 'GET', path: '/api/bands', resource: 'bands', access: 'public', summary: 'Elenco delle fasce ISEE (pubblico: serve alla pagina pubblica del bando)', query: pageQuerySchema, status: 200, response: pageOf(bandSchema) },
  { operationId: 'getBand', method: 'GET', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Dettaglio di una fascia ISEE', params: idParamsSchema, status: 200, response: bandSchema },
  { operationId: 'createBand', method: 'POST', path: '/api/bands', resource: 'bands', access: OPERATOR, summary: 'Nuova fascia ISEE', body: bandInputSchema, status: 201, response: bandSchema },
  { operationId: 'updateBand', method: 'PUT', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Modifica di una fascia ISEE', params: idParamsSchema, body: bandInputSchema, status: 200, response: bandSchema },
  { operationId: 'deleteBand', method: 'DELETE', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Rimozione di una fascia ISEE non usata da alcun bando', params: idParamsSchema, status: 204 },
  // Services (servizi)
  { operationId: 'listServices', method: 'GET', path: '/api/services', resource: 'services', access: 'public', summary: 'Elenco dei servizi (pubblico: la pagina iniziale li mostra)', query: pageQuerySchema, status: 200, response: pageOf(serviceSchema) },
  { operationId: 'getService', method: 'GET', path: '/api/services/{id}', resource: 'services', access: 'public', summary: 'Dettaglio di un servizio', params: idParamsSchema, status: 200, response: serviceSchema },
  { operationId: 'createService', method: 'POST', path: '/api/services', resource: 'services', access: OPERATOR, summary: 'Nuovo servizio', body: serviceInputSchema, status: 201, response: serviceSchema },
  { operationId: 'updateService', method: 'PUT', path: '/api/services/{id}', resource: 'services', access: OPERATOR, summary: 'Modifica di un servizio', params: idParamsSchema, body: serviceInputSchema, status: 200, response: serviceSchema },
  { operationId: 'deleteService', method: 'DELETE', path: '/api/services/{id}', resource: 'services', access: OPERATOR, summary: 'Eliminazione di un servizio senza bandi associati', params: idParamsSchema, status: 204 },
  // Profile of whoever is signed in
  { operationId: 'getMe', method: 'GET', path: '/api/me', resource: 'profile', access: 'signed-in', summary: 'Ruolo e dati della persona che ha eseguito il login', status: 200, response: meSchema },
  { operationId: 'getProfile', method: 'GET', path: '/api/profile', resource: 'profile', access: ['CITIZEN'], summary: 'Il profilo del cittadino (creato al primo accesso)', status: 200, response: userSchema },
  { operationId: 'updateProfile', method: 'PUT', path: '/api/profile', resource: 'profile', access: ['CITIZEN'], summary: 'Modifica del proprio profilo (nome, cognome e codice fiscale non modificabili)', body: profileUpdateSchema, status: 200, response: userSchema },
  // Users (operators; delegates read only)
  { operationId: 'searchUsers', method: 'GET', path: '/api/users', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Ricerca utenti per inizio di nome, cognome, codice fiscale, e-mail, telefono e "Da validare" (15 per pagina, senza scansioni)', query: userSearchSchema, status: 200, response: pageOf(userSchema) },
  { operationId: 'countLoadedUsers', method: 'GET', path: '/api/users/loaded/count', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Numero di utenti in stato LOADED (badge del pannello)', status: 200, response: countSchema },
  { operationId: 'getUser', method: 'GET', path: '/api/users/{id}', resource: 'users', access: ['OPERATOR', 'DELEGATE'], summary: 'Dati di un utente', params: idParamsSchema, status: 200, response: userSchema },
  { operationId: 'createUser', method: 'POST', path: '/api/users', resource: 'users', access: OPERATOR, summary: 'Nuovo utente', body: newUserSchema, status: 201, response: userSchema },
  { operationId: 'updateUser', method: 'PUT', path: '/api/users/{id}', resource: 'users', access: OPERATOR, summary: 'Modifica dei dati di un utente', params: idParamsSchema, body: userUpdateSchema, status: 200, response: userSchema },
  { operationId: 'setUserStatus', method: 'PUT', path: '/api/users/{id}/status', resource: 'users', access: OPERATOR, summary: 'Sospensione (SOSPENDI) o riattivazione (ABILITA) di un utente', params: idParamsSchema, body: userStatusSchema, status: 200, response: userSchema },
  { operationId: 'deleteUser', method: 'DELETE', path: '/api/users/{id}', resource: 'users', access: OPERATOR, summary: 'Cancellazione di un utente senza dati collegati', params: idParamsSchema, status: 204 },
  // ISEE
  { operationId: 'listIseesToVerify', method: 'GET', path: '/api/isee', resource: 'isee', access: OPERATOR, summary: 'ISEE caricati e non ancora validati (5 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'countIseesToVerify', method: 'GET', path: '/api/isee/to-verify/count', resource: 'isee', access: ['OPERATOR', 'DELEGATE'], summary: 'Numero di ISEE da verificare (badge del pannello)', status: 200, response: countSchema },
  { operationId: 'getIsee', method: 'GET', path: '/api/isee/{id}', resource: 'isee', access: ['OPERATOR', 'DELEGATE', 'CITIZEN'], summary: 'Un ISEE con la lettura del documento e un link di 5 minuti al file (il cittadino solo i propri)', params: idParamsSchema, status: 200, response: iseeSchema },
  { operationId: 'uploadMyIsee', method: 'POST', path: '/api/isee', resource: 'isee', access: ['CITIZEN'], summary: 'Caricamento dell’ISEE da parte del cittadino (invalida il precedente)', body: citizenIseeUploadSchema, status: 201, response: iseeSchema },
  { operationId: 'decideIsee', method: 'PUT', path: '/api/isee/{id}/decision', resource: 'isee', access: OPERATOR, summary: 'Conferma (stato 1) o rifiuto (stato 2) di un ISEE in attesa di verifica', params: idParamsSchema, body: iseeDecisionSchema, status: 200, response: iseeSchema },
  { operationId: 'deleteIsee', method: 'DELETE', path: '/api/isee/{id}', resource: 'isee', access: OPERATOR, summary: 'Cancellazione di un ISEE e del suo documento', params: idParamsSchema, status: 204 },
  { operationId: 'listMyIsees', method: 'GET', path: '/api/me/isee', resource: 'isee', access: ['CITIZEN'], summary: 'Gli ISEE caricati dal cittadino, dal più recente (5 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'listUserIsees', method: 'GET', path: '/api/users/{id}/isee', resource: 'isee', access: ['OPERATOR', 'DELEGATE'], summary: 'Gli ISEE di un utente, dal più recente (5 per pagina)', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(iseeSchema) },
  { operationId: 'uploadUserIsee', method: 'POST', path: '/api/users/{id}/isee', resource: 'isee', access: OPERATOR, summary: 'Caricamento di un ISEE per un utente da parte dell’operatore', params: idParamsSchema, body: operatorIseeUploadSchema, status: 201, response: iseeSchema },
  // File uploads: a presigned POST straight to the documents bucket; the feature that uses the file claims it
  { operationId: 'createUpload', method: 'POST', path: '/api/uploads', resource: 'uploads', access: ['OPERATOR', 'CITIZEN'], summary: 'Autorizzazione a caricare un file (PDF, JPEG, PNG) direttamente nello storage', body: uploadRequestSchema, status: 201, response: uploadTicketSchema },
  // Calls (bandi): operators manage them; everyone reads the OPEN ones
  { operationId: 'listCalls', method: 'GET', path: '/api/calls', resource: 'calls', access: OPERATOR, summary: 'Elenco dei bandi (15 per pagina, ricerca per inizio del nome)', query: callListQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'getCall', method: 'GET', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Dettaglio di un bando per l’operatore', params: idParamsSchema, status: 200, response: callSchema },
  { operationId: 'createCall', method: 'POST', path: '/api/calls', resource: 'calls', access: OPERATOR, summary: 'Nuovo bando (stato CREATE) con fino a 5 moduli già caricati', body: callInputSchema, status: 201, response: callSchema },
  { operationId: 'updateCall', method: 'PUT', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Modifica di un bando: dati, anno, stato e nuovi moduli (5 meno quelli allegati)', params: idParamsSchema, body: callUpdateSchema, status: 200, response: callSchema },
  { operationId: 'deleteCall', method: 'DELETE', path: '/api/calls/{id}', resource: 'calls', access: OPERATOR, summary: 'Eliminazione di un bando senza iscrizioni', params: idParamsSchema, status: 204 },
  { operationId: 'deleteCallFile', method: 'DELETE', path: '/api/calls/{id}/files/{fileId}', resource: 'calls', access: OPERATOR, summary: 'Rimozione di un modulo allegato al bando', params: callFileParamsSchema, status: 204 },
  { operationId: 'listServiceCalls', method: 'GET', path: '/api/services/{id}/calls', resource: 'calls', access: OPERATOR, summary: 'I bandi di un servizio', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'listOpenCalls', method: 'GET', path: '/api/open-calls', resource: 'calls', access: 'public', summary: 'Bandi aperti, dal più recente (bacheca; anche di un solo servizio)', query: openCallsQuerySchema, status: 200, response: pageOf(callSummarySchema) },
  { operationId: 'getOpenCall', method: 'GET', path: '/api/open-calls/{id}', resource: 'calls', access: 'public', summary: 'Un bando aperto: servizio, fasce ISEE e moduli da scaricare (link di 5 minuti)', params: idParamsSchema, status: 200, response: publicCallSchema },
  // Subscriptions (iscrizioni): the citizen's requests
  { operationId: 'subscribe', method: 'POST', path: '/api/calls/{id}/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Richiesta di iscrizione a un bando aperto, con fino a 5 file già caricati', params: idParamsSchema, body: subscribeSchema, status: 201, response: subscriptionSchema },
  { operationId: 'getMySubscription', method: 'GET', path: '/api/calls/{id}/subscription', resource: 'subscriptions', access: ['CITIZEN'], summary: 'L’iscrizione del cittadino a questo bando, se c’è', params: idParamsSchema, status: 200, response: mySubscriptionSchema },
  { operationId: 'listMySubscriptions', method: 'GET', path: '/api/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Le iscrizioni del cittadino, dalla più recente, con filtro per stato', query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'listUserSubscriptions', method: 'GET', path: '/api/users/{id}/subscriptions', resource: 'subscriptions', access: ['OPERATOR', 'DELEGATE'], summary: 'Le iscrizioni di un utente, dalla più recente (scheda utente, 3 per pagina)', params: idParamsSchema, query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'getSubscription', method: 'GET', path: '/api/subscriptions/{id}', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Una iscrizione del cittadino con i suoi file (link di 5 minuti)', params: subscriptionParamsSchema, status: 200, response: subscriptionSchema },
  // Public documents
  { operationId: 'getOpenApi', method: 'GET', path: '/api/openapi.json', resource: 'public', access: 'public', summary: 'Questo documento OpenAPI', status: 200 },
] as const satisfies readonly RouteDef[];

export type Route = (typeof routes)[number];
export type OperationId = Route['operationId'];
export type OperationsOf<R extends Resource> = Extract<Route, { resource: R }>['operationId'];

/** The routeKey API Gateway puts in every event: "GET /api/bands/{id}". */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;

export const routeByKey: ReadonlyMap<string, RouteDef> = new Map(routes.map((r) => [routeKey(r), r as RouteDef]));

export const routesOf = (resource: Resource): RouteDef[] => routes.filter((r) => r.resource === resource);
