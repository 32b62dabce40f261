import { mapAtMost } from '../domain/at-most.ts';
import { enrolmentMessages } from '../domain/enrolment.ts';
import {
  IMPORT_SLICE_ROWS,
  parseImportCursor,
  type ImportPlan,
  type PlannedImportAction,
} from '../domain/enrolment-import.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Actor } from '../domain/roles.ts';
import { auditChunks, type AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { EnrolmentRepository } from '../adapters/ports/enrolments.ts';
import type { RunningExports } from '../adapters/ports/export.ts';
import type { FileStore } from '../adapters/ports/files.ts';
import { deleteFiles } from '../adapters/kept-files.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { NewIsee } from '../domain/isee-record.ts';
import type { StoredUser } from '../domain/user-record.ts';
import { type SubscriptionRecord, userIsee } from '../domain/subscription-record.ts';
import { laterThan } from '../domain/version-stamp.ts';
import { validatedIsee } from '../domain/latest-isee.ts';
import { newSubscription } from '../domain/new-subscription.ts';
import { toEuros } from '../domain/money.ts';

/** The stored previews (functions/enrolment-csv/plan-repository.ts). */
export interface ImportPlanRepository {
  savePlan(plan: ImportPlan, slices: readonly PlannedImportAction[][]): Promise<void>;
  getPlan(previewId: string): Promise<ImportPlan | null>;
  getPlanSlice(previewId: string, n: number): Promise<PlannedImportAction[] | null>;
}

export interface ImportApplyDeps {
  plans: Pick<ImportPlanRepository, 'getPlan' | 'getPlanSlice'>;
  subscriptions: Pick<
    EnrolmentRepository,
    'getSubscription' | 'putSubscription' | 'deleteSubscription' | 'listAllSubscriptionsOfCall' | 'recountEnrolments'
  >;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> };
  /** The ISEE use case's recordIsee: the one way to record an ISEE (it keeps the user's subscriptions in step). */
  isees: { recordIsee(input: NewIsee): Promise<unknown> };
  files: Pick<FileStore, 'deleteFile'>;
  /** The flow exporting a call to MyPay now, if any: the import waits until it ends. */
  exports: RunningExports;
  audit: AuditLog;
  clock: Clock;
  ids: () => string;
}

/** Conditional writes of one slice in flight at once. */
const WRITES_AT_ONCE = 8;

/**
 * The job kind 'enrolment-import': applies an approved preview, one stored slice per step. Every change is
 * checked against what is stored now, so a slice run twice (a retried Lambda) or the same file imported
 * again changes nothing more: an ISEE already recorded, a subscription already there, already set to the
 * planned values or already removed is left alone. Each slice audits what it changed (who, when, before,
 * after); the last one recounts the call's counters.
 */
