import { api } from '@/lib/api';

/** GET /api/users/loaded/count: users in state LOADED (the 'UTENTI' badge of the dashboards). */
export const countLoadedUsers = (): Promise<{ count: number }> => api.get<{ count: number }>('/api/users/loaded/count');
