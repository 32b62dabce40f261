import type { NewTicketInput, Ticket, TicketUpdate } from '@domain/tickets';
import { api } from '@/lib/api';

/** POST /api/tickets: a new ticket for a user (it starts Aperto). */
export const createTicket = (input: NewTicketInput) => api.post<Ticket>('/api/tickets', input);
/** PUT /api/tickets/{id}/modifica. */
export const updateTicket = (id: string, input: TicketUpdate) =>
  api.put<Ticket>(`/api/tickets/${encodeURIComponent(id)}/modifica`, input);