export function makeImportApply({
  plans,
  subscriptions,
  calls,
  users,
  isees,
  files,
  exports,
  audit,
  clock,
  ids,
}: ImportApplyDeps) {
  const applyIsee = async (action: PlannedImportAction, user: StoredUser | undefined, actor: Actor, now: Date) => {
    const isee = action.isee!;
    const latest = validatedIsee(user?.lastIsee);
    // Already the latest validated ISEE (applied before): nothing to record.
    if (!user || (latest && latest.valueCents === isee.valueCents && latest.year === isee.year)) return;
    const id = ids();
    await isees.recordIsee({
      id,
      userId: user.id,
      user: {
        firstName: user.firstName,
        lastName: user.lastName,
        fiscalCode: user.fiscalCode,
        email: user.email ?? null,
      },
      value: toEuros(isee.valueCents),
      year: isee.year,
      date: now.toISOString(),
      state: 'VALIDATED',
      file: null,
      uploadedBy: 'OPERATOR',
      uploadedBySub: actor.sub,
      excludeVerification: true,
    });
    await audit.record(
      {
        actor,
        entity: 'isee',
        id,
        action: 'create',
        before: null,
        after: { userId: user.id, valueCents: isee.valueCents, year: isee.year, state: 'VALIDATED', source: 'import' },
      },
      now,
    );
  };

  return {
    async applySlice(
      input: Record<string, unknown>,
      cursor: string | null,
      actor: Actor,
    ): Promise<{ cursor: string | null; done: number; total: number }> {
      const previewId = String(input.previewId ?? '');
      const plan = await plans.getPlan(previewId);
      if (!plan) throw new NotFoundError(enrolmentMessages.previewNotFound);
      const callRecord = await calls.getCall(plan.callId);
      if (!callRecord) throw new NotFoundError(messages.call.notFound);
      if (await exports.isRunning(callRecord.id)) throw new ConflictError(enrolmentMessages.importExportRunning);
      const n = parseImportCursor(cursor);
      const done = Math.min(plan.total, (n + 1) * IMPORT_SLICE_ROWS);
      if (n < plan.slices) {
        const actions = await plans.getPlanSlice(previewId, n);
        if (!actions) throw new NotFoundError(enrolmentMessages.previewNotFound);
        await applyActions(callRecord, actions, actor);
      }
      const next = n + 1;
      if (next < plan.slices) return { cursor: String(next), done, total: plan.total };
      // The import changed the call: the counters are rewritten from what it holds now.
      await subscriptions.recountEnrolments(
        callRecord.id,
        await subscriptions.listAllSubscriptionsOfCall(callRecord.id),
      );
      return { cursor: null, done: plan.total, total: plan.total };
    },
  };

  async function applyActions(call: CallRecord, actions: readonly PlannedImportAction[], actor: Actor): Promise<void> {
    const now = clock.now();
    const applied: { before: SubscriptionRecord | null; after: SubscriptionRecord | null }[] = [];
    // First the new ISEE (through recordIsee, which also updates the user's existing subscriptions).
    const withIsee = actions.filter((a) => a.isee);
    const before = await users.getUserItems(withIsee.map((a) => a.userId));
    await mapAtMost(withIsee, WRITES_AT_ONCE, (action) => applyIsee(action, before.get(action.userId), actor, now));
    const adds = actions.filter((a) => a.kind === 'add');
    const fresh = await users.getUserItems(adds.map((a) => a.userId));

    await mapAtMost(actions, WRITES_AT_ONCE, async (action) => {
      if (action.kind === 'add') {
        const user = fresh.get(action.userId);
        if (!user) return; // Deleted since the preview: nothing to enrol.
        const record = newSubscription({
          call,
          person: { userId: user.id, fiscalCode: user.fiscalCode, firstName: user.firstName, lastName: user.lastName },
          now,
          state: action.state!,
          rankingScore: action.rankingScore ?? null,
          weeklyHour: action.weeklyHour ?? null,
          isee: userIsee(user),
        });
        // Already subscribed (applied before, another import, the citizen): left as it is.
        if (await subscriptions.putSubscription(record, null)) applied.push({ before: null, after: record });
        return;
      }
      // Changes apply to what is stored now (the ISEE step may have updated it; another run may have applied them).
      let current = await subscriptions.getSubscription(call.id, action.userId);
      for (let attempt = 0; current && attempt < 3; attempt++) {
        if (action.kind === 'remove') {
          if (await subscriptions.deleteSubscription(current)) {
            await deleteFiles(files as FileStore, current.files);
            applied.push({ before: current, after: null });
            return;
          }
        } else {
          const rankingScore = action.rankingScore !== undefined ? action.rankingScore : current.rankingScore;
          const weeklyHour = action.weeklyHour !== undefined ? action.weeklyHour : current.weeklyHour;
          if (rankingScore === current.rankingScore && weeklyHour === current.weeklyHour) return;
          const after: SubscriptionRecord = {
            ...current,
            rankingScore,
            weeklyHour,
            dataUpdate: laterThan(current.dataUpdate, now),
          };
          if (await subscriptions.putSubscription(after, current)) {
            applied.push({ before: current, after });
            return;
          }
        }
        current = await subscriptions.getSubscription(call.id, action.userId);
      }
    });
    // Audited in chunks cut by size (an item holds at most 400 KB: a subscription with its files is kilobytes, so a
    // count of pairs does not bound it): who, when, each subscription before and after.
    for (const chunk of auditChunks(applied)) {
      await audit.record(
        {
          actor,
          entity: 'subscription-import',
          id: call.id,
          action: 'update',
          before: chunk.map((c) => c.before),
          after: chunk.map((c) => c.after),
        },
        now,
      );
    }
  }
}

export type ImportApply = ReturnType<typeof makeImportApply>;
