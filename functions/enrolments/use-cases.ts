import { mapAtMost } from '../domain/at-most.ts';
import { CallState } from '../domain/calls.ts';
import {
  enrolmentMessages,
  subscriptionFee,
  type EnrolmentListQuery,
  type EnrolmentPage,
  type EnrolmentRow,
  type EnrolUserInput,
  type RankEnrolmentInput,
  type ResetHoursStatus,
  type UpdateEnrolmentInput,
} from '../domain/enrolment.ts';
import { RESET_HOURS_JOB, resultJobStatus, type JobRecord, type BackgroundJobs } from '../domain/jobs.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { singlePaymentAllowed, type FeeBand } from '../domain/fee.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import { nextSubscriptionState, parseSubscriptionId } from '../domain/subscriptions.ts';
import { laterThan } from '../domain/version-stamp.ts';
import { auditChunks, type AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { EnrolmentRepository } from '../adapters/ports/enrolments.ts';
import type { RunningExports } from '../adapters/ports/export.ts';
import type { FileStore } from '../adapters/ports/files.ts';
import { deleteFiles } from '../adapters/kept-files.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { StoredUser } from '../domain/user-record.ts';
import { userIsee, type EnrolmentListRecord, type SubscriptionRecord } from '../domain/subscription-record.ts';
import { newSubscription } from '../domain/new-subscription.ts';

export interface EnrolmentDeps {
  subscriptions: EnrolmentRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  /** A call's bands, in one read (BatchGetItem). */
  bands: { getBands(ids: readonly string[]): Promise<FeeBand[]> };
  users: { getUserItem(id: string): Promise<StoredUser | null> };
  files: Pick<FileStore, 'deleteFile'>;
  /** The flow exporting a call to MyPay now, if any: the hours stay as they are until it ends. */
  exports: RunningExports;
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
  /** The background jobs ('Reset ore'): the API starts them; the job function's own wiring has none. */
  jobs?: BackgroundJobs;
}

export function toEnrolmentRow(
  record: EnrolmentListRecord,
  call: Pick<CallRecord, 'year'>,
  bands: readonly FeeBand[],
  at: Date,
): EnrolmentRow {
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
    singlePaymentAllowed: singlePaymentAllowed(record.state, isee),
    dataUpdate: record.dataUpdate,
  };
}

