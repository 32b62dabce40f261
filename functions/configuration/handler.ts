import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports.ts';
import { resourceHandler } from '../http/handler.ts';
import * as configurationRepository from './repository.ts';
import { configurationRoutes } from './routes.ts';
import { makeConfigurationUseCases } from './use-cases.ts';

const configuration = makeConfigurationUseCases({ configuration: configurationRepository, audit: dynamoAuditLog, clock: systemClock });

export const handler = resourceHandler(configurationRoutes, {
  getConfiguration: () => configuration.getConfiguration(),
  updateConfiguration: ({ body, actor }) => configuration.updateConfiguration(body, actor),
});
