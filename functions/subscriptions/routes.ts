import { idParamsSchema, pageOf } from '../domain/validation.ts';
import { mySubscriptionSchema, subscribeSchema, subscriptionListQuerySchema, subscriptionParamsSchema, subscriptionSchema, subscriptionSummarySchema } from '../domain/subscriptions.ts';
import {
  MAX_IMPORT_BODY_BYTES,
  csvFileSchema,
  enrolUserSchema,
  enrolmentListQuerySchema,
  enrolmentPageSchema,
  enrolmentRowSchema,
  importEnrolmentsSchema,
  importPreviewSchema,
  rankEnrolmentSchema,
  resetHoursResponseSchema,
  updateEnrolmentSchema,
} from '../domain/enrolment.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Subscriptions (iscrizioni): the citizen's requests: the routes of the subscriptions function (the full table is functions/routes.ts). */
export const subscriptionRoutes = [
  { operationId: 'subscribe', method: 'POST', path: '/api/calls/{id}/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Richiesta di iscrizione a un bando aperto, con fino a 5 file già caricati', params: idParamsSchema, body: subscribeSchema, status: 201, response: subscriptionSchema },
  { operationId: 'getMySubscription', method: 'GET', path: '/api/calls/{id}/subscription', resource: 'subscriptions', access: ['CITIZEN'], summary: 'L’iscrizione del cittadino a questo bando, se c’è', params: idParamsSchema, status: 200, response: mySubscriptionSchema },
  { operationId: 'listMySubscriptions', method: 'GET', path: '/api/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Le iscrizioni del cittadino, dalla più recente, con filtro per stato', query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'listUserSubscriptions', method: 'GET', path: '/api/users/{id}/subscriptions', resource: 'subscriptions', access: ['OPERATOR', 'DELEGATE'], summary: 'Le iscrizioni di un utente, dalla più recente (scheda utente, 3 per pagina)', params: idParamsSchema, query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'getSubscription', method: 'GET', path: '/api/subscriptions/{id}', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Una iscrizione del cittadino con i suoi file (link di 5 minuti)', params: subscriptionParamsSchema, status: 200, response: subscriptionSchema },
  // Enrolment management (issue 7): the operator's side of a call's subscriptions; delegates read.
  { operationId: 'listEnrolments', method: 'GET', path: '/api/calls/{id}/enrolments', resource: 'subscriptions', access: ['OPERATOR', 'DELEGATE'], summary: 'Iscritti a un bando: filtri, ordinamento per punteggio o ISEE, 10/25/50 per pagina, con il totale', params: idParamsSchema, query: enrolmentListQuerySchema, status: 200, response: enrolmentPageSchema },
  { operationId: 'enrolUser', method: 'POST', path: '/api/calls/{id}/enrolments', resource: 'subscriptions', access: OPERATOR, summary: 'Iscrizione di un utente a un bando da parte dell’operatore (stato ADDED)', params: idParamsSchema, body: enrolUserSchema, status: 201, response: enrolmentRowSchema },
  { operationId: 'updateEnrolment', method: 'PUT', path: '/api/enrolments/{id}/state', resource: 'subscriptions', access: OPERATOR, summary: 'Cambio di stato di un’iscrizione con i codici 0/2/3/4 (2 chiede le ore)', params: subscriptionParamsSchema, body: updateEnrolmentSchema, status: 200, response: enrolmentRowSchema },
  { operationId: 'rankEnrolment', method: 'PUT', path: '/api/enrolments/{id}/ranking', resource: 'subscriptions', access: OPERATOR, summary: 'Punteggio in graduatoria di un’iscrizione (intero)', params: subscriptionParamsSchema, body: rankEnrolmentSchema, status: 200, response: enrolmentRowSchema },
  { operationId: 'unenrol', method: 'DELETE', path: '/api/enrolments/{id}', resource: 'subscriptions', access: OPERATOR, summary: 'Cancellazione di un’iscrizione approvata', params: subscriptionParamsSchema, status: 204 },
  { operationId: 'resetHours', method: 'POST', path: '/api/calls/{id}/enrolments/reset-hours', resource: 'subscriptions', access: OPERATOR, summary: 'Reset ore: azzera le ore delle iscrizioni approvate del bando', params: idParamsSchema, status: 200, response: resetHoursResponseSchema },
  { operationId: 'exportEnrolments', method: 'GET', path: '/api/calls/{id}/enrolments/csv', resource: 'subscriptions', access: ['OPERATOR', 'DELEGATE'], summary: 'Elenco degli iscritti in CSV (Excel italiano), col nome del bando', params: idParamsSchema, status: 200, response: csvFileSchema },
  { operationId: 'enrolmentTemplate', method: 'GET', path: '/api/enrolments/template', resource: 'subscriptions', access: OPERATOR, summary: 'Template CSV per l’importazione delle iscrizioni (Template_<data>.csv)', status: 200, response: csvFileSchema },
  { operationId: 'importEnrolments', method: 'POST', path: '/api/calls/{id}/enrolments/import', resource: 'subscriptions', access: OPERATOR, summary: 'Importazione CSV delle iscrizioni: anteprima (apply false) o applicazione', params: idParamsSchema, body: importEnrolmentsSchema, maxBodyBytes: MAX_IMPORT_BODY_BYTES + 4096, status: 200, response: importPreviewSchema },
] as const satisfies readonly RouteDef<'subscriptions'>[];
