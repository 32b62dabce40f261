import type { Band } from '../domain/bands.ts';
import {
  CALLS_PAGE_SIZE,
  CallState,
  MAX_CALL_FILES,
  OPEN_CALLS_PAGE_SIZE,
  assertCallTransition,
  remainingCallFiles,
  type Call,
  type CallInput,
  type CallSummary,
  type CallUpdate,
  type PublicCall,
} from '../domain/calls.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { fileMessages } from '../domain/files.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { Service } from '../domain/services.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { FileStore } from '../adapters/ports/files.ts';
import { claimFiles, deleteFiles, linkFiles } from '../adapters/kept-files.ts';
import type { CallRecord } from '../domain/call-record.ts';
import { romeYear } from '../domain/period.ts';

type PageQuery = { limit?: number; cursor?: string };

export interface CallRepository {
  getCall(id: string): Promise<CallRecord | null>;
  listCalls(query: PageQuery & { name?: string }, pageSize: number): Promise<Page<CallSummary>>;
  listCallsOfService(serviceId: string, page: PageQuery, pageSize: number): Promise<Page<CallSummary>>;
  listOpenCalls(query: PageQuery & { serviceId?: string }, pageSize: number): Promise<Page<CallSummary>>;
  /** False when the stored call is no longer `previous` (nothing written). */
  putCall(record: CallRecord, previous: CallRecord | null): Promise<boolean>;
  deleteCall(record: CallRecord): Promise<void>;
}

