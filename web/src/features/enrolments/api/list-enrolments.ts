import { api, query } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';
import { parseIseeAbove } from '../utils/enrolment-format';
import type { EnrolmentFilters, EnrolmentPage, EnrolmentPageSize, EnrolmentSort } from './types';

export interface EnrolmentListQuery {
  filters: EnrolmentFilters;
  sort: EnrolmentSort;
  limit: EnrolmentPageSize;
}

/** GET /api/calls/{id}/enrolments: one page of the call's enrolled users, filtered and sorted. */
export function listEnrolments(
  callId: string,
  { filters, sort, limit }: EnrolmentListQuery,
  cursor: string | null,
): Promise<EnrolmentPage> {
  const iseeAbove = parseIseeAbove(filters.iseeAbove);
  return api.get<EnrolmentPage>(
    `/api/calls/${encodeURIComponent(callId)}/enrolments${query({
      fiscalCode: filters.fiscalCode.trim().toUpperCase(),
      firstName: filters.firstName.trim(),
      lastName: filters.lastName.trim(),
      iseeAbove: iseeAbove === null || Number.isNaN(iseeAbove) ? undefined : iseeAbove,
      confirmed: filters.confirmed ? 'true' : undefined,
      sort,
      limit,
      cursor,
    })}`,
  );
}

/** The call's enrolled users for the query; a new query goes back to the first page. */
export const useEnrolments = (callId: string, listQuery: EnrolmentListQuery) =>
  useCursorList(['enrolments', callId, listQuery], (cursor) => listEnrolments(callId, listQuery, cursor));
