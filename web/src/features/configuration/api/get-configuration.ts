import type { ConfigurationView } from '@domain/configuration';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/configuration: the saved MyPay configuration, or null before the first save. */
export const getConfiguration = (): Promise<ConfigurationView> => api.get<ConfigurationView>('/api/configuration');

export const useConfiguration = () => useApiQuery(['configuration'], getConfiguration);
