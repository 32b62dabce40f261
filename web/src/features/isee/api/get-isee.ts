import type { Isee } from '@domain/isee';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** One ISEE with its reading and a short-lived link to its document (a citizen only their own). */
export const getIsee = (id: string) => api.get<Isee>(`/api/isee/${encodeURIComponent(id)}`);
export const useIsee = (id: string | null) => useApiQuery(['isee', id], () => getIsee(id!), { enabled: Boolean(id) });
