import { CallState } from '../domain/calls.ts';
import {
  csvFileName,
  decimalComma,
  decodeCsv,
  enrolmentCsv,
  isCsvContentType,
  parseEnrolmentCsv,
  planImport,
  type ImportAction,
  type ImportSubscription,
} from '../domain/enrolment-csv.ts';
import type { CsvFile, EnrolmentListQuery, EnrolmentPage, EnrolmentRow, EnrolUserInput, ImportEnrolmentsInput, ImportPreview, RankEnrolmentInput, UpdateEnrolmentInput } from '../domain/enrolment.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { EXEMPT_ISEE_CENTS, monthlyFee, type FeeBand } from '../domain/fee.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import { nextSubscriptionState, parseSubscriptionId, subscriptionId } from '../domain/subscriptions.ts';
import type { AuditLog, Clock, FileStore } from '../adapters/ports.ts';
import { deleteFiles } from '../calls/files.ts';
import type { CallRecord } from '../calls/repository.ts';
import type { NewIsee } from '../isee/repository.ts';
import type { StoredUser } from '../users/repository.ts';
import type { EnrolmentFilters, EnrolmentIsee, EnrolmentRecordPage, SubscriptionRecord } from './repository.ts';

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
  bands: { getBand(id: string): Promise<FeeBand | null> };
  users: { getUserItem(id: string): Promise<StoredUser | null>; getUsersByFiscalCodes(codes: string[]): Promise<Map<string, StoredUser>> };
  /** The ISEE use case's recordIsee: the one way to record an ISEE (it keeps the user's subscriptions in step). */
  isees: { recordIsee(input: NewIsee): Promise<unknown> };
  files: Pick<FileStore, 'deleteFile'>;
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
}

/** Year and month (1–12) of an instant in Europe/Rome: the month a fee is for. */
export function romeMonth(at: Date): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', year: 'numeric', month: 'numeric' }).formatToParts(at);
  return { year: Number(parts.find((p) => p.type === 'year')!.value), month: Number(parts.find((p) => p.type === 'month')!.value) };
}
const romeDate = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** A new version stamp, strictly after the previous one. */
const laterThan = (previous: string, now: Date) =>
  now.toISOString() > previous ? now.toISOString() : new Date(new Date(previous).getTime() + 1).toISOString();

/** The month's fee of a subscription (design §4), from its call's bands and the user's latest validated ISEE. */
export function subscriptionFee(record: Pick<SubscriptionRecord, 'weeklyHour' | 'isee'>, bands: readonly FeeBand[], at: Date) {
  if (record.weeklyHour === null) return null;
  const { year, month } = romeMonth(at);
  const validated = record.isee?.state === 'VALIDATED' ? record.isee.valueCents : null;
  return monthlyFee({ iseeCents: validated, bands, weeklyHours: record.weeklyHour, year, month });
}

