import type { CallSummary } from '@domain/calls';
import { CALLS_PAGE_SIZE } from '@domain/call-limits';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/calls: 15 per page, by name; `name` keeps the calls whose name starts with it. */
export const getCalls = (name: string, cursor: string | null): Promise<Page<CallSummary>> =>
  api.get<Page<CallSummary>>(`/api/calls${query({ name, cursor, limit: CALLS_PAGE_SIZE })}`);

/** The operator's calls list; a new `name` goes back to the first page. */
export const useCalls = (name: string) =>
  useCursorList<CallSummary>(['calls', 'list', name], (cursor) => getCalls(name, cursor));
