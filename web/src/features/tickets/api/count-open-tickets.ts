import { api } from '@/lib/api';

/** GET /api/tickets/aperti/count: the TICKET card's badge. */
export const countOpenTickets = () => api.get<{ count: number }>('/api/tickets/aperti/count');
