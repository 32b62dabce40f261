import type { Band } from '@domain/bands';
import { api } from '@/lib/api';
import { useAsync } from '@/components/use-async';

/** GET /api/bands/{id}. */
export const getBand = (id: string): Promise<Band> => api.get<Band>(`/api/bands/${encodeURIComponent(id)}`);

/** One band; nothing is fetched while `id` is missing. */
export const useBand = (id: string | null) => useAsync(() => getBand(id!), [id], { enabled: Boolean(id) });
