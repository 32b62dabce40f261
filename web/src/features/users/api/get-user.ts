import type { User } from '@domain/users';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/users/{id}: the operator's view of a citizen. */
export const getUser = (id: string): Promise<User> => api.get<User>(`/api/users/${encodeURIComponent(id)}`);

/** One user; nothing is fetched while `id` is missing. */
export const useUser = (id: string | null) => useApiQuery(['users', id], () => getUser(id!), { enabled: Boolean(id) });
