import type { Service } from '@domain/services';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/services/{id}. */
export const getService = (id: string): Promise<Service> => api.get<Service>(`/api/services/${encodeURIComponent(id)}`);

/** One service; nothing is fetched while `id` is missing. */
export const useService = (id: string | null) =>
  useApiQuery(['services', id], () => getService(id!), { enabled: Boolean(id) });
