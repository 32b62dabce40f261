import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/**
 * DELETE /api/bands/{id} (204). A band used by a call is refused with 409 and the detail
 * 'La fascia ISEE selezionata è inclusa in un bando in corso.'
 */
export const deleteBand = (id: string): Promise<void> => api.delete(`/api/bands/${encodeURIComponent(id)}`);

export const useDeleteBand = () => useApiMutation(deleteBand);
