import { randomUUID } from 'node:crypto';
import { CALLS_PAGE_SIZE, CallState, MAX_CALL_FILES, OPEN_CALLS_PAGE_SIZE, remainingCallFiles, type Call, type CallInput, type CallUpdate, type PublicCall } from '../domain/calls.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { fileMessages } from '../domain/files.ts';
import { messages } from '../domain/messages.ts';
import { recordAudit } from '../adapters/audit-log.ts';
import { resourceHandler } from '../http/handler.ts';
import { callRoutes } from './routes.ts';
import { getBand } from '../bands/repository.ts';
import { getService } from '../services/repository.ts';
import * as calls from './repository.ts';
import { claimFiles, deleteFiles, linkFiles } from './files.ts';
import type { CallRecord, StoredCallFile } from './repository.ts';

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
    bands: await calls.bandsOf(record.bandsId),
    announcementFiles: await linkFiles(record.files),
  };
}

async function toCall(record: CallRecord): Promise<Call> {
  return {
    ...(await toPublicCall(record)),
    nomeMyPay: record.nomeMyPay,
    codAccertamento: record.codAccertamento,
    codCapitolo: record.codCapitolo,
    bandsId: record.bandsId,
    subscriptionCount: await calls.countSubscriptions(record.id),
  };
}

/** The service and the bands a call names must exist: otherwise a 400 on the field, and nothing is written. */
async function checkReferences(input: CallInput) {
  const service = await getService(input.serviceId);
  if (!service) throw new ValidationError(messages.service.notFound, { serviceId: messages.service.notFound });
  const bandsId = [...new Set(input.bandsId)];
  for (const bandId of bandsId) {
    if (!(await getBand(bandId))) throw new ValidationError(messages.band.notFound, { bandsId: messages.band.notFound });
  }
  return { service, bandsId };
}

const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));

/** Saves an edited call; a concurrent save in between is refused (409) and the new forms are dropped. */
async function save(record: CallRecord, previous: CallRecord | null, newFiles: StoredCallFile[] = []) {
  try {
    await calls.putCall(record, previous);
  } catch (error) {
    await deleteFiles(newFiles);
    if (calls.isStaleWrite(error)) throw new ConflictError(messages.call.changed);
    throw error;
  }
}

export const handler = resourceHandler(callRoutes, {
  listCalls: ({ query }) => calls.listCalls(query, CALLS_PAGE_SIZE),

  listServiceCalls: async ({ params, query }) => {
    if (!(await getService(params.id))) throw new NotFoundError(messages.service.notFound);
    return calls.listCallsOfService(params.id, query, CALLS_PAGE_SIZE);
  },

  getCall: async ({ params }) => toCall(await requireCall(params.id)),

  createCall: async ({ body, actor }) => {
    const input = body as CallInput;
    const { service, bandsId } = await checkReferences(input);
    const id = randomUUID();
    const now = new Date().toISOString();
    const files = await claimFiles(actor!.sub, `calls/${id}`, input.files);
    const record: CallRecord = {
      id,
      name: input.name,
      year: input.year ?? new Date().getFullYear(),
      state: CallState.CREATE,
      serviceId: service.id,
      serviceName: service.name,
      serviceDescription: service.description,
      nomeMyPay: input.nomeMyPay,
      codAccertamento: input.codAccertamento,
      codCapitolo: input.codCapitolo,
      bandsId,
      files,
      dataInsert: now,
      updatedAt: now,
      version: 1,
    };
    await save(record, null, files);
    await recordAudit({ actor: actor!, entity: 'call', id, action: 'create', before: null, after: record });
    return toCall(record);
  },

  updateCall: async ({ params, body, actor }) => {
    const input = body as CallUpdate;
    const before = await requireCall(params.id);
    const { service, bandsId } = await checkReferences(input);
    if (input.files.length > remainingCallFiles(before.files.length)) throw new ValidationError(fileMessages.tooMany, { files: fileMessages.tooMany });
    const added = await claimFiles(actor!.sub, `calls/${before.id}`, input.files);
    const after: CallRecord = {
      ...before,
      name: input.name,
      year: input.year,
      state: input.state,
      serviceId: service.id,
      serviceName: service.name,
      serviceDescription: service.description,
      nomeMyPay: input.nomeMyPay,
      codAccertamento: input.codAccertamento,
      codCapitolo: input.codCapitolo,
      bandsId,
      files: [...before.files, ...added].slice(0, MAX_CALL_FILES),
      updatedAt: new Date().toISOString(),
      version: before.version + 1,
    };
    await save(after, before, added);
    await recordAudit({ actor: actor!, entity: 'call', id: before.id, action: 'update', before, after });
    return toCall(after);
  },

  deleteCall: async ({ params, actor }) => {
    const before = await requireCall(params.id);
    if ((await calls.countSubscriptions(before.id)) > 0) throw new ConflictError(messages.call.hasSubscriptions);
    await calls.deleteCall(before);
    await deleteFiles(before.files);
    await recordAudit({ actor: actor!, entity: 'call', id: before.id, action: 'delete', before, after: null });
  },

  deleteCallFile: async ({ params, actor }) => {
    const before = await requireCall(params.id);
    const file = before.files.find((f) => f.storageFileId === params.fileId);
    if (!file) throw new NotFoundError(messages.call.fileNotFound);
    const after: CallRecord = { ...before, files: before.files.filter((f) => f !== file), updatedAt: new Date().toISOString(), version: before.version + 1 };
    await save(after, before);
    await deleteFiles([file]);
    await recordAudit({ actor: actor!, entity: 'call', id: before.id, action: 'update', before, after });
  },

  // Everyone (the board, the public summary, the citizen's pages): OPEN calls only.
  listOpenCalls: ({ query }) => calls.listOpenCalls(query, OPEN_CALLS_PAGE_SIZE),

  getOpenCall: async ({ params }) => {
    const record = await calls.getCall(params.id);
    if (!record || record.state !== CallState.OPEN) throw new NotFoundError(messages.call.notFound);
    return toPublicCall(record);
  },
});
