import { idParamsSchema } from '../domain/validation.ts';
import { subscriptionParamsSchema } from '../domain/subscriptions.ts';
import {
  enrolUserSchema,
  enrolmentListQuerySchema,
  enrolmentPageSchema,
  enrolmentRowSchema,
  rankEnrolmentSchema,
  resetHoursStatusSchema,
  updateEnrolmentSchema,
} from '../domain/enrolment.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * Enrolment management (issue 7): the operator's side of a call's subscriptions (the enrolled users
 * table, its changes, the CSV template, export and import). Its own function, so the CSV parser stays
 * out of the citizens' subscriptions bundle; the items are the subscriptions (functions/subscriptions/repository-items.ts).
 */
export const enrolmentRoutes = [
  // Enrolment management (issue 7): the operator's side of a call's subscriptions; delegates read.
  {
    operationId: 'listEnrolments',
    method: 'GET',
    path: '/api/calls/{id}/enrolments',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Iscritti a un bando: filtri, ordinamento per punteggio o ISEE, 10/25/50 per pagina, con il totale',
    params: idParamsSchema,
    query: enrolmentListQuerySchema,
    status: 200,
    response: enrolmentPageSchema,
  },
  {
    operationId: 'enrolUser',
    method: 'POST',
    path: '/api/calls/{id}/enrolments',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Iscrizione di un utente a un bando da parte dell’operatore (stato ADDED)',
    params: idParamsSchema,
    body: enrolUserSchema,
    status: 201,
    response: enrolmentRowSchema,
  },
  {
    operationId: 'updateEnrolment',
    method: 'PUT',
    path: '/api/enrolments/{id}/state',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Cambio di stato di un’iscrizione con i codici 0/2/3/4 (2 chiede le ore)',
    params: subscriptionParamsSchema,
    body: updateEnrolmentSchema,
    status: 200,
    response: enrolmentRowSchema,
  },
  {
    operationId: 'rankEnrolment',
    method: 'PUT',
    path: '/api/enrolments/{id}/ranking',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Punteggio in graduatoria di un’iscrizione (intero)',
    params: subscriptionParamsSchema,
    body: rankEnrolmentSchema,
    status: 200,
    response: enrolmentRowSchema,
  },
  {
    operationId: 'unenrol',
    method: 'DELETE',
    path: '/api/enrolments/{id}',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Cancellazione di un’iscrizione approvata',
    params: subscriptionParamsSchema,
    status: 204,
  },
  {
    operationId: 'resetHours',
    method: 'POST',
    path: '/api/calls/{id}/enrolments/reset-hours',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Reset ore: avvia in background l’azzeramento delle ore delle iscrizioni approvate del bando',
    params: idParamsSchema,
    status: 200,
    response: resetHoursStatusSchema,
    problems: [409],
  },
  {
    operationId: 'resetHoursStatus',
    method: 'GET',
    path: '/api/calls/{id}/enrolments/reset-hours',
    resource: 'enrolments',
    access: OPERATOR,
    summary: 'Stato del Reset ore, con quante ore sono state azzerate',
    params: idParamsSchema,
    status: 200,
    response: resetHoursStatusSchema,
  },
] as const satisfies readonly RouteDef<'enrolments'>[];
