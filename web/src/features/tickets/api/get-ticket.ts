import type { Ticket } from '@domain/tickets';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/tickets/{id}. */
export const getTicket = (id: string) => api.get<Ticket>(`/api/tickets/${encodeURIComponent(id)}`);
export const useTicket = (id: string | null) => useApiQuery(['tickets', id], () => getTicket(id!), { enabled: !!id });