export interface CallDeps {
  calls: CallRepository;
  services: { getService(id: string): Promise<Service | null> };
  bands: { getBand(id: string): Promise<Band | null> };
  subscriptions: {
    countSubscriptionsOfCall(callId: string): Promise<number>;
    getSubscription(callId: string, userId: string): Promise<unknown>;
  };
  citizens: { findUserIdByFiscalCode(fiscalCode: string): Promise<string | null> };
  files: FileStore;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export function makeCallUseCases({
  calls,
  services,
  bands,
  subscriptions,
  citizens,
  files,
  audit,
  clock,
  ids,
}: CallDeps) {
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));

  /** The bands of a call, in the order of their lower bound (a few GetItem, in parallel). */
  async function bandsOf(bandIds: string[]): Promise<Band[]> {
    const found = await Promise.all(bandIds.map((id) => bands.getBand(id)));
    return found.filter((band): band is Band => band !== null).sort((a, b) => a.min - b.min);
  }

  async function toPublicCall(record: CallRecord): Promise<PublicCall> {
    return {
      id: record.id,
      name: record.name,
      year: record.year,
      state: record.state,
      serviceId: record.serviceId,
      serviceName: record.serviceName,
      dataInsert: record.dataInsert,
      service: { id: record.serviceId, name: record.serviceName, description: record.serviceDescription },
      bands: await bandsOf(record.bandsId),
      announcementFiles: await linkFiles(files, record.files),
    };
  }

  async function toCall(record: CallRecord): Promise<Call> {
    return {
      ...(await toPublicCall(record)),
      nomeMyPay: record.nomeMyPay,
      codAccertamento: record.codAccertamento,
      codCapitolo: record.codCapitolo,
      bandsId: record.bandsId,
      subscriptionCount: await subscriptions.countSubscriptionsOfCall(record.id),
    };
  }

  /** The service and the bands a call names must exist: otherwise a 400 on the field, and nothing is written. */
  /** The fields an operator writes, with the copy of the service the call keeps; service and bands must exist. */
  async function operatorFields(input: CallInput) {
    const service = await services.getService(input.serviceId);
    if (!service) throw new ValidationError(messages.service.notFound, { serviceId: messages.service.notFound });
    const bandsId = [...new Set(input.bandsId)];
    for (const bandId of bandsId) {
      if (!(await bands.getBand(bandId)))
        throw new ValidationError(messages.band.notFound, { bandsId: messages.band.notFound });
    }
    return {
      name: input.name,
      serviceId: service.id,
      serviceName: service.name,
      serviceDescription: service.description,
      nomeMyPay: input.nomeMyPay,
      codAccertamento: input.codAccertamento,
      codCapitolo: input.codCapitolo,
      bandsId,
    };
  }

  /** Saves a call; a concurrent save in between is refused (409) and the new forms are dropped. */
  async function save(record: CallRecord, previous: CallRecord | null, newFiles: CallRecord['files'] = []) {
    let written = false;
    try {
      written = await calls.putCall(record, previous);
    } finally {
      if (!written) await deleteFiles(files, newFiles);
    }
    if (!written) throw new ConflictError(messages.call.changed);
  }

  return {
    listCalls: (query: PageQuery & { name?: string }) => calls.listCalls(query, CALLS_PAGE_SIZE),

    async listServiceCalls(serviceId: string, page: PageQuery) {
      if (!(await services.getService(serviceId))) throw new NotFoundError(messages.service.notFound);
      return calls.listCallsOfService(serviceId, page, CALLS_PAGE_SIZE);
    },

    getCall: async (id: string) => toCall(await requireCall(id)),

    /** A new call starts in state CREATE, in the current year unless given, with up to 5 forms. */
    async createCall(input: CallInput, actor: Actor): Promise<Call> {
      const fields = await operatorFields(input);
      const id = ids();
      const now = clock.now();
      const claimed = await claimFiles(files, ids, actor.sub, `calls/${id}`, input.files);
      const record: CallRecord = {
        id,
        ...fields,
        year: input.year ?? romeYear(now),
        state: CallState.CREATE,
        files: claimed,
        dataInsert: now.toISOString(),
        updatedAt: now.toISOString(),
        version: 1,
      };
      await save(record, null, claimed);
      await audit.record({ actor, entity: 'call', id, action: 'create', before: null, after: record }, now);
      return toCall(record);
    },

    /** An edit: the fields, a state the transition rules allow, and new forms (5 minus those attached). */
    async updateCall(id: string, input: CallUpdate, actor: Actor): Promise<Call> {
      const before = await requireCall(id);
      assertCallTransition(before.state, input.state);
      const fields = await operatorFields(input);
      if (input.files.length > remainingCallFiles(before.files.length))
        throw new ValidationError(fileMessages.tooMany, { files: fileMessages.tooMany });
      const added = await claimFiles(files, ids, actor.sub, `calls/${before.id}`, input.files);
      const now = clock.now();
      const after: CallRecord = {
        ...before,
        ...fields,
        year: input.year,
        state: input.state,
        files: [...before.files, ...added].slice(0, MAX_CALL_FILES),
        updatedAt: now.toISOString(),
        version: before.version + 1,
      };
      await save(after, before, added);
      await audit.record({ actor, entity: 'call', id: before.id, action: 'update', before, after }, now);
      return toCall(after);
    },

    /** A call with subscriptions stays (409); otherwise it goes with its forms. */
    async deleteCall(id: string, actor: Actor): Promise<void> {
      const before = await requireCall(id);
      if ((await subscriptions.countSubscriptionsOfCall(before.id)) > 0)
        throw new ConflictError(messages.call.hasSubscriptions);
      await calls.deleteCall(before);
      await deleteFiles(files, before.files);
      await audit.record({ actor, entity: 'call', id: before.id, action: 'delete', before, after: null }, clock.now());
    },

    async deleteCallFile(id: string, fileId: string, actor: Actor): Promise<void> {
      const before = await requireCall(id);
      const file = before.files.find((f) => f.storageFileId === fileId);
      if (!file) throw new NotFoundError(messages.call.fileNotFound);
      const now = clock.now();
      const after: CallRecord = {
        ...before,
        files: before.files.filter((f) => f !== file),
        updatedAt: now.toISOString(),
        version: before.version + 1,
      };
      await save(after, before);
      await deleteFiles(files, [file]);
      await audit.record({ actor, entity: 'call', id: before.id, action: 'update', before, after }, now);
    },

    // Everyone (the board, the public summary, the citizen's pages): OPEN calls only.
    listOpenCalls: (query: PageQuery & { serviceId?: string }) => calls.listOpenCalls(query, OPEN_CALLS_PAGE_SIZE),

    async getOpenCall(id: string): Promise<PublicCall> {
      const record = await calls.getCall(id);
      if (!record || record.state !== CallState.OPEN) throw new NotFoundError(messages.call.notFound);
      return toPublicCall(record);
    },

    /**
     * A call as the signed-in citizen sees it: any OPEN call, and a call in any other state they are enrolled
     * in, so their payments and forms stay reachable after it closes. Any other call is not there (404).
     */
    async getCitizenCall(id: string, actor: Actor): Promise<PublicCall> {
      const record = await calls.getCall(id);
      if (record?.state === CallState.OPEN) return toPublicCall(record);
      const userId = record && actor.fiscalCode ? await citizens.findUserIdByFiscalCode(actor.fiscalCode) : null;
      if (!record || !userId || !(await subscriptions.getSubscription(id, userId)))
        throw new NotFoundError(messages.call.notFound);
      return toPublicCall(record);
    },
  };
}
