import {
  IMPORT_JOB,
  IMPORT_PREVIEW_TTL_MS,
  importStatusOf,
  sliceActions,
  subscriptionsFingerprint,
  type PlannedImportAction,
} from '../domain/enrolment-import.ts';
import type { BackgroundJobs } from '../domain/jobs.ts';
import {
  csvFileName,
  decodeCsv,
  enrolmentCsv,
  isCsvContentType,
  parseEnrolmentCsv,
  planImport,
  type ImportSubscription,
} from '../domain/enrolment-csv.ts';
import {
  enrolmentMessages,
  type ApplyImportInput,
  type CsvFile,
  type ImportEnrolmentsInput,
  type ImportPreview,
  type ImportStatus,
} from '../domain/enrolment.ts';
import { CallState } from '../domain/calls.ts';
import { validatedIsee } from '../domain/latest-isee.ts';
import { romeDay } from '../domain/period.ts';
import { decimalComma, toEuros } from '../domain/money.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { EnrolmentRepository } from '../adapters/ports/enrolments.ts';
import type { RunningExports } from '../adapters/ports/export.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { StoredUser } from '../domain/user-record.ts';
import type { ImportPlanRepository } from './import-apply.ts';

export interface EnrolmentCsvDeps {
  subscriptions: Pick<EnrolmentRepository, 'listAllSubscriptionsOfCall'>;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  users: { getUsersByFiscalCodes(codes: string[]): Promise<Map<string, StoredUser>> };
  /** Where a preview is stored for 'Applica'. */
  plans: Pick<ImportPlanRepository, 'savePlan' | 'getPlan'>;
  /** The background jobs (functions/jobs): the import is applied as the kind 'enrolment-import', keyed by call. */
  jobs: BackgroundJobs;
  /** The flow exporting a call to MyPay now, if any: no import is applied meanwhile. */
  exports: RunningExports;
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
}

