import type { SupportMessage, Ticket } from '@domain/tickets';
import { api } from '@/lib/api';

/** POST /api/support: the support form (spec 'sendEmail'); the message becomes a ticket. */
export const sendSupportMessage = (message: SupportMessage) => api.post<Ticket>('/api/support', message);
