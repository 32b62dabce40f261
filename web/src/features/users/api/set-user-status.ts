import type { User } from '@domain/users';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** PUT /api/users/{id}/status: suspends the user ('SOSPENDI') or enables it again ('ABILITA'). */
export const setUserStatus = (id: string, suspended: boolean): Promise<User> =>
  api.put<User>(`/api/users/${encodeURIComponent(id)}/status`, { suspended });

export const useSetUserStatus = () => useApiMutation(setUserStatus);
