import type { CallSummary } from '@domain/calls';
import { OPEN_CALLS_PAGE_SIZE } from '@domain/call-limits';
import { api, query, type Page } from '@/lib/api';

/** GET /api/open-calls: OPEN calls, newest first (all, or of one service), 6 per page unless told. Public. */
export const getOpenCalls = (options: {
  serviceId?: string;
  limit?: number;
  cursor?: string | null;
}): Promise<Page<CallSummary>> =>
  api.get<Page<CallSummary>>(
    `/api/open-calls${query({ serviceId: options.serviceId, limit: options.limit ?? OPEN_CALLS_PAGE_SIZE, cursor: options.cursor })}`,
  );
