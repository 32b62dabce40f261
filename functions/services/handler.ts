import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import { recordAudit } from '../adapters/audit-log.ts';
import { resourceHandler } from '../http/handler.ts';
import { serviceRoutes } from './routes.ts';
import * as services from './repository.ts';

export const handler = resourceHandler(serviceRoutes, {
  listServices: ({ query }) => services.listServices(query),

  getService: async ({ params }) =>
    (await services.getService(params.id)) ?? Promise.reject(new NotFoundError(messages.service.notFound)),

  createService: async ({ body, actor }) => {
    const service = await services.createService(body);
    await recordAudit({ actor: actor!, entity: 'service', id: service.id, action: 'create', before: null, after: service });
    return service;
  },

  updateService: async ({ params, body, actor }) => {
    const before = await services.getService(params.id);
    const after = before && (await services.updateService(params.id, body));
    if (!after) throw new NotFoundError(messages.service.notFound);
    await recordAudit({ actor: actor!, entity: 'service', id: after.id, action: 'update', before, after });
    return after;
  },

  deleteService: async ({ params, actor }) => {
    const before = await services.getService(params.id);
    if (!before) throw new NotFoundError(messages.service.notFound);
    if (await services.serviceHasCalls(params.id)) throw new ConflictError(messages.service.hasCalls);
    if (!(await services.deleteService(params.id))) throw new NotFoundError(messages.service.notFound);
    await recordAudit({ actor: actor!, entity: 'service', id: params.id, action: 'delete', before, after: null });
  },
});
