import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** DELETE /api/users/{id} (204): only a user without linked data. */
export const deleteUser = (id: string): Promise<void> => api.delete(`/api/users/${encodeURIComponent(id)}`);

export const useDeleteUser = () => useApiMutation(deleteUser);
