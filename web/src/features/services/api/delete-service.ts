import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/**
 * DELETE /api/services/{id} (204). A service with calls is refused with 409 and the detail
 * 'Il servizio non può essere eliminato perché ha dei bandi associati.'
 */
export const deleteService = (id: string): Promise<void> => api.delete(`/api/services/${encodeURIComponent(id)}`);

export const useDeleteService = () => useApiMutation(deleteService);