export function toEnrolmentRow(record: SubscriptionRecord, call: Pick<CallRecord, 'year'>, bands: readonly FeeBand[], at: Date): EnrolmentRow {
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

const userIsee = (user: Pick<StoredUser, 'lastIsee'>): EnrolmentIsee | null =>
  user.lastIsee ? { valueCents: user.lastIsee.valueCents, year: user.lastIsee.year, state: user.lastIsee.state } : null;

/** Runs tasks a few at a time (the import's writes). */
async function inPool<T>(items: readonly T[], size: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

export function makeEnrolmentUseCases({ subscriptions, calls, bands, users, isees, files, audit, clock, ids }: EnrolmentDeps) {
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const requireWritableCall = async (id: string) => {
    const call = await requireCall(id);
    if (call.state === CallState.ARCHIVED) throw new ValidationError(messages.enrolment.archivedCall);
    return call;
  };
  const bandsOf = async (call: CallRecord): Promise<FeeBand[]> =>
    (await Promise.all(call.bandsId.map((id) => bands.getBand(id)))).filter((band): band is FeeBand => band !== null);

  async function requireSubscription(id: string) {
    const parsed = parseSubscriptionId(id);
    const record = parsed ? await subscriptions.getSubscription(parsed.callId, parsed.userId) : null;
    if (!record) throw new NotFoundError(messages.subscription.notFound);
    return record;
  }

  /** The stored version must be the one the operator saw (when the web sends it): otherwise 409. */
  const assertVersion = (record: SubscriptionRecord, dataUpdate: string | undefined) => {
    if (dataUpdate !== undefined && dataUpdate !== record.dataUpdate) throw new ConflictError(messages.enrolment.changed);
  };

  /** A conditional write that failed: gone meanwhile (404), or changed by someone else (409). */
  async function failedWrite(record: SubscriptionRecord): Promise<never> {
    throw (await subscriptions.getSubscription(record.announcementId, record.userId))
      ? new ConflictError(messages.enrolment.changed)
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
      const call = await requireCall(callId);
      const [page, callBands] = await Promise.all([
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
        bandsOf(call),
      ]);
      const now = clock.now();
      return { items: page.items.map((record) => toEnrolmentRow(record, call, callBands, now)), nextCursor: page.nextCursor, total: page.total };
    },

    /** The operator enrols a user (the 'Iscrivi utente' modal): a request in state ADDED, no files. */
    async enrolUser(callId: string, input: EnrolUserInput, actor: Actor): Promise<EnrolmentRow> {
      const call = await requireWritableCall(callId);
      const user = await users.getUserItem(input.userId);
      if (!user) throw new NotFoundError(messages.enrolment.userNotFound);
      if (await subscriptions.getSubscription(call.id, user.id)) throw new ValidationError(messages.subscription.alreadySubscribed);
      const now = clock.now();
      const record: SubscriptionRecord = {
        id: subscriptionId(call.id, user.id),
        state: 'ADDED',
        announcementId: call.id,
        announcement: { id: call.id, name: call.name, year: call.year, service: { id: call.serviceId, name: call.serviceName } },
        rankingScore: null,
        weeklyHour: null,
        cost: null,
        dataInsert: now.toISOString(),
        dataUpdate: now.toISOString(),
        userId: user.id,
        fiscalCode: user.fiscalCode,
        firstName: user.firstName,
        lastName: user.lastName,
        files: [],
        isee: userIsee(user),
      };
      if (!(await subscriptions.putSubscription(record, null))) throw new ValidationError(messages.subscription.alreadySubscribed);
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
      if (before.state !== 'VALIDATED') throw new ConflictError(messages.enrolment.onlyValidatedDelete);
      if (!(await subscriptions.deleteSubscription(before))) await failedWrite(before);
      await deleteFiles(files as FileStore, before.files);
      await audit.record({ actor, entity: 'subscription', id: before.id, action: 'delete', before, after: null }, clock.now());
    },

    /** 'Reset ore': the hours of every approved subscription of the call go back to none. */
    async resetHours(callId: string, actor: Actor): Promise<{ reset: number }> {
      const call = await requireWritableCall(callId);
      const now = clock.now();
      const reset: { id: string; weeklyHour: number | null }[] = [];
      const targets = (await subscriptions.listAllSubscriptionsOfCall(call.id)).filter((s) => s.state === 'VALIDATED' && s.weeklyHour !== null);
      await inPool(targets, 8, async (first) => {
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

    /**
     * The call's subscriptions as the CSV of design §4, by ranking (unscored last). The ISEE columns hold
     * the latest validated ISEE, so the file imports back as it is (nothing to change).
     */
    async exportEnrolments(callId: string): Promise<CsvFile> {
      const call = await requireCall(callId);
      const all = await subscriptions.listAllSubscriptionsOfCall(call.id);
      all.sort(
        (a, b) =>
          (a.rankingScore === null ? 1 : 0) - (b.rankingScore === null ? 1 : 0) ||
          (a.rankingScore ?? 0) - (b.rankingScore ?? 0) ||
          a.lastName.localeCompare(b.lastName, 'it') ||
          a.firstName.localeCompare(b.firstName, 'it'),
      );
      const rows = all.map((s) => {
        const validated = s.isee?.state === 'VALIDATED' ? s.isee : null;
        return [s.fiscalCode, s.lastName, s.firstName, s.rankingScore, decimalComma(s.weeklyHour), validated ? decimalComma(validated.valueCents / 100) : '', validated ? validated.year : ''];
      });
      return { fileName: csvFileName(call.name), content: enrolmentCsv(rows) };
    },

    /** The import template: the header line only (the import accepts it as it is: no rows, nothing to do). */
    enrolmentTemplate: async (): Promise<CsvFile> => ({ fileName: `Template_${romeDate(clock.now())}.csv`, content: enrolmentCsv([]) }),

    /**
     * CSV import (design §4): `apply: false` previews, writing nothing; `apply: true` performs the same plan
     * (rejected rows skipped) and returns it. Applying the same file again plans nothing.
     */
    async importEnrolments(callId: string, input: ImportEnrolmentsInput, actor: Actor): Promise<ImportPreview> {
      const call = await requireWritableCall(callId);
      const bytes = Buffer.from(input.fileContentBase64.trim(), 'base64');
      if (!input.fileContentBase64.trim() || bytes.length === 0) throw new ValidationError(messages.enrolment.noFile, { file: messages.enrolment.noFile });
      if (!isCsvContentType(input.contentType)) throw new ValidationError(messages.enrolment.unsupportedFile, { file: messages.enrolment.unsupportedFile });
      const now = clock.now();
      const parsed = parseEnrolmentCsv(decodeCsv(bytes), now);
      const [found, existing] = await Promise.all([
        users.getUsersByFiscalCodes(parsed.rows.map((row) => row.fiscalCode).concat([...parsed.named])),
        subscriptions.listAllSubscriptionsOfCall(call.id),
      ]);
      const current: ImportSubscription[] = existing.map((s) => ({
        ...s,
        iseeValueCents: s.isee?.state === 'VALIDATED' ? s.isee.valueCents : null,
        iseeYear: s.isee?.state === 'VALIDATED' ? s.isee.year : null,
      }));
      const { preview, actions } = planImport(parsed, found, current, input);
      if (!input.apply) return preview;

      const byUser = new Map(existing.map((s) => [s.userId, s]));
      const userById = new Map([...found.values()].map((u) => [u.id, u]));
      const applied: { action: ImportAction; before: SubscriptionRecord | null; after: SubscriptionRecord | null }[] = [];
      // First the new ISEE (through recordIsee, which also updates the user's existing subscriptions).
      await inPool(actions.filter((a) => a.isee), 4, async (action) => {
        const user = userById.get(action.userId)!;
        const id = ids();
        await isees.recordIsee({
          id,
          userId: user.id,
          user: { firstName: user.firstName, lastName: user.lastName, fiscalCode: user.fiscalCode, email: user.email ?? null },
          value: action.isee!.valueCents / 100,
          year: action.isee!.year,
          date: now.toISOString(),
          state: 'VALIDATED',
          file: null,
          uploadedBy: 'OPERATOR',
          uploadedBySub: actor.sub,
          excludeVerification: true,
        });
        await audit.record({ actor, entity: 'isee', id, action: 'create', before: null, after: { userId: user.id, valueCents: action.isee!.valueCents, year: action.isee!.year, state: 'VALIDATED', source: 'import' } }, now);
      });
      await inPool(actions, 8, async (action) => {
        const user = userById.get(action.userId);
        if (action.kind === 'add' && user) {
          const fresh = action.isee ? await users.getUserItem(user.id) : user;
          const record: SubscriptionRecord = {
            id: subscriptionId(call.id, user.id),
            state: action.state!,
            announcementId: call.id,
            announcement: { id: call.id, name: call.name, year: call.year, service: { id: call.serviceId, name: call.serviceName } },
            rankingScore: action.rankingScore ?? null,
            weeklyHour: action.weeklyHour ?? null,
            cost: null,
            dataInsert: now.toISOString(),
            dataUpdate: now.toISOString(),
            userId: user.id,
            fiscalCode: user.fiscalCode,
            firstName: user.firstName,
            lastName: user.lastName,
            files: [],
            isee: userIsee(fresh ?? user),
          };
          // Subscribed meanwhile (another import, the citizen): left as it is.
          if (await subscriptions.putSubscription(record, null)) applied.push({ action, before: null, after: record });
          return;
        }
        // The ISEE step may have updated the subscription: changes apply to what is stored now.
        let before = action.isee ? await subscriptions.getSubscription(call.id, action.userId) : (byUser.get(action.userId) ?? null);
        for (let attempt = 0; before && attempt < 3; attempt++) {
          if (action.kind === 'remove') {
            if (await subscriptions.deleteSubscription(before)) {
              await deleteFiles(files as FileStore, before.files);
              applied.push({ action, before, after: null });
              return;
            }
          } else {
            const after: SubscriptionRecord = {
              ...before,
              rankingScore: action.rankingScore !== undefined ? action.rankingScore : before.rankingScore,
              weeklyHour: action.weeklyHour !== undefined ? action.weeklyHour : before.weeklyHour,
              dataUpdate: laterThan(before.dataUpdate, now),
            };
            if (after.rankingScore === before.rankingScore && after.weeklyHour === before.weeklyHour) return;
            if (await subscriptions.putSubscription(after, before)) {
              applied.push({ action, before, after });
              return;
            }
          }
          before = await subscriptions.getSubscription(call.id, action.userId);
        }
      });
      // Audited in chunks (an item holds at most 400 KB): who, when, each subscription before and after.
      for (let i = 0; i < applied.length; i += 100) {
        const chunk = applied.slice(i, i + 100);
        await audit.record(
          { actor, entity: 'subscription-import', id: call.id, action: 'update', before: chunk.map((c) => c.before), after: chunk.map((c) => c.after) },
          now,
        );
      }
      // The import read the whole call: the counters are rewritten from what it holds now.
      await subscriptions.recountEnrolments(call.id, await subscriptions.listAllSubscriptionsOfCall(call.id));
      return { ...preview, applied: true };
    },
  };
}

export type EnrolmentUseCases = ReturnType<typeof makeEnrolmentUseCases>;
