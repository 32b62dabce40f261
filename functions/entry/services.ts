import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as callRepository from '../calls/repository.ts';
import * as serviceRepository from '../services/repository.ts';
import { makeServiceUseCases } from '../services/use-cases.ts';
import { serviceRoutes } from '../services/routes.ts';

const services = makeServiceUseCases({
  services: serviceRepository,
  calls: callRepository,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(serviceRoutes, {
  listServices: ({ query }) => services.listServices(query),
  getService: ({ params }) => services.getService(params.id),
  createService: ({ body, actor }) => services.createService(body, actor),
  updateService: ({ params, body, actor }) => services.updateService(params.id, body, actor),
  deleteService: ({ params, actor }) => services.deleteService(params.id, actor),
});
