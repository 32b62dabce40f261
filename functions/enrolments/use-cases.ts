import { mapAtMost } from '../domain/at-most.ts';
import { CallState } from '../domain/calls.ts';
import { enrolmentMessages, subscriptionFee, type EnrolmentListQuery, type EnrolmentPage, type EnrolmentRow, type EnrolUserInput, type RankEnrolmentInput, type UpdateEnrolmentInput } from '../domain/enrolment.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { EXEMPT_ISEE_CENTS, type FeeBand } from '../domain/fee.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import { nextSubscriptionState, parseSubscriptionId } from '../domain/subscriptions.ts';
import type { AuditLog, Clock, FileStore } from '../adapters/ports.ts';
import { deleteFiles } from '../calls/files.ts';
import type { CallRecord } from '../calls/repository.ts';
import type { StoredUser } from '../users/repository.ts';
import type { EnrolmentFilters, EnrolmentIsee, EnrolmentListRecord, EnrolmentRecordPage, SubscriptionRecord } from '../subscriptions/repository.ts';
import { newSubscription } from '../subscriptions/new-subscription.ts';

export interface EnrolmentRepository {
  getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null>;
  /** Conditional on `previous` (its dataUpdate and state), or on absence when null; false when it failed. */
  putSubscription(record: SubscriptionRecord, previous: SubscriptionRecord | null, counters?: boolean): Promise<boolean>;
  deleteSubscription(previous: SubscriptionRecord, counters?: boolean): Promise<boolean>;
  listEnrolments(callId: string, filters: EnrolmentFilters): Promise<EnrolmentRecordPage>;
  listAllSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]>;
  recountEnrolments(callId: string, records: SubscriptionRecord[]): Promise<void>;
}

export interface EnrolmentDeps {
  subscriptions: EnrolmentRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  /** A call's bands, in one read (BatchGetItem). */
  bands: { getBands(ids: readonly string[]): Promise<FeeBand[]> };
  users: { getUserItem(id: string): Promise<StoredUser | null> };
  files: Pick<FileStore, 'deleteFile'>;
  /** The flow exporting a call to MyPay now, if any: the hours stay as they are until it ends. */
  exports: { runningExportOf(callId: string): Promise<string | null> };
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
}


/** A new version stamp, strictly after the previous one. */
export const laterThan = (previous: string, now: Date) =>
  now.toISOString() > previous ? now.toISOString() : new Date(new Date(previous).getTime() + 1).toISOString();

export function toEnrolmentRow(record: EnrolmentListRecord, call: Pick<CallRecord, 'year'>, bands: readonly FeeBand[], at: Date): EnrolmentRow {
  const isee = record.isee ?? null;
  const fee = subscriptionFee(record, bands, at);
  return {
    id: record.id,
    userId: record.userId,
    state: record.state,
    rankingScore: record.rankingScore,
    weeklyHour: record.weeklyHour,
    fiscalCode: record.fiscalCode,
    firstName: record.firstName,
    lastName: record.lastName,
    isee: isee ? { valueCents: isee.valueCents, year: isee.year, state: isee.state } : null,
    fee: fee ? { kind: fee.kind, amountCents: fee.amountCents } : null,
    iseeYearMismatch: (record.state === 'VALIDATED' || record.state === 'ADDED') && (!isee || isee.year !== call.year),
    singlePaymentAllowed: record.state === 'VALIDATED' && !!isee && isee.valueCents > EXEMPT_ISEE_CENTS,
    dataUpdate: record.dataUpdate,
  };
}

export const userIsee = (user: Pick<StoredUser, 'lastIsee'>): EnrolmentIsee | null =>
  user.lastIsee ? { valueCents: user.lastIsee.valueCents, year: user.lastIsee.year, state: user.lastIsee.state, scadenza: user.lastIsee.scadenza ?? null } : null;


