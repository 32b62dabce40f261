import type { Configuration, StoredConfiguration } from '../../domain/configuration.ts';

/** The MyPay configuration (functions/configuration/repository.ts). */
export interface ConfigurationRepository {
  getConfiguration(): Promise<StoredConfiguration | null>;
  putConfiguration(values: Configuration, now: string): Promise<StoredConfiguration>;
}
