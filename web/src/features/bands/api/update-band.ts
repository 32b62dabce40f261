import type { Band, BandInput } from '@domain/bands';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** PUT /api/bands/{id}: replaces the band, answers the saved band. */
export const updateBand = (id: string, input: BandInput): Promise<Band> =>
  api.put<Band>(`/api/bands/${encodeURIComponent(id)}`, input);

export const useUpdateBand = () => useApiMutation(updateBand);
