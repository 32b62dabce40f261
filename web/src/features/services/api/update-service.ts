import type { Service, ServiceInput } from '@domain/services';
import { api } from '@/lib/api';
import { useApiMutation } from '@/lib/queries';

/** PUT /api/services/{id}: replaces the service, answers the saved one. */
export const updateService = (id: string, input: ServiceInput): Promise<Service> =>
  api.put<Service>(`/api/services/${encodeURIComponent(id)}`, input);

export const useUpdateService = () => useApiMutation(updateService);
