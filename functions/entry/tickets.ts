import { dynamoAuditHistory, dynamoAuditLog } from '../adapters/audit-log.ts';
import { mailSettings, sesMailer } from '../adapters/mail.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { businessMetrics, logger } from '../adapters/observability.ts';
import { resourceHandler } from '../http/handler.ts';
import * as serviceRepository from '../services/repository.ts';
import * as userRepository from '../users/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import * as ticketRepository from '../tickets/repository.ts';
import { ticketRoutes } from '../tickets/routes.ts';
import { makeTicketUseCases } from '../tickets/use-cases.ts';

// The sender and the support address are checked at cold start: a function deployed without them fails at once.
const settings = mailSettings();

const tickets = makeTicketUseCases({
  tickets: ticketRepository,
  users: userRepository,
  services: serviceRepository,
  ensureCitizen,
  mailer: sesMailer,
  supportAddress: () => settings.supportAddress,
  audit: dynamoAuditLog,
  history: dynamoAuditHistory,
  clock: systemClock,
  onMailFailure: (error, ticketId) => logger.error('Support e-mail not sent', { ticketId, error: error as Error }),
  metrics: businessMetrics,
});

export const handler = resourceHandler(ticketRoutes, {
  sendSupportMessage: ({ body, actor }) => tickets.sendSupportMessage(body, actor),
  listSupportSubjects: () => tickets.supportSubjects(),
  listMyTickets: ({ query, actor }) => tickets.listMyTickets(query, actor),
  listOpenTickets: ({ query }) => tickets.listOpenTickets(query),
  countOpenTickets: () => tickets.countOpenTickets(),
  searchTickets: ({ query }) => tickets.searchTickets(query),
  createTicket: ({ body, actor }) => tickets.createTicket(body, actor),
  getTicket: ({ params, actor }) => tickets.getTicket(params.id, actor),
  updateTicket: ({ params, body, actor }) => tickets.updateTicket(params.id, body, actor),
  getTicketHistory: ({ params, query }) => tickets.ticketHistory(params.id, query),
  listUserTickets: ({ params, query }) => tickets.listUserTickets(params.id, query),
});
