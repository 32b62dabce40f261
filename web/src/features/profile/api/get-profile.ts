import type { User } from '@domain/users';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/profile: the signed-in citizen's own data. */
export const getProfile = (): Promise<User> => api.get<User>('/api/profile');

export const useProfile = () => useApiQuery(['profile'], getProfile);
