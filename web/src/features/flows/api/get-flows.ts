import type { Flow, FlowPage } from '@domain/flow-schemas';
import { api, query } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/flows: one hundred flows per page, newest first, filtered by title, and the platform they go to. */
export const getFlows = (filter: { descrizione?: string; cursor?: string | null }): Promise<FlowPage> =>
  api.get<FlowPage>(`/api/flows${query({ descrizione: filter.descrizione, cursor: filter.cursor })}`);

export const useFlows = (descrizione: string) =>
  useCursorList<Flow, Pick<FlowPage, 'platform'>>(['flows', descrizione], (cursor) =>
    getFlows({ descrizione, cursor }),
  );
