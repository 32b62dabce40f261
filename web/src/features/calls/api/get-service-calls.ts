import type { CallSummary } from '@domain/calls';
import { CALLS_PAGE_SIZE } from '@domain/call-limits';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/services/{id}/calls: every call of a service (operators), 15 per page. */
export const getServiceCalls = (serviceId: string, cursor: string | null): Promise<Page<CallSummary>> =>
  api.get<Page<CallSummary>>(
    `/api/services/${encodeURIComponent(serviceId)}/calls${query({ cursor, limit: CALLS_PAGE_SIZE })}`,
  );

export const useServiceCalls = (serviceId: string) =>
  useCursorList<CallSummary>(['calls', 'of-service', serviceId], (cursor) => getServiceCalls(serviceId, cursor));
