import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { Service, ServiceInput } from '../domain/services.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';

export interface ServiceRepository {
  listServices(page: { limit?: number; cursor?: string }): Promise<Page<Service>>;
  getService(id: string): Promise<Service | null>;
  createService(input: ServiceInput, id: string, now: string): Promise<Service>;
  updateService(id: string, input: ServiceInput, now: string): Promise<Service | null>;
  deleteService(id: string): Promise<boolean>;
}

/** The calls side of "has this service calls?". */
export interface CallsOfServices {
  serviceHasCalls(serviceId: string): Promise<boolean>;
}

export interface ServiceDeps {
  services: ServiceRepository;
  calls: CallsOfServices;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export function makeServiceUseCases({ services, calls, audit, clock, ids }: ServiceDeps) {
  const requireService = async (id: string) =>
    (await services.getService(id)) ?? Promise.reject(new NotFoundError(messages.service.notFound));

  return {
    listServices: (page: { limit?: number; cursor?: string }) => services.listServices(page),

    getService: requireService,

    async createService(input: ServiceInput, actor: Actor): Promise<Service> {
      const now = clock.now();
      const service = await services.createService(input, ids(), now.toISOString());
      await audit.record(
        { actor, entity: 'service', id: service.id, action: 'create', before: null, after: service },
        now,
      );
      return service;
    },

    async updateService(id: string, input: ServiceInput, actor: Actor): Promise<Service> {
      const before = await requireService(id);
      const now = clock.now();
      const after = await services.updateService(id, input, now.toISOString());
      if (!after) throw new NotFoundError(messages.service.notFound);
      await audit.record({ actor, entity: 'service', id, action: 'update', before, after }, now);
      return after;
    },

    /** A service with calls stays (409). */
    async deleteService(id: string, actor: Actor): Promise<void> {
      const before = await requireService(id);
      if (await calls.serviceHasCalls(id)) throw new ConflictError(messages.service.hasCalls);
      if (!(await services.deleteService(id))) throw new NotFoundError(messages.service.notFound);
      await audit.record({ actor, entity: 'service', id, action: 'delete', before, after: null }, clock.now());
    },
  };
}
