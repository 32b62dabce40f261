import { TICKET_PAGE_SIZE, type Ticket } from '@domain/tickets';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/me/tickets: the citizen's own tickets, newest first. */
export const useMyTickets = () =>
  useCursorList<Ticket>(['tickets', 'mine'], (cursor) =>
    api.get<Page<Ticket>>(`/api/me/tickets${query({ limit: TICKET_PAGE_SIZE, cursor })}`),
  );
