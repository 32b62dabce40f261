import { ConflictError, NotFoundError } from '../domain/errors.ts';
// Rules from the zod-free modules, payload types from the schemas': the background jobs build no API schema.
import {
  assertIseeDeletable,
  decidedState,
  iseeDocumentKey,
  iseeMessages,
  supersededState,
  toIsee,
} from '../domain/isee-rules.ts';
import type { CitizenIseeUpload, Isee, IseeDecision, IseeState, OperatorIseeUpload } from '../domain/isee.ts';
import { toCents } from '../domain/money.ts';
import type { Actor } from '../domain/roles.ts';
import { userMessages, userStateAfterIsee, type LastIsee } from '../domain/user-rules.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { FileStore } from '../adapters/ports/files.ts';
import type { EnsureCitizen, UserRepository } from '../adapters/ports/users.ts';
import type { StoredUser } from '../domain/user-record.ts';
import type { StoredIsee } from './repository.ts';
import type { NewIsee } from '../domain/isee-record.ts';
import { romeYear } from '../domain/period.ts';

type PageQuery = { limit?: number; cursor?: string };

export interface IseeRepository {
  getIseeItem(id: string): Promise<StoredIsee | null>;
  createIsee(input: NewIsee, now: string): Promise<StoredIsee>;
  /** null when the ISEE is gone or no longer in `expected` (nothing written). */
  changeIseeState(
    id: string,
    expected: IseeState,
    state: IseeState,
    now: string,
    fields?: Record<string, unknown>,
  ): Promise<StoredIsee | null>;
  /**
   * Deletes the ISEE unless it is gone or was used for a fee meanwhile (the domain's marker, checked in the
   * same conditional write): false, and nothing deleted, then.
   */
  deleteIsee(id: string): Promise<boolean>;
  /**
   * A user's most recent ISEE, newest first, as gsi2 lists them: eventually consistent (an ISEE written a moment
   * ago may be missing, one deleted still there), so only candidates to confirm from the table.
   */
  recentIseesOfUser(userId: string, limit: number): Promise<StoredIsee[]>;
  listIseesOfUser(userId: string, page: PageQuery): Promise<Page<Isee>>;
  listIseesToVerify(page: PageQuery): Promise<Page<Isee>>;
  countIseesToVerify(): Promise<number>;
}

export interface IseeDeps {
  isees: IseeRepository;
  users: Pick<UserRepository, 'getUserItem' | 'findUserIdByFiscalCode' | 'updateUserFields'>;
  ensureCitizen: EnsureCitizen;
  files: Pick<FileStore, 'claimUpload' | 'downloadUrl' | 'deleteFile'>;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  /**
   * The user's subscriptions carry a copy of their newest ISEE (the enrolment table filters, sorts and
   * computes the fee on it): every change of the newest ISEE is copied there. Optional: without it the
   * copies are not kept (test wiring that has no subscriptions).
   */
  subscriptions?: {
    syncUserIsee(
      userId: string,
      isee: { valueCents: number; year: number; state: string; scadenza?: string | null } | null,
      now: string,
    ): Promise<unknown>;
  };
}

/** ISEE ids kept on the user's record, newest first (UserRecord.recentIseeIds). */
const RECENT_ISEES = 5;
/** How many of gsi2's newest are confirmed from the table when none of those ids is left. */
const CANDIDATES = 10;

const lastIseeOf = (isee: StoredIsee | null): LastIsee | null =>
  isee
    ? {
        id: isee.id,
        valueCents: isee.valueCents,
        year: isee.year,
        state: isee.state,
        hasFile: !!isee.hasFile,
        scadenza: isee.scadenza ?? null,
      }
    : null;

