import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/**
 * DELETE /api/isee/{id} (204, operators only): the ISEE and its document. An ISEE already used to compute
 * a fee is refused with 409 and the detail 'Non è possibile eliminare un ISEE già usato per calcolare una quota.'
 */
export const deleteIsee = (id: string): Promise<void> => api.delete(`/api/isee/${encodeURIComponent(id)}`);

export const useDeleteIsee = () => useApiMutation(deleteIsee);
