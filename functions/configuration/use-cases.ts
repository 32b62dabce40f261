import { checkConfiguration, type Configuration, type ConfigurationView } from '../domain/configuration.ts';
import { ValidationError } from '../domain/errors.ts';
import { fill, messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog, Clock } from '../adapters/ports.ts';
import type { StoredConfiguration } from './repository.ts';

export interface ConfigurationRepository {
  getConfiguration(): Promise<StoredConfiguration | null>;
  putConfiguration(values: Configuration, now: string): Promise<StoredConfiguration>;
}

export interface ConfigurationDeps {
  configuration: ConfigurationRepository;
  audit: AuditLog;
  clock: Clock;
}

const view = (stored: StoredConfiguration | null): ConfigurationView => {
  if (!stored) return { configuration: null, updatedAt: null };
  const checked = checkConfiguration(stored.values);
  return { configuration: checked.ok ? checked.configuration : null, updatedAt: stored.updatedAt };
};

export function makeConfigurationUseCases({ configuration, audit, clock }: ConfigurationDeps) {
  return {
    getConfiguration: async (): Promise<ConfigurationView> => view(await configuration.getConfiguration()),

    async updateConfiguration(values: Configuration, actor: Actor): Promise<ConfigurationView> {
      const before = await configuration.getConfiguration();
      const now = clock.now();
      const saved = await configuration.putConfiguration(values, now.toISOString());
      await audit.record({ actor, entity: 'configuration', id: 'MYPAY', action: before ? 'update' : 'create', before: before?.values ?? null, after: saved.values }, now);
      return view(saved);
    },
  };
}

/** What the export reads: the complete configuration, or a 400 'Configurazione MyPay incompleta…' naming the missing fields. */
export async function requireCompleteConfiguration(configuration: Pick<ConfigurationRepository, 'getConfiguration'>): Promise<Configuration> {
  const stored = await configuration.getConfiguration();
  const checked = checkConfiguration(stored?.values);
  if (checked.ok) return checked.configuration;
  throw new ValidationError(fill(messages.configuration.incomplete, { fields: checked.missing.join(', ') }));
}

export type ConfigurationUseCases = ReturnType<typeof makeConfigurationUseCases>;