export function makeEnrolmentUseCases({
  subscriptions,
  calls,
  bands,
  users,
  files,
  exports,
  audit,
  clock,
  jobs,
}: EnrolmentDeps) {
  const requireJobs = () => {
    if (!jobs) throw new Error('Background jobs are not wired here');
    return jobs;
  };
  const resetStatusOf = (status: { job: JobRecord | null; running: boolean }): ResetHoursStatus =>
    resultJobStatus(status, enrolmentMessages.resetFailed, (stored) => ({ reset: Number(stored.reset ?? 0) }));
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
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
    if (dataUpdate !== undefined && dataUpdate !== record.dataUpdate)
      throw new ConflictError(enrolmentMessages.changed);
  };

  /** A conditional write that failed: gone meanwhile (404), or changed by someone else (409). */
  async function failedWrite(record: SubscriptionRecord): Promise<never> {
    throw (await subscriptions.getSubscription(record.announcementId, record.userId))
      ? new ConflictError(enrolmentMessages.changed)
      : new NotFoundError(messages.subscription.notFound);
  }

  /** Writes an operator's change of one subscription (conditional on what was read), audited; returns its row. */
  async function change(
    before: SubscriptionRecord,
    fields: Partial<SubscriptionRecord>,
    actor: Actor,
  ): Promise<EnrolmentRow> {
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
      return {
        items: page.items.map((record) => toEnrolmentRow(record, call, callBands, now)),
        nextCursor: page.nextCursor,
        total: page.total,
      };
    },

    /** The operator enrols a user (the 'Iscrivi utente' modal): a request in state ADDED, no files. */
    async enrolUser(callId: string, input: EnrolUserInput, actor: Actor): Promise<EnrolmentRow> {
      const call = await requireWritableCall(callId);
      const user = await users.getUserItem(input.userId);
      if (!user) throw new NotFoundError(enrolmentMessages.userNotFound);
      if (await subscriptions.getSubscription(call.id, user.id))
        throw new ValidationError(enrolmentMessages.alreadyEnrolled);
      const now = clock.now();
      const record = newSubscription({
        call,
        person: { userId: user.id, fiscalCode: user.fiscalCode, firstName: user.firstName, lastName: user.lastName },
        now,
        isee: userIsee(user),
      });
      if (!(await subscriptions.putSubscription(record, null)))
        throw new ValidationError(enrolmentMessages.alreadyEnrolled);
      await audit.record(
        { actor, entity: 'subscription', id: record.id, action: 'create', before: null, after: record },
        now,
      );
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
      await audit.record(
        { actor, entity: 'subscription', id: before.id, action: 'delete', before, after: null },
        clock.now(),
      );
    },

    /**
     * 'Reset ore' (POST /api/calls/{id}/enrolments/reset-hours): the hours of every approved subscription of the
     * call go back to none, as a background job (a call of thousands is longer than a request may last); 409 while
     * an export of the call, or another reset, runs. GET the same path: its status, and how many once done.
     */
    async startResetHours(callId: string, actor: Actor): Promise<ResetHoursStatus> {
      const call = await requireWritableCall(callId);
      if (await exports.isRunning(call.id)) throw new ConflictError(enrolmentMessages.exportRunning);
      const job = await requireJobs().start(RESET_HOURS_JOB, call.id, { callId: call.id }, actor);
      if (!job) throw new ConflictError(enrolmentMessages.resetRunning);
      await audit.record({ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }, clock.now());
      return resetStatusOf({ job, running: true });
    },
    async resetHoursStatus(callId: string): Promise<ResetHoursStatus> {
      const call = await requireCall(callId);
      return resetStatusOf(await requireJobs().status(RESET_HOURS_JOB, call.id));
    },

    /**
     * One slice of 'Reset ore' (the job kind 'reset-hours'): of the call's approved subscriptions that still have
     * hours, as many as one audit entry can hold (DynamoDB's 400 KB per item: cut before anything is written) are
     * reset, each conditional on what was read (one changed meanwhile is read again: still approved with hours,
     * it is reset too), then audited with what was reset. A slice run twice finds them reset already; the job
     * ends when none is left (or a slice could reset none: every one of them changing under it).
     */
    async resetHoursSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor) {
      const call = await requireWritableCall(String(input.callId ?? ''));
      if (await exports.isRunning(call.id)) throw new ConflictError(enrolmentMessages.exportRunning);
      const before = cursor ? (JSON.parse(cursor) as { reset: number; total: number }) : null;
      const now = clock.now();
      const targets = (await subscriptions.listAllSubscriptionsOfCall(call.id)).filter(
        (s) => s.state === 'VALIDATED' && s.weeklyHour !== null,
      );
      const total = before?.total ?? targets.length;
      // A change's audit is its id with the hours before and after.
      const [chunk = []] = auditChunks(targets, (s) => [
        { id: s.id, weeklyHour: s.weeklyHour },
        { id: s.id, weeklyHour: null },
      ]);
      const done: { id: string; weeklyHour: number | null }[] = [];
      await mapAtMost(chunk, 8, async (first) => {
        let current: SubscriptionRecord | null = first;
        for (
          let attempt = 0;
          current && current.state === 'VALIDATED' && current.weeklyHour !== null && attempt < 3;
          attempt++
        ) {
          if (
            await subscriptions.putSubscription(
              { ...current, weeklyHour: null, dataUpdate: laterThan(current.dataUpdate, now) },
              current,
              false,
            )
          ) {
            done.push({ id: current.id, weeklyHour: current.weeklyHour });
            break;
          }
          current = await subscriptions.getSubscription(current.announcementId, current.userId);
        }
      });
      if (done.length) {
        await audit.record(
          {
            actor,
            entity: 'call',
            id: call.id,
            action: 'update',
            before: { weeklyHours: done },
            after: { weeklyHours: done.map(({ id }) => ({ id, weeklyHour: null })) },
          },
          now,
        );
      }
      const reset = (before?.reset ?? 0) + done.length;
      const more = done.length > 0 && chunk.length < targets.length;
      return { cursor: more ? JSON.stringify({ reset, total }) : null, done: reset, total, result: { reset } };
    },
  };
}

export type EnrolmentUseCases = ReturnType<typeof makeEnrolmentUseCases>;
