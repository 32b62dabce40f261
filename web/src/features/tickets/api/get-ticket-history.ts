import type { TicketHistoryEntry } from '@domain/tickets';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/tickets/{id}/storico: who changed what, and when, oldest first. */
export const useTicketHistory = (id: string, version: string) =>
  useCursorList<TicketHistoryEntry>(['tickets', id, 'history', version], (cursor) =>
    api.get<Page<TicketHistoryEntry>>(`/api/tickets/${encodeURIComponent(id)}/storico${query({ limit: 20, cursor })}`),
  );
