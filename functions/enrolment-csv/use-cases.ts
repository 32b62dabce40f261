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
import { enrolmentMessages, type CsvFile, type ImportEnrolmentsInput, type ImportPreview } from '../domain/enrolment.ts';
import { CallState } from '../domain/calls.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog, Clock, FileStore } from '../adapters/ports.ts';
import { deleteFiles } from '../calls/files.ts';
import type { CallRecord } from '../calls/repository.ts';
import type { NewIsee } from '../isee/repository.ts';
import type { StoredUser } from '../users/repository.ts';
import type { SubscriptionRecord } from '../subscriptions/repository.ts';
import { inPool, laterThan, userIsee, type EnrolmentRepository } from '../enrolments/use-cases.ts';
import { newSubscription } from '../subscriptions/new-subscription.ts';

export interface EnrolmentCsvDeps {
  subscriptions: Pick<EnrolmentRepository, 'getSubscription' | 'putSubscription' | 'deleteSubscription' | 'listAllSubscriptionsOfCall' | 'recountEnrolments'>;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  users: { getUserItem(id: string): Promise<StoredUser | null>; getUsersByFiscalCodes(codes: string[]): Promise<Map<string, StoredUser>> };
  /** The ISEE use case's recordIsee: the one way to record an ISEE (it keeps the user's subscriptions in step). */
  isees: { recordIsee(input: NewIsee): Promise<unknown> };
  files: Pick<FileStore, 'deleteFile'>;
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
}

const romeDate = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** The enrolment CSV (design §4): export, template and import with its preview. */
export function makeEnrolmentCsvUseCases({ subscriptions, calls, users, isees, files, audit, clock, ids }: EnrolmentCsvDeps) {
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const requireWritableCall = async (id: string) => {
    const call = await requireCall(id);
    if (call.state === CallState.ARCHIVED) throw new ValidationError(enrolmentMessages.archivedCall);
    return call;
  };

  return {
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
      if (!input.fileContentBase64.trim() || bytes.length === 0) throw new ValidationError(enrolmentMessages.noFile, { file: enrolmentMessages.noFile });
      if (!isCsvContentType(input.contentType)) throw new ValidationError(enrolmentMessages.unsupportedFile, { file: enrolmentMessages.unsupportedFile });
      const now = clock.now();
      const parsed = parseEnrolmentCsv(decodeCsv(bytes), now);
      // A citizen already subscribed is known from the subscription (its fiscal code, names and ISEE copy):
      // only the other fiscal codes are looked up among the users (BatchGet), which keeps a re-import cheap.
      const existing = await subscriptions.listAllSubscriptionsOfCall(call.id);
      const subscribed = new Map(existing.map((s) => [s.fiscalCode.toUpperCase(), s]));
      const found = await users.getUsersByFiscalCodes([...parsed.named].filter((code) => !subscribed.has(code)));
      for (const [code, s] of subscribed) {
        found.set(code, { id: s.userId, fiscalCode: s.fiscalCode, firstName: s.firstName, lastName: s.lastName, lastIsee: s.isee ? { id: '', hasFile: false, ...s.isee } : null } as StoredUser);
      }
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
        const user = (await users.getUserItem(action.userId)) ?? userById.get(action.userId)!;
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
          const record = newSubscription({
            call,
            person: { userId: user.id, fiscalCode: user.fiscalCode, firstName: user.firstName, lastName: user.lastName },
            now,
            state: action.state!,
            rankingScore: action.rankingScore ?? null,
            weeklyHour: action.weeklyHour ?? null,
            isee: userIsee(fresh ?? user),
          });
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
