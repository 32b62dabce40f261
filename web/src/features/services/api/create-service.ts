import type { Service, ServiceInput } from '@domain/services';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** POST /api/services (201): the new service. The input must pass `serviceInputSchema`, as the API checks it again. */
export const createService = (input: ServiceInput): Promise<Service> => api.post<Service>('/api/services', input);

export const useCreateService = () => useApiMutation(createService);
