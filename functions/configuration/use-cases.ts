import {
  checkConfiguration,
  type Configuration,
  type ConfigurationView,
  type StoredConfiguration,
} from '../domain/configuration.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { ConfigurationRepository } from '../adapters/ports/configuration.ts';

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
      await audit.record(
        {
          actor,
          entity: 'configuration',
          id: 'MYPAY',
          action: before ? 'update' : 'create',
          before: before?.values ?? null,
          after: saved.values,
        },
        now,
      );
      return view(saved);
    },
  };
}

export type ConfigurationUseCases = ReturnType<typeof makeConfigurationUseCases>;
