import type { Ticket } from '@domain/tickets';
import { api } from '@/lib/api';
import { useAsync } from '@/components/use-async';

/** GET /api/tickets/{id}. */
export const getTicket = (id: string) => api.get<Ticket>(`/api/tickets/${encodeURIComponent(id)}`);
export const useTicket = (id: string | null) => useAsync(() => getTicket(id!), [id], { enabled: !!id });
