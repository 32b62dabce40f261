import type { Band, BandInput } from '@domain/bands';
import { api } from '@/lib/api';
import { useAsyncAction } from '@/components/use-async';

/** POST /api/bands (201): the new band. The input must pass `bandInputSchema`, as the API checks it again. */
export const createBand = (input: BandInput): Promise<Band> => api.post<Band>('/api/bands', input);

export const useCreateBand = () => useAsyncAction(createBand);
