import * as z from 'zod/mini';
import { newTicketSchema, supportMessageSchema, ticketHistoryEntrySchema, ticketSchema, ticketSearchQuerySchema, ticketUpdateSchema } from '../domain/tickets.ts';
import { countSchema } from '../domain/users.ts';
import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * Tickets and support (part 2 §2.9, §2.14, §7; part 1 §7): the routes of the tickets function (the full
 * table is functions/routes.ts). Delegates have no ticket route: the spec gives them no ticket page and
 * disables the record's 'Ticket' button (part 2 §2.1, §2.13, §6). Literal paths come before /{id}.
 */
export const ticketRoutes = [
  { operationId: 'sendSupportMessage', method: 'POST', path: '/api/support', resource: 'tickets', access: ['CITIZEN'], summary: 'Messaggio dal modulo di supporto (sendEmail): diventa un ticket del cittadino, una mail all’ufficio e una ricevuta al cittadino (al massimo 5 l’ora e 20 al giorno)', body: supportMessageSchema, maxBodyBytes: 8 * 1024, status: 201, response: ticketSchema, problems: [429] },
  { operationId: 'listSupportSubjects', method: 'GET', path: '/api/support/subjects', resource: 'tickets', access: ['CITIZEN'], summary: 'Oggetti del modulo di supporto: i nomi dei servizi e Altro', status: 200, response: z.object({ subjects: z.array(z.string()) }) },
  { operationId: 'listMyTickets', method: 'GET', path: '/api/me/tickets', resource: 'tickets', access: ['CITIZEN'], summary: 'Le segnalazioni del cittadino, dalla più recente (10 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(ticketSchema) },
  { operationId: 'listOpenTickets', method: 'GET', path: '/api/tickets/aperti', resource: 'tickets', access: OPERATOR, summary: 'Ticket aperti (Aperto, In Corso), dal più vecchio (10 per pagina)', query: pageQuerySchema, status: 200, response: pageOf(ticketSchema) },
  { operationId: 'countOpenTickets', method: 'GET', path: '/api/tickets/aperti/count', resource: 'tickets', access: OPERATOR, summary: 'Numero di ticket aperti (badge TICKET del pannello)', status: 200, response: countSchema },
  { operationId: 'searchTickets', method: 'GET', path: '/api/tickets/cerca', resource: 'tickets', access: OPERATOR, summary: 'Ricerca (q): numero del ticket, inizio del codice fiscale, del cognome del richiedente o della categoria', query: ticketSearchQuerySchema, status: 200, response: pageOf(ticketSchema) },
  { operationId: 'createTicket', method: 'POST', path: '/api/tickets', resource: 'tickets', access: OPERATOR, summary: 'Nuovo ticket per un utente (nasce Aperto)', body: newTicketSchema, status: 201, response: ticketSchema, problems: [404] },
  { operationId: 'getTicket', method: 'GET', path: '/api/tickets/{id}', resource: 'tickets', access: ['OPERATOR', 'CITIZEN'], summary: 'Un ticket (il cittadino solo i propri)', params: idParamsSchema, status: 200, response: ticketSchema },
  { operationId: 'updateTicket', method: 'PUT', path: '/api/tickets/{id}/modifica', resource: 'tickets', access: OPERATOR, summary: 'Modifica di un ticket (stato 0–3, assegnatario, categoria, dettagli); Risolto e Chiuso sono in sola lettura', params: idParamsSchema, body: ticketUpdateSchema, status: 200, response: ticketSchema, problems: [409] },
  { operationId: 'getTicketHistory', method: 'GET', path: '/api/tickets/{id}/storico', resource: 'tickets', access: OPERATOR, summary: 'Storico delle modifiche di un ticket (chi, cosa, quando), dalla prima', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(ticketHistoryEntrySchema) },
  { operationId: 'listUserTickets', method: 'GET', path: '/api/users/{id}/tickets', resource: 'tickets', access: OPERATOR, summary: 'I ticket di un utente, dal più recente (10 per pagina)', params: idParamsSchema, query: pageQuerySchema, status: 200, response: pageOf(ticketSchema) },
] as const satisfies readonly RouteDef<'tickets'>[];
