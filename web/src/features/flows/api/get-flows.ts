import type { Flow } from '@domain/flow-schemas';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/flows: one hundred flows per page, newest first, filtered by title. */
export const getFlows = (filter: { descrizione?: string; cursor?: string | null }): Promise<Page<Flow>> =>
  api.get<Page<Flow>>(`/api/flows${query({ descrizione: filter.descrizione, cursor: filter.cursor })}`);

export const useFlows = (descrizione: string) =>
  useCursorList<Flow>((cursor) => getFlows({ descrizione, cursor }), { resetKey: descrizione });
