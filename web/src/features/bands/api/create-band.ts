import type { Band, BandInput } from '@domain/bands';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** POST /api/bands (201): the new band. The input must pass `bandInputSchema`, as the API checks it again. */
export const createBand = (input: BandInput): Promise<Band> => api.post<Band>('/api/bands', input);

export const useCreateBand = () => useApiMutation(createBand);
