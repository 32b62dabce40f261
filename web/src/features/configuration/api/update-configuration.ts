import type { Configuration, ConfigurationView } from '@domain/configuration';
import { api } from '@/lib/api';

/** PUT /api/configuration: all eight values; answers the saved configuration. */
export const updateConfiguration = (input: Configuration): Promise<ConfigurationView> =>
  api.put<ConfigurationView>('/api/configuration', input);
