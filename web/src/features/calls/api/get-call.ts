import type { Call } from '@domain/calls';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/calls/{id}: the operator's call detail, with fresh 5-minute links to the forms. */
export const getCall = (id: string): Promise<Call> => api.get<Call>(`/api/calls/${encodeURIComponent(id)}`);

/** One call; nothing is fetched while `id` is missing. */
export const useCall = (id: string | null) => useApiQuery(['calls', id], () => getCall(id!), { enabled: Boolean(id) });
