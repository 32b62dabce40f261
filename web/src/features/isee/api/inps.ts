import type { InpsCheck, InpsQuery } from '@domain/inps';
import type { ExpiryList, RefreshStatus } from '@domain/isee-refresh';
import type { InpsFetchResult } from '@domain/isee';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** The ISEE from INPS through PDND (issue 24): the API's calls, one per endpoint. */
export const fetchMyIseeFromInps = () => api.post<InpsFetchResult>('/api/me/isee/inps', {});
export const fetchUserIseeFromInps = (userId: string) =>
  api.post<InpsFetchResult>(`/api/users/${encodeURIComponent(userId)}/isee/inps`, {});
export const checkIseeWithInps = (iseeId: string) =>
  api.post<InpsCheck>(`/api/isee/${encodeURIComponent(iseeId)}/inps-check`, {});

const QUERIES_PAGE = 10;
/** The queries about the signed-in citizen (their view: when, why, how it ended). */
export const useMyInpsQueries = () =>
  useCursorList<Pick<InpsQuery, 'id' | 'at' | 'reasonLabel' | 'resultLabel' | 'idRichiesta'>>(
    ['isee', 'inps', 'mine'],
    (cursor) => api.get(`/api/me/inps-queries${query({ limit: QUERIES_PAGE, cursor })}`),
  );
/** The queries about a user, everything recorded (operators). */
export const useUserInpsQueries = (userId: string, resetKey?: string) =>
  useCursorList<InpsQuery>(['isee', 'inps', userId, resetKey], (cursor) =>
    api.get<Page<InpsQuery>>(
      `/api/users/${encodeURIComponent(userId)}/inps-queries${query({ limit: QUERIES_PAGE, cursor })}`,
    ),
  );

export const getCallIseeRefresh = (callId: string) =>
  api.get<RefreshStatus>(`/api/calls/${encodeURIComponent(callId)}/isee-refresh`);
export const startCallIseeRefresh = (callId: string) =>
  api.post<RefreshStatus>(`/api/calls/${encodeURIComponent(callId)}/isee-refresh`, {});

export const getIseeExpiry = (cursor: string | null) =>
  api.get<ExpiryList>(`/api/isee-expiry${query({ limit: 20, cursor })}`);
export const startIseeExpiry = () => api.post<ExpiryList>('/api/isee-expiry', {});
export const startIseeNewYear = () => api.post<RefreshStatus>('/api/isee-expiry/new-year', {});