export function makeEnrolmentUseCases({ subscriptions, calls, bands, users, files, exports, audit, clock }: EnrolmentDeps) {
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const requireWritableCall = async (id: string) => {
    const call = await requireCall(id);
    if (call.state === CallState.ARCHIVED) throw new ValidationError(enrolmentMessages.archivedCall);
    return call;
  };
  const bandsOf = (call: CallRecord): Promise<FeeBand[]> => bands.getBands(call.bandsId);

  async function requireSubscription(id: string) {
    const parsed = parseSubscriptionId(id);
    const record = parsed ? await subscriptions.getSubscription(parsed.callId, parsed.userId) : null;
    if (!record) throw new NotFoundError(messages.subscription.notFound);
    return record;
  }

  /** The stored version must be the one the operator saw (when the web sends it): otherwise 409. */
  const assertVersion = (record: SubscriptionRecord, dataUpdate: string | undefined) => {
    if (dataUpdate !== undefined && dataUpdate !== record.dataUpdate) throw new ConflictError(enrolmentMessages.changed);
  };

  /** A conditional write that failed: gone meanwhile (404), or changed by someone else (409). */
  async function failedWrite(record: SubscriptionRecord): Promise<never> {
    throw (await subscriptions.getSubscription(record.announcementId, record.userId))
      ? new ConflictError(enrolmentMessages.changed)
      : new NotFoundError(messages.subscription.notFound);
  }

  /** Writes an operator's change of one subscription (conditional on what was read), audited; returns its row. */
  async function change(before: SubscriptionRecord, fields: Partial<SubscriptionRecord>, actor: Actor): Promise<EnrolmentRow> {
    const call = await requireWritableCall(before.announcementId);
    const now = clock.now();
    const after: SubscriptionRecord = { ...before, ...fields, dataUpdate: laterThan(before.dataUpdate, now) };
    if (!(await subscriptions.putSubscription(after, before))) await failedWrite(before);
    await audit.record({ actor, entity: 'subscription', id: after.id, action: 'update', before, after }, now);
    return toEnrolmentRow(after, call, await bandsOf(call), now);
  }

  return {
    async listEnrolments(callId: string, query: EnrolmentListQuery): Promise<EnrolmentPage> {
      // The page is read while the call is: an unknown call's empty page is dropped for the 404.
      const callRead = requireCall(callId);
      const [call, page, callBands] = await Promise.all([
        callRead,
        subscriptions.listEnrolments(callId, {
          fiscalCode: query.fiscalCode,
          firstName: query.firstName,
          lastName: query.lastName,
          iseeAbove: query.iseeAbove,
          confirmed: query.confirmed,
          sort: query.sort,
          limit: query.limit,
          cursor: query.cursor,
        }),
        callRead.then(bandsOf, () => []),
      ]);
      const now = clock.now();
      return { items: page.items.map((record) => toEnrolmentRow(record, call, callBands, now)), nextCursor: page.nextCursor, total: page.total };
    },

    /** The operator enrols a user (the 'Iscrivi utente' modal): a request in state ADDED, no files. */
    async enrolUser(callId: string, input: EnrolUserInput, actor: Actor): Promise<EnrolmentRow> {
      const call = await requireWritableCall(callId);
      const user = await users.getUserItem(input.userId);
      if (!user) throw new NotFoundError(enrolmentMessages.userNotFound);
      if (await subscriptions.getSubscription(call.id, user.id)) throw new ValidationError(enrolmentMessages.alreadyEnrolled);
      const now = clock.now();
      const record = newSubscription({
        call,
        person: { userId: user.id, fiscalCode: user.fiscalCode, firstName: user.firstName, lastName: user.lastName },
        now,
        isee: userIsee(user),
      });
      if (!(await subscriptions.putSubscription(record, null))) throw new ValidationError(enrolmentMessages.alreadyEnrolled);
      await audit.record({ actor, entity: 'subscription', id: record.id, action: 'create', before: null, after: record }, now);
      return toEnrolmentRow(record, call, await bandsOf(call), now);
    },

    /**
     * An operator's update code (part 2 §4; domain: nextSubscriptionState, 409 for a move not allowed).
     * Code 2 needs the hours when it approves a request or edits an approved one; reactivating a
     * suspended one keeps its hours unless new ones are given.
     */
    async updateEnrolment(id: string, input: UpdateEnrolmentInput, actor: Actor): Promise<EnrolmentRow> {
      const before = await requireSubscription(id);
      assertVersion(before, input.dataUpdate);
      const state = nextSubscriptionState(before.state, input.state);
      let weeklyHour = before.weeklyHour;
      if (input.state === 2) {
        if (before.state !== 'SUSPENDED' && input.weeklyHour === undefined) {
          throw new ValidationError(messages.required, { weeklyHour: messages.required });
        }
        weeklyHour = input.weeklyHour ?? before.weeklyHour;
      }
      return change(before, { state, weeklyHour }, actor);
    },

    async rankEnrolment(id: string, input: RankEnrolmentInput, actor: Actor): Promise<EnrolmentRow> {
      const before = await requireSubscription(id);
      assertVersion(before, input.dataUpdate);
      return change(before, { rankingScore: input.rankingScore }, actor);
    },

    /** Deletes an approved subscription (part 2 §4: 'delete' is a VALIDATED action) and its files. */
    async unenrol(id: string, actor: Actor): Promise<void> {
      const before = await requireSubscription(id);
      await requireWritableCall(before.announcementId);
      if (before.state !== 'VALIDATED') throw new ConflictError(enrolmentMessages.onlyValidatedDelete);
      if (!(await subscriptions.deleteSubscription(before))) await failedWrite(before);
      await deleteFiles(files as FileStore, before.files);
      await audit.record({ actor, entity: 'subscription', id: before.id, action: 'delete', before, after: null }, clock.now());
    },

    /** 'Reset ore': the hours of every approved subscription of the call go back to none. */
    async resetHours(callId: string, actor: Actor): Promise<{ reset: number }> {
      const call = await requireWritableCall(callId);
      if (await exports.runningExportOf(call.id)) throw new ConflictError(enrolmentMessages.exportRunning);
      const now = clock.now();
      const reset: { id: string; weeklyHour: number | null }[] = [];
      const targets = (await subscriptions.listAllSubscriptionsOfCall(call.id)).filter((s) => s.state === 'VALIDATED' && s.weeklyHour !== null);
      await mapAtMost(targets, 8, async (first) => {
        // One that changed meanwhile is read again: still approved with hours, it is reset too.
        let current: SubscriptionRecord | null = first;
        for (let attempt = 0; current && current.state === 'VALIDATED' && current.weeklyHour !== null && attempt < 3; attempt++) {
          if (await subscriptions.putSubscription({ ...current, weeklyHour: null, dataUpdate: laterThan(current.dataUpdate, now) }, current, false)) {
            reset.push({ id: current.id, weeklyHour: current.weeklyHour });
            break;
          }
          current = await subscriptions.getSubscription(current.announcementId, current.userId);
        }
      });
      if (reset.length) {
        await audit.record(
          { actor, entity: 'call', id: call.id, action: 'update', before: { weeklyHours: reset }, after: { weeklyHours: reset.map(({ id }) => ({ id, weeklyHour: null })) } },
          now,
        );
      }
      return { reset: reset.length };
    },

  };
}

export type EnrolmentUseCases = ReturnType<typeof makeEnrolmentUseCases>;