/** The enrolment CSV (design §4): export, template and import with its preview. */
export function makeEnrolmentCsvUseCases({
  subscriptions,
  calls,
  users,
  plans,
  jobs,
  exports,
  audit,
  clock,
  ids,
}: EnrolmentCsvDeps) {
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
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
        const validated = validatedIsee(s.isee);
        return [
          s.fiscalCode,
          s.lastName,
          s.firstName,
          s.rankingScore,
          decimalComma(s.weeklyHour),
          validated ? decimalComma(toEuros(validated.valueCents)) : '',
          validated ? validated.year : '',
        ];
      });
      return { fileName: csvFileName(call.name), content: enrolmentCsv(rows) };
    },

    /** The import template: the header line only (the import accepts it as it is: no rows, nothing to do). */
    enrolmentTemplate: async (): Promise<CsvFile> => ({
      fileName: `Template_${romeDay(clock.now())}.csv`,
      content: enrolmentCsv([]),
    }),

    /**
     * CSV import (design §4): the preview, writing no subscription, ISEE or user; the plan behind it is
     * stored (previewId) for 'Applica'. Previewing the same file again once applied plans nothing.
     */
    async importEnrolments(callId: string, input: ImportEnrolmentsInput, actor: Actor): Promise<ImportPreview> {
      const call = await requireWritableCall(callId);
      const bytes = Buffer.from(input.fileContentBase64.trim(), 'base64');
      if (!input.fileContentBase64.trim() || bytes.length === 0)
        throw new ValidationError(enrolmentMessages.noFile, { file: enrolmentMessages.noFile });
      if (!isCsvContentType(input.contentType))
        throw new ValidationError(enrolmentMessages.unsupportedFile, { file: enrolmentMessages.unsupportedFile });
      const now = clock.now();
      const parsed = parseEnrolmentCsv(decodeCsv(bytes), now);
      // A citizen already subscribed is known from the subscription (its fiscal code, names and ISEE copy):
      // only the other fiscal codes are looked up among the users (BatchGet), which keeps a re-import cheap.
      const existing = await subscriptions.listAllSubscriptionsOfCall(call.id);
      const subscribed = new Map(existing.map((s) => [s.fiscalCode.toUpperCase(), s]));
      const found = await users.getUsersByFiscalCodes([...parsed.named].filter((code) => !subscribed.has(code)));
      for (const [code, s] of subscribed) {
        found.set(code, {
          id: s.userId,
          fiscalCode: s.fiscalCode,
          firstName: s.firstName,
          lastName: s.lastName,
          lastIsee: s.isee ? { id: '', hasFile: false, ...s.isee } : null,
        } as StoredUser);
      }
      const current: ImportSubscription[] = existing.map((s) => {
        const validated = validatedIsee(s.isee);
        return { ...s, iseeValueCents: validated?.valueCents ?? null, iseeYear: validated?.year ?? null };
      });
      const { preview, actions } = planImport(parsed, found, current, input);
      // The preview is stored as it is planned: 'Applica' applies exactly this, in the background.
      const previewId = ids();
      const planned: PlannedImportAction[] = actions.map((a) => ({
        kind: a.kind,
        userId: a.userId,
        fiscalCode: a.row.fiscalCode,
        firstName: a.row.firstName,
        lastName: a.row.lastName,
        state: a.state,
        rankingScore: a.rankingScore,
        weeklyHour: a.weeklyHour,
        isee: a.isee,
      }));
      const slices = sliceActions(planned);
      await plans.savePlan(
        {
          previewId,
          callId: call.id,
          fingerprint: subscriptionsFingerprint(existing),
          createdAt: now.toISOString(),
          createdBy: actor.sub,
          total: planned.length,
          slices: slices.length,
          summary: {
            add: preview.add.length,
            update: preview.update.length,
            remove: preview.remove.length,
            rejected: preview.rejected.length,
          },
        },
        slices,
      );
      return { ...preview, previewId };
    },

    /**
     * 'Applica' (POST …/import/apply): starts applying the stored preview in the background (the job
     * 'enrolment-import', one per call at a time). Refused with nothing written when the preview is unknown
     * or of another call (404), expired, or the call's subscriptions changed since (409: preview again),
     * while an export of the call to MyPay runs, or while an import of the call runs (409).
     */
    async startImport(callId: string, input: ApplyImportInput, actor: Actor): Promise<ImportStatus> {
      const call = await requireWritableCall(callId);
      const plan = await plans.getPlan(input.previewId);
      if (!plan || plan.callId !== call.id) throw new NotFoundError(enrolmentMessages.previewNotFound);
      if (clock.now().getTime() - Date.parse(plan.createdAt) > IMPORT_PREVIEW_TTL_MS)
        throw new ConflictError(enrolmentMessages.previewExpired);
      if (await exports.isRunning(call.id)) throw new ConflictError(enrolmentMessages.importExportRunning);
      const running = await jobs.status(IMPORT_JOB, call.id);
      if (running.running) throw new ConflictError(enrolmentMessages.importRunning);
      if (subscriptionsFingerprint(await subscriptions.listAllSubscriptionsOfCall(call.id)) !== plan.fingerprint)
        throw new ConflictError(enrolmentMessages.previewStale);
      const job = await jobs.start(
        IMPORT_JOB,
        call.id,
        { callId: call.id, previewId: plan.previewId, summary: plan.summary },
        actor,
      );
      if (!job) throw new ConflictError(enrolmentMessages.importRunning);
      await audit.record({ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }, clock.now());
      return importStatusOf({ job: { ...job, total: plan.total }, running: true });
    },

    /** GET …/import: the latest import of the call (asked on mount, and polled while it runs). */
    async importStatus(callId: string): Promise<ImportStatus> {
      const call = await requireCall(callId);
      return importStatusOf(await jobs.status(IMPORT_JOB, call.id));
    },
  };
}
