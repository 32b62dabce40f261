import { TICKET_PAGE_SIZE, type Ticket } from '@domain/tickets';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/users/{id}/tickets: a user's tickets, newest first. */
export const useUserTickets = (userId: string) =>
  useCursorList<Ticket>(['tickets', 'of-user', userId], (cursor) =>
    api.get<Page<Ticket>>(
      `/api/users/${encodeURIComponent(userId)}/tickets${query({ limit: TICKET_PAGE_SIZE, cursor })}`,
    ),
  );
