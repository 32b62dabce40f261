import { api } from '@/lib/api';
import { useAsyncAction } from '@/components/use-async';

/** DELETE /api/users/{id} (204): only a user without linked data. */
export const deleteUser = (id: string): Promise<void> => api.delete(`/api/users/${encodeURIComponent(id)}`);

export const useDeleteUser = () => useAsyncAction(deleteUser);
