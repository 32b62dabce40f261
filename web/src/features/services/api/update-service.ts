import type { Service, ServiceInput } from '@domain/services';
import { api } from '@/lib/api';
import { useAsyncAction } from '@/components/use-async';

/** PUT /api/services/{id}: replaces the service, answers the saved one. */
export const updateService = (id: string, input: ServiceInput): Promise<Service> =>
  api.put<Service>(`/api/services/${encodeURIComponent(id)}`, input);

export const useUpdateService = () => useAsyncAction(updateService);
