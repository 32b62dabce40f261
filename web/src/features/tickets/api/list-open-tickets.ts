import { TICKET_PAGE_SIZE, type Ticket } from '@domain/tickets';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/tickets/aperti (open tickets, oldest first), or GET /api/tickets/cerca?q= when a query is given. */
export const useOpenTickets = (q: string) =>
  useCursorList<Ticket>(['tickets', 'open', q], (cursor) =>
    q
      ? api.get<Page<Ticket>>(`/api/tickets/cerca${query({ q, limit: TICKET_PAGE_SIZE, cursor })}`)
      : api.get<Page<Ticket>>(`/api/tickets/aperti${query({ limit: TICKET_PAGE_SIZE, cursor })}`),
  );
