import { idParamsSchema, pageOf } from '../domain/validation.ts';
import { mySubscriptionSchema, subscribeSchema, subscriptionListQuerySchema, subscriptionParamsSchema, subscriptionSchema, subscriptionSummarySchema } from '../domain/subscriptions.ts';
import { type RouteDef } from '../http/route.ts';

/** Subscriptions (iscrizioni): the citizen's requests: the routes of the subscriptions function (the full table is functions/routes.ts). */
export const subscriptionRoutes = [
  { operationId: 'subscribe', method: 'POST', path: '/api/calls/{id}/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Richiesta di iscrizione a un bando aperto, con fino a 5 file già caricati', params: idParamsSchema, body: subscribeSchema, status: 201, response: subscriptionSchema },
  { operationId: 'getMySubscription', method: 'GET', path: '/api/calls/{id}/subscription', resource: 'subscriptions', access: ['CITIZEN'], summary: 'L’iscrizione del cittadino a questo bando, se c’è', params: idParamsSchema, status: 200, response: mySubscriptionSchema },
  { operationId: 'listMySubscriptions', method: 'GET', path: '/api/subscriptions', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Le iscrizioni del cittadino, dalla più recente, con filtro per stato', query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'listUserSubscriptions', method: 'GET', path: '/api/users/{id}/subscriptions', resource: 'subscriptions', access: ['OPERATOR', 'DELEGATE'], summary: 'Le iscrizioni di un utente, dalla più recente (scheda utente, 3 per pagina)', params: idParamsSchema, query: subscriptionListQuerySchema, status: 200, response: pageOf(subscriptionSummarySchema) },
  { operationId: 'getSubscription', method: 'GET', path: '/api/subscriptions/{id}', resource: 'subscriptions', access: ['CITIZEN'], summary: 'Una iscrizione del cittadino con i suoi file (link di 5 minuti)', params: subscriptionParamsSchema, status: 200, response: subscriptionSchema },
] as const satisfies readonly RouteDef<'subscriptions'>[];
