import type { Call, CallInput, CallSummary, CallUpdate, PublicCall } from '@domain/calls';
import { CALLS_PAGE_SIZE, OPEN_CALLS_PAGE_SIZE } from '@domain/calls';
import { api, query, type Page } from '@/lib/api';
import { useAsync } from '@/components/use-async';
import { useCursorList } from '@/components/cursor-pagination';

const enc = encodeURIComponent;

/** GET /api/calls: 15 per page, by name; `name` keeps the calls whose name starts with it. */
export const getCalls = (name: string, cursor: string | null) =>
  api.get<Page<CallSummary>>(`/api/calls${query({ name, cursor, limit: CALLS_PAGE_SIZE })}`);
export const useCalls = (name: string) => useCursorList<CallSummary>((cursor) => getCalls(name, cursor), { resetKey: name });

/** GET /api/services/{id}/calls: every call of a service (operators). */
export const useServiceCalls = (serviceId: string) =>
  useCursorList<CallSummary>((cursor) => api.get<Page<CallSummary>>(`/api/services/${enc(serviceId)}/calls${query({ cursor, limit: CALLS_PAGE_SIZE })}`), {
    resetKey: serviceId,
  });

/** GET /api/calls/{id}: the operator's call detail, with fresh 5-minute links to the forms. */
export const getCall = (id: string) => api.get<Call>(`/api/calls/${enc(id)}`);
export const useCall = (id: string | null) => useAsync(() => getCall(id!), [id], { enabled: Boolean(id) });

export const createCall = (input: CallInput) => api.post<Call>('/api/calls', input);
export const updateCall = (id: string, input: CallUpdate) => api.put<Call>(`/api/calls/${enc(id)}`, input);
/** 204; 409 'Il bando non può essere eliminato perché ha delle iscrizioni.' */
export const deleteCall = (id: string) => api.delete(`/api/calls/${enc(id)}`);
export const deleteCallFile = (id: string, fileId: string) => api.delete(`/api/calls/${enc(id)}/files/${enc(fileId)}`);

/** GET /api/open-calls: OPEN calls, newest first (all, or of one service). Public. */
export const getOpenCalls = (options: { serviceId?: string; limit?: number; cursor?: string | null }) =>
  api.get<Page<CallSummary>>(`/api/open-calls${query({ serviceId: options.serviceId, limit: options.limit ?? OPEN_CALLS_PAGE_SIZE, cursor: options.cursor })}`);

/** GET /api/open-calls/{id}: an OPEN call; any other is a 404 'Il bando selezionato non è presente.' Public. */
export const getOpenCall = (id: string) => api.get<PublicCall>(`/api/open-calls/${enc(id)}`);
export const useOpenCall = (id: string | null) => useAsync(() => getOpenCall(id!), [id], { enabled: Boolean(id) });