export function makeIseeUseCases({ isees, users, ensureCitizen, files, audit, clock, ids, subscriptions }: IseeDeps) {
  const requireUser = async (id: string) =>
    (await users.getUserItem(id)) ?? Promise.reject(new NotFoundError(userMessages.notFound));
  const requireIsee = async (id: string) =>
    (await isees.getIseeItem(id)) ?? Promise.reject(new NotFoundError(iseeMessages.notFound));

  /**
   * The user's record carries their newest ISEE (users list column, delete rule, the subscriptions' copies, the
   * enrolment import's idempotence), how many they have, and the state that follows from it (domain:
   * userStateAfterIsee). The newest is never read back through gsi2 right after a write: a global index is
   * eventually consistent, and would give the ISEE before the one just recorded, or the one just deleted
   * (DynamoDB Developer Guide, "Using Global Secondary Indexes": reads from a GSI are eventually consistent).
   * It is the ISEE just written, or the one the user's record names, read from the table.
   */
  async function writeSummary(
    user: StoredUser,
    newest: StoredIsee | null,
    now: string,
    change: { recorded: string } | { deleted: string } | null,
  ) {
    const lastIsee = lastIseeOf(newest);
    const recent = user.recentIseeIds ?? (user.lastIsee ? [user.lastIsee.id] : []);
    const recentIseeIds = !change
      ? recent
      : 'recorded' in change
        ? [change.recorded, ...recent].slice(0, RECENT_ISEES)
        : recent.filter((id) => id !== change.deleted);
    const countDelta = !change ? 0 : 'recorded' in change ? 1 : -1;
    await users.updateUserFields(
      user.id,
      {
        lastIsee,
        recentIseeIds,
        state: userStateAfterIsee(user.state, newest),
        iseeCount: Math.max(0, (user.iseeCount ?? 0) + countDelta),
      },
      now,
    );
    await subscriptions?.syncUserIsee(
      user.id,
      lastIsee && {
        valueCents: lastIsee.valueCents,
        year: lastIsee.year,
        state: lastIsee.state,
        scadenza: lastIsee.scadenza ?? null,
      },
      now,
    );
  }

  /**
   * The user's newest ISEE from the table: the first that still exists of those the user's record names (newest
   * first), then of gsi2's newest (a record from before these ids, or all of them deleted), each read from the
   * table; `deletedId` is skipped.
   */
  async function newestOf(user: StoredUser, deletedId?: string): Promise<StoredIsee | null> {
    const named = [user.lastIsee?.id, ...(user.recentIseeIds ?? [])].filter(
      (id): id is string => !!id && id !== deletedId,
    );
    for (const id of new Set(named)) {
      const stored = await isees.getIseeItem(id);
      if (stored) return stored;
    }
    for (const candidate of await isees.recentIseesOfUser(user.id, CANDIDATES)) {
      if (candidate.id === deletedId || named.includes(candidate.id)) continue;
      const stored = await isees.getIseeItem(candidate.id);
      if (stored) return stored;
    }
    return null;
  }

  /**
   * Records an ISEE (its document, if any, already stored at iseeDocumentKey(id)) and makes it the user's
   * newest: the previous one is invalidated while it still counts, and the user's summary follows.
   * Every way in (citizen upload, operator upload, and later the enrolment import) goes through here.
   */
  async function recordIsee(input: NewIsee): Promise<Isee> {
    const now = clock.now().toISOString();
    const user = await users.getUserItem(input.userId);
    const previous = user ? await newestOf(user) : null;
    const created = await isees.createIsee(input, now);
    const superseded = supersededState(previous);
    // A previous ISEE decided meanwhile keeps its decision: the conditional write then changes nothing.
    if (previous && superseded) await isees.changeIseeState(previous.id, previous.state, superseded, now);
    if (user) await writeSummary(user, created, now, { recorded: created.id });
    return toIsee(created);
  }

  const userSummary = (user: { firstName?: string; lastName?: string; fiscalCode: string; email?: string | null }) => ({
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    fiscalCode: user.fiscalCode,
    email: user.email ?? null,
  });

  return {
    recordIsee,

    listIseesToVerify: (page: PageQuery) => isees.listIseesToVerify(page),

    countIseesToVerify: async () => ({ count: await isees.countIseesToVerify() }),

    /** A citizen reads only their own ISEE: anyone else's is "not found". The document link lives 5 minutes. */
    async getIsee(id: string, actor: Actor): Promise<Isee> {
      const item = await requireIsee(id);
      if (actor.role === 'CITIZEN') {
        const own = actor.fiscalCode ? await users.findUserIdByFiscalCode(actor.fiscalCode) : null;
        if (own !== item.userId) throw new NotFoundError(iseeMessages.notFound);
      }
      const fileUrl = item.hasFile
        ? await files.downloadUrl(iseeDocumentKey(item.id), item.fileName ?? 'isee', item.contentType)
        : null;
      return { ...toIsee(item), fileUrl };
    },

    listMyIsees: async (page: PageQuery, actor: Actor) => isees.listIseesOfUser(await ensureCitizen(actor), page),

    async listUserIsees(userId: string, page: PageQuery) {
      await requireUser(userId);
      return isees.listIseesOfUser(userId, page);
    },

    /** Citizen upload (part 2 §2.7): the file is checked on its stored bytes before anything is written; it waits for review. */
    async uploadMyIsee(input: CitizenIseeUpload, actor: Actor): Promise<Isee> {
      const userId = await ensureCitizen(actor);
      const user = await requireUser(userId);
      const id = ids();
      const claimed = await files.claimUpload(actor.sub, input.document.uploadKey, iseeDocumentKey(id));
      const now = clock.now();
      return recordIsee({
        id,
        userId,
        user: userSummary(user),
        value: input.value,
        year: romeYear(now),
        date: now.toISOString(),
        state: 'LOADED',
        file: { name: input.document.name, contentType: claimed.contentType, size: claimed.size },
        uploadedBy: 'CITIZEN',
        uploadedBySub: actor.sub,
      });
    },

    /**
     * Operator upload for a user (part 1 §2): with 'Escludi verifica ISEE' the ISEE is recorded as
     * validated (no document needed); otherwise the document is required and the ISEE waits for review.
     */
    async uploadUserIsee(userId: string, input: OperatorIseeUpload, actor: Actor): Promise<Isee> {
      const user = await requireUser(userId);
      const id = ids();
      const claimed = input.document
        ? await files.claimUpload(actor.sub, input.document.uploadKey, iseeDocumentKey(id))
        : null;
      const created = await recordIsee({
        id,
        userId,
        user: userSummary(user),
        value: input.value,
        year: input.year,
        date: new Date(input.date).toISOString(),
        protocollo: input.protocollo,
        scadenza: input.scadenza,
        state: input.excludeVerification ? 'VALIDATED' : 'LOADED',
        file:
          claimed && input.document
            ? { name: input.document.name, contentType: claimed.contentType, size: claimed.size }
            : null,
        uploadedBy: 'OPERATOR',
        uploadedBySub: actor.sub,
        excludeVerification: input.excludeVerification,
      });
      await audit.record({ actor, entity: 'isee', id, action: 'create', before: null, after: created }, clock.now());
      return created;
    },

    /**
     * The operator's decision (domain: decidedState). The write is conditional on the state read, so of two
     * operators deciding at once only the first succeeds; the other gets 409 and nothing changes.
     */
    async decideIsee(id: string, decision: IseeDecision, actor: Actor): Promise<Isee> {
      const before = await requireIsee(id);
      const next = decidedState(before.state, decision.state);
      const now = clock.now();
      const after = await isees.changeIseeState(id, before.state, next, now.toISOString(), {
        valueCents: toCents(decision.value),
        year: decision.year,
        protocollo: decision.protocollo ?? undefined,
        scadenza: decision.scadenza ?? undefined,
        decidedAt: now.toISOString(),
        decidedBySub: actor.sub,
      });
      if (!after)
        throw (await isees.getIseeItem(id))
          ? new ConflictError(iseeMessages.alreadyDecided)
          : new NotFoundError(iseeMessages.notFound);
      const user = await users.getUserItem(after.userId);
      // The decided ISEE is the newest when the user's record names it (or names none yet).
      if (user)
        await writeSummary(
          user,
          !user.lastIsee || user.lastIsee.id === after.id ? after : await newestOf(user),
          now.toISOString(),
          null,
        );
      const [beforeIsee, afterIsee] = [toIsee(before), toIsee(after)];
      await audit.record({ actor, entity: 'isee', id, action: 'update', before: beforeIsee, after: afterIsee }, now);
      return afterIsee;
    },

    /**
     * Deletes an ISEE and its document, audited; the user's summary falls back to the newest remaining one.
     * An ISEE used to compute a fee stays (domain: assertIseeDeletable, 409), also when the fee is computed
     * between the read and the delete: the write is conditional, and the fresh read says why it failed.
     */
    async deleteIsee(id: string, actor: Actor): Promise<void> {
      const item = await requireIsee(id);
      assertIseeDeletable(item);
      if (!(await isees.deleteIsee(id))) {
        // Gone meanwhile: 404; marked meanwhile: 409. The condition has no other way to fail.
        assertIseeDeletable(await requireIsee(id));
        throw new Error(`ISEE ${id}: delete refused with neither reason`);
      }
      const now = clock.now();
      const user = await users.getUserItem(item.userId);
      if (user) await writeSummary(user, await newestOf(user, item.id), now.toISOString(), { deleted: item.id });
      if (item.hasFile) await files.deleteFile(iseeDocumentKey(item.id));
      await audit.record({ actor, entity: 'isee', id, action: 'delete', before: toIsee(item), after: null }, now);
    },
  };
}
