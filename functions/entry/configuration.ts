import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as configurationRepository from '../configuration/repository.ts';
import { configurationRoutes } from '../configuration/routes.ts';
import { makeConfigurationUseCases } from '../configuration/use-cases.ts';

const configuration = makeConfigurationUseCases({
  configuration: configurationRepository,
  audit: dynamoAuditLog,
  clock: systemClock,
});

export const handler = resourceHandler(configurationRoutes, {
  getConfiguration: () => configuration.getConfiguration(),
  updateConfiguration: ({ body, actor }) => configuration.updateConfiguration(body, actor),
});
