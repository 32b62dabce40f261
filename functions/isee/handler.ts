import { recordAudit } from '../adapters/audit-log.ts';
import { claimUpload, deleteFile, downloadUrl } from '../adapters/files.ts';
import { NotFoundError } from '../domain/errors.ts';
import { iseeMessages } from '../domain/isee.ts';
import { iseeDocumentKey } from '../domain/isee-extraction.ts';
import { userMessages } from '../domain/users.ts';
import { resourceHandler } from '../http/handler.ts';
import { iseeRoutes } from './routes.ts';
import { ensureCitizen, findUserIdByFiscalCode } from '../users/citizens.ts';
import { getUserItem } from '../users/repository.ts';
import * as isee from './repository.ts';

const userSummary = (user: Record<string, any>) => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  fiscalCode: user.fiscalCode,
  email: user.email ?? null,
});

const requireUser = async (id: string) => (await getUserItem(id)) ?? Promise.reject(new NotFoundError(userMessages.notFound));

export const handler = resourceHandler(iseeRoutes, {
  listIseesToVerify: ({ query }) => isee.listIseesToVerify(query),

  countIseesToVerify: async () => ({ count: await isee.countIseesToVerify() }),

  /** A citizen reads only their own ISEE: anyone else's is "not found". The document link lives 5 minutes. */
  getIsee: async ({ params, actor }) => {
    const item = await isee.getIseeItem(params.id);
    if (!item) throw new NotFoundError(iseeMessages.notFound);
    if (actor!.role === 'CITIZEN') {
      const own = actor!.fiscalCode ? await findUserIdByFiscalCode(actor!.fiscalCode) : null;
      if (own !== item.userId) throw new NotFoundError(iseeMessages.notFound);
    }
    const fileUrl = item.hasFile ? await downloadUrl(iseeDocumentKey(item.id), item.fileName ?? 'isee') : null;
    return { ...isee.toIsee(item), fileUrl };
  },

  listMyIsees: async ({ actor, query }) => isee.listIseesOfUser(await ensureCitizen(actor!), query),

  listUserIsees: async ({ params, query }) => {
    await requireUser(params.id);
    return isee.listIseesOfUser(params.id, query);
  },

  /** Citizen upload (part 2 §2.7): the file is checked on its stored bytes before anything is written. */
  uploadMyIsee: async ({ actor, body }) => {
    const userId = await ensureCitizen(actor!);
    const user = await requireUser(userId);
    const id = isee.newIseeId();
    const claimed = await claimUpload(actor!.sub, body.document.uploadKey, iseeDocumentKey(id));
    const now = new Date();
    return isee.createIsee({
      id,
      userId,
      user: userSummary(user),
      value: body.value,
      year: now.getFullYear(),
      date: now.toISOString(),
      state: 'LOADED',
      file: { name: body.document.name, contentType: claimed.contentType, size: claimed.size },
      uploadedBy: 'CITIZEN',
      uploadedBySub: actor!.sub,
    });
  },

  /**
   * Operator upload for a user (part 1 §2): with 'Escludi verifica ISEE' the ISEE is recorded as
   * validated (no document needed); otherwise the document is required and the ISEE waits for review.
   */
  uploadUserIsee: async ({ actor, params, body }) => {
    const user = await requireUser(params.id);
    const id = isee.newIseeId();
    const claimed = body.document ? await claimUpload(actor!.sub, body.document.uploadKey, iseeDocumentKey(id)) : null;
    const created = await isee.createIsee({
      id,
      userId: params.id,
      user: userSummary(user),
      value: body.value,
      year: body.year,
      date: new Date(body.date).toISOString(),
      protocollo: body.protocollo,
      scadenza: body.scadenza,
      state: body.excludeVerification ? 'VALIDATED' : 'LOADED',
      file: claimed && body.document ? { name: body.document.name, contentType: claimed.contentType, size: claimed.size } : null,
      uploadedBy: 'OPERATOR',
      uploadedBySub: actor!.sub,
      excludeVerification: body.excludeVerification,
    });
    await recordAudit({ actor: actor!, entity: 'isee', id, action: 'create', before: null, after: created });
    return created;
  },

  decideIsee: async ({ actor, params, body }) => {
    const { before, after } = await isee.decideIsee(params.id, body, actor!.sub);
    await recordAudit({ actor: actor!, entity: 'isee', id: params.id, action: 'update', before, after });
    return after;
  },

  deleteIsee: async ({ actor, params }) => {
    const item = await isee.deleteIsee(params.id);
    if (item.hasFile) await deleteFile(iseeDocumentKey(item.id));
    await recordAudit({ actor: actor!, entity: 'isee', id: params.id, action: 'delete', before: isee.toIsee(item), after: null });
  },
});
