import type { Isee } from '@domain/isee';
import { api } from '@/lib/api';
import { useAsync } from '@/components/use-async';

/** One ISEE with its reading and a short-lived link to its document (a citizen only their own). */
export const getIsee = (id: string) => api.get<Isee>(`/api/isee/${encodeURIComponent(id)}`);
export const useIsee = (id: string | null) => useAsync(() => getIsee(id!), [id], { enabled: Boolean(id) });
