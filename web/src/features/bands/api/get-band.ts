import type { Band } from '@domain/bands';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/bands/{id}. */
export const getBand = (id: string): Promise<Band> => api.get<Band>(`/api/bands/${encodeURIComponent(id)}`);

/** One band; nothing is fetched while `id` is missing. */
export const useBand = (id: string | null) => useApiQuery(['bands', id], () => getBand(id!), { enabled: Boolean(id) });
