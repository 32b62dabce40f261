import { mapAtMost } from '../domain/at-most.ts';
import type { Band } from '../domain/bands.ts';
import type { Configuration } from '../domain/configuration.ts';
import {
  isFinal,
  isPendingExport,
  planMonth,
  publicPosition,
  syncCandidateMonths,
  withAmount,
  type PlannedSubscription,
  type PositionRecord,
} from '../domain/debt-positions.ts';
import { SYNC_JOB, type JobRecord } from '../domain/jobs.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { iseeForMonth, monthlyFee } from '../domain/fee.ts';
import { messages, positionOpsMessages } from '../domain/messages.ts';
import { mypayCsv, mypayCsvRow, type Payer } from '../domain/mypay-csv.ts';
import {
  currentPeriod,
  periodKey,
  positionsCsvFileName,
  resolvePeriod,
  type PositionEdit,
  type SyncStatus,
  type GenerationResult,
  type Period,
  type PeriodInput,
  type Position,
  type PositionsCsv,
  type Skipped,
} from '../domain/payments.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditEntry, Clock } from '../adapters/ports.ts';
import type { ExportFiles, ExportResults } from '../flows/use-cases.ts';
import type { CallRecord } from '../calls/repository.ts';
import { requireCompleteConfiguration, type ConfigurationRepository } from '../configuration/use-cases.ts';
import type { SubscriptionRecord } from '../subscriptions/repository.ts';
import type { DebtRefreshUseCases } from '../payment-list/use-cases.ts';
import type { MonthSummaryRefresh } from '../payment-list/month-refresh.ts';
import type { StoredUser } from '../users/repository.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';

export interface PositionRepository {
  listPositionsOfMonth(callId: string, period: Period): Promise<PositionRecord[]>;
  /**
   * MyPay's verdict on an exported position, written on that position (its key, and its IUD checked),
   * unless it changed since the file was built or already has that verdict (false then).
   */
  recordExportOutcome(position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId' | 'iud'>, outcome: ExportOutcome): Promise<boolean>;
  listPositions(callId: string, period: Period, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
  createPosition(position: PositionRecord): Promise<boolean>;
  /**
   * New positions in batches, without a condition: only while this generation's export holds the call's
   * export lock and a consistent read has just found none of them (repository.createPositions).
   */
  createPositions(positions: readonly PositionRecord[]): Promise<void>;
  /** The one write of an existing position: conditional on the version, and on it being neither paid nor cancelled. */
  replacePosition(position: PositionRecord, expectedVersion: number): Promise<boolean>;
  getPositionByIud(iud: string): Promise<PositionRecord | null>;
  /** Whether the call's month holds a position neither paid nor cancelled. */
  hasOpenPositions(callId: string, period: Period): Promise<boolean>;
  /**
   * The batched write-back of an export (repository.putPositions, no condition) and its fence: open before
   * the month is read, closed once every receipt of a payment recorded meanwhile has been repaired.
   */
  putPositions(positions: readonly PositionRecord[]): Promise<void>;
  openWriteBack(month: MonthOf, flowId: string, at: string): Promise<void>;
  writeBackReceipts(month: MonthOf): Promise<{ receipts: PaymentRecord[]; count: number }>;
  closeWriteBack(month: MonthOf, count: number): Promise<boolean>;
  /** Puts a payment back on its position unless it is paid or cancelled ('repaired' when it wrote). */
  repairPayment(month: MonthOf, receipt: PaymentRecord): Promise<'repaired' | 'paid' | 'none'>;
}

type MonthOf = { callId: string; mese: number; anno: number };

/** The background jobs (functions/jobs): 'Sincronizza' runs as the kind 'sync-positions', keyed by call. */
export interface PaymentJobs {
  start(kind: string, key: string, input: Record<string, unknown>, actor: Actor): Promise<JobRecord | null>;
  status(kind: string, key: string): Promise<{ job: JobRecord | null; running: boolean }>;
}

export type ExportOutcome = { kind: 'accepted'; iuv: string; nav: string; at: string; noticeZip?: string | null } | { kind: 'rejected'; reason: string; at: string };

/**
 * The position with MyPay's verdict on it, as repository.recordExportOutcome's update writes it: accepted,
 * its IUV, notice number and where its notice PDF is (the flow's AVVISI ZIP); rejected, the reason.
 */
export function withExportOutcome(position: PositionRecord, outcome: ExportOutcome): PositionRecord {
  if (outcome.kind === 'rejected') return { ...position, statoExport: 'ERRORE', lastExportError: outcome.reason, updatedAt: outcome.at, version: position.version + 1 };
  return {
    ...position,
    codIuv: outcome.iuv,
    nav: outcome.nav,
    statoExport: 'ESPORTATA',
    lastExportError: null,
    exportedAt: position.exportedAt ?? outcome.at,
    ...(outcome.noticeZip ? { noticeZip: outcome.noticeZip } : {}),
    updatedAt: outcome.at,
    version: position.version + 1,
  };
}

/**
 * Written in batches (no condition): positions that only a payment can change while the export holds the
 * call's lock (unpaid, not cancelled, no notice number yet: no notice e-mail or IO message goes to them).
 * The others keep the conditional update, one each.
 */
const batchableWriteBack = (position: PositionRecord) => !position.isPagato && !position.annullato && !position.nav;

export interface PaymentDeps {
  positions: PositionRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  bands: { getBand(id: string): Promise<Band | null> };
  subscriptions: { listApprovedSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]> };
  /** Many users at once (BatchGetItem): a month may hold thousands of subscribers. */
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> };
  /** The ISEE a fee was computed from cannot be deleted: marked once (those already marked are skipped). */
  isees: { iseesNotYetUsedForFee(ids: readonly string[]): Promise<string[]>; markIseeUsedForFee(id: string, at: string): Promise<void> };
  configuration: Pick<ConfigurationRepository, 'getConfiguration'>;
  /** One entry per changed position, written in batches. */
  audit: { recordMany(entries: readonly AuditEntry[], at: Date): Promise<void> };
  /** The flow exporting a call now, if any: its positions do not change while MyPay reads them. */
  exports: { runningExportOf(callId: string): Promise<string | null> };
  /** Only the API needs it (Sincronizza); the job's own slices do not. */
  jobs?: PaymentJobs;
  /** The exports bucket: 'Verifica / genera CSV' leaves its file there and answers a short-lived link. */
  exportFiles: Pick<ExportFiles, 'put' | 'downloadUrl'>;
  /** Who each generation left without a position for 'ISEE scaduto o mancante' (the payment list shows them). */
  missingIsee?: { putMissingIsee(callId: string, period: Period, people: readonly Skipped[], at: string): Promise<void> };
  /** The payment list's aggregates (functions/payment-list/use-cases.ts): every position write refreshes them. */
  summaries: Pick<DebtRefreshUseCases, 'refreshDebtSummaries' | 'reconcileDebtTotals'> & Pick<MonthSummaryRefresh, 'refreshMonthSummaries'>;
  clock: Clock;
}

const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Conditional writes in flight at once. */
const WRITES_AT_ONCE = 50;

/**
 * From this many written positions on, the payment list's rows are refreshed for the whole month at once
 * (a few Queries and batched writes: payment-list/month-refresh.ts) instead of citizen by citizen (two or
 * three DynamoDB calls each).
 */
const MONTH_REFRESH_FROM = 200;


/** The payer fields of the CSV from the user record (the subscription's copy of the name when the record is gone). */
const payerOf = (position: PositionRecord, user: StoredUser | null): Payer => ({
  fiscalCode: user?.fiscalCode ?? position.fiscalCode,
  firstName: user?.firstName ?? position.nome,
  lastName: user?.lastName ?? position.cognome,
  email: user?.email,
  address: user?.address,
  addressNumber: user?.addressNumber,
  cap: user?.cap,
  city: user?.city,
  country: user?.country,
  nation: user?.nation,
});

export function makePaymentUseCases(deps: PaymentDeps) {
  const { positions, calls, bands, subscriptions, users, isees, configuration, exports, exportFiles, audit, summaries, jobs, clock } = deps;
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));

  /**
   * Applies the month's plan (domain planMonth) with conditional writes: a create fails if the position
   * exists, a change fails if the stored version moved or the position got paid or cancelled meanwhile.
   * A write that loses such a race changes nothing and counts as unchanged: running twice, or twice at
   * once, never makes a second position.
   */
  /** Marks these ISEEs as used for a fee (those already marked are skipped: one BatchGet per 100). */
  async function markIseesUsedForFee(ids: readonly (string | null)[], at: string): Promise<number> {
    const used = new Set(ids.filter((id): id is string => Boolean(id)));
    const toMark = used.size ? await isees.iseesNotYetUsedForFee([...used]) : [];
    await mapAtMost(toMark, WRITES_AT_ONCE, (id) => isees.markIseeUsedForFee(id, at));
    return toMark.length;
  }

  async function generate(call: CallRecord, period: Period, actor: Actor, lock: { exportingFlow: string | null } = { exportingFlow: null }) {
    const now = clock.now();
    const at = now.toISOString();
    const [approved, callBands, existing] = await Promise.all([
      subscriptions.listApprovedSubscriptionsOfCall(call.id),
      Promise.all(call.bandsId.map((id) => bands.getBand(id))).then((found) => found.filter((band): band is Band => band !== null)),
      positions.listPositionsOfMonth(call.id, period),
    ]);
    const usersById: Map<string, StoredUser | null> = await users.getUserItems(approved.map((subscription) => subscription.userId));

    const planned: PlannedSubscription[] = approved.map((subscription) => {
      const user = usersById.get(subscription.userId) ?? null;
      const isee = iseeForMonth(user?.lastIsee, period.anno, period.mese);
      return {
        userId: subscription.userId,
        fiscalCode: user?.fiscalCode ?? subscription.fiscalCode,
        firstName: user?.firstName ?? subscription.firstName,
        lastName: user?.lastName ?? subscription.lastName,
        iseeId: isee?.id ?? null,
        fee: monthlyFee({ isee, bands: callBands, weeklyHours: subscription.weeklyHour ?? 0, year: period.anno, month: period.mese }),
      };
    });
    const plan = planMonth({ call: { id: call.id, name: call.name, serviceName: call.serviceName }, period, existing, subscriptions: planned, now: at });
    await deps.missingIsee?.putMissingIsee(call.id, period, plan.skipped.filter((s) => s.reason === messages.positions.noIsee), at);

    // The export holding the call's lock creates in batches of 25 (no other generation of the call can run);
    // anything else creates each position with its condition (a concurrent generation loses, writes nothing).
    const created = lock.exportingFlow
      ? await positions.createPositions(plan.create).then(() => plan.create)
      : await mapAtMost(plan.create, WRITES_AT_ONCE, async (position) => ((await positions.createPosition(position)) ? position : null));
    const changes = [...plan.update.map((c) => ({ ...c, kind: 'update' as const })), ...plan.cancel.map((c) => ({ ...c, kind: 'cancel' as const }))];
    const changed = await mapAtMost(changes, WRITES_AT_ONCE, async (change) => ((await positions.replacePosition(change.after, change.before.version)) ? change : null));

    const writtenCreates = created.filter((p): p is PositionRecord => p !== null);
    const writtenChanges = changed.filter((c): c is (typeof changes)[number] => c !== null);
    const written = [...writtenCreates, ...writtenChanges.map((c) => c.after)];
    const lost = plan.create.length - writtenCreates.length + changes.length - writtenChanges.length;
    // The month as it now stands, without reading it again: what was there, with what this run wrote. A
    // write that lost a race leaves that position unknown here: then the caller reads the month again.
    const month = lost ? null : [...new Map([...existing, ...written].map((p) => [p.userId, p])).values()];
    if (written.length >= MONTH_REFRESH_FROM) {
      await summaries.refreshMonthSummaries({
        callId: call.id,
        period,
        month: month ?? (await positions.listPositionsOfMonth(call.id, period)),
        userIds: written.map((p) => p.userId),
        people: usersById,
      });
    } else {
      await summaries.refreshDebtSummaries(written.map((p) => ({ callId: p.callId, userId: p.userId, anno: p.anno })));
    }
    // The export marks the ISEEs in a step of its own, in slices (MarkIsees): one conditional write each.
    if (!lock.exportingFlow) await markIseesUsedForFee(written.map((p) => p.iseeId), at);
    await audit.recordMany(
      [
        ...writtenCreates.map((after) => ({ actor, entity: 'position', id: after.iud, action: 'create' as const, before: null, after })),
        ...writtenChanges.map((c) => ({ actor, entity: 'position', id: c.after.iud, action: 'update' as const, before: c.before, after: c.after })),
      ],
      now,
    );

    const result: GenerationResult = {
      mese: period.mese,
      anno: period.anno,
      created: writtenCreates.length,
      updated: writtenChanges.filter((c) => c.kind === 'update').length,
      cancelled: writtenChanges.filter((c) => c.kind === 'cancel').length,
      unchanged: plan.unchanged.length + lost,
      exempt: plan.exempt,
      skipped: plan.skipped,
    };
    return { result, usersById, month };
  }

  async function prepare(callId: string, input: PeriodInput, exportingFlow: string | null = null) {
    const call = await requireCall(callId);
    const running = await exports.runningExportOf(callId);
    if (running && running !== exportingFlow) throw new ConflictError(messages.positions.exportRunning);
    // Checked before anything is generated: the CSV and the export need every value.
    const config: Configuration = await requireCompleteConfiguration(configuration);
    /** The flow that holds the call's export lock, when this generation is its own. */
    const lockedBy = running !== null && running === exportingFlow ? running : null;
    return { call, config, period: resolvePeriod(input, clock.now()), lockedBy };
  }

  /** Generates the month, then the MyPay CSV of its positions with a pending action (of one citizen, if given). */
  async function pendingCsv(call: CallRecord, config: Configuration, period: Period, fiscalCode: string | null, actor: Actor, exportingFlow: string | null = null) {
    const { result, usersById, month } = await generate(call, period, actor, { exportingFlow });
    const current = month ?? (await positions.listPositionsOfMonth(call.id, period));
    const pending = current
      .filter(isPendingExport)
      .filter((p) => !fiscalCode || p.fiscalCode.toUpperCase() === fiscalCode)
      .sort((a, b) => `${a.cognome} ${a.nome} ${a.fiscalCode}`.localeCompare(`${b.cognome} ${b.nome} ${b.fiscalCode}`, 'it'));
    const missing = pending.filter((p) => !usersById.has(p.userId)).map((p) => p.userId);
    if (missing.length) for (const [id, user] of await users.getUserItems(missing)) usersById.set(id, user);
    const rows = pending.map((position) => mypayCsvRow(position, payerOf(position, usersById.get(position.userId) ?? null), call, config));
    // The ISEEs of the month's positions (not only those written now: a Prepare that stopped after its
    // writes left its ISEEs unmarked); the export marks those not marked yet (MarkIsees).
    const iseeIds = [...new Set(current.map((p) => p.iseeId).filter((id): id is string => Boolean(id)))];
    return { result, content: mypayCsv(rows), rows: rows.length, iseeIds };
  }

  const requireJobs = () => jobs ?? Promise.reject(new Error('Background jobs are not wired here'));

  const syncStatusOf = ({ job, running }: { job: JobRecord | null; running: boolean }): SyncStatus => ({
    isUpdating: running,
    state: !job ? 'NONE' : running ? 'RUNNING' : job.state === 'RUNNING' ? 'FAILED' : job.state,
    done: job?.done ?? 0,
    total: job?.total ?? null,
    startedAt: job?.startedAt ?? null,
    endedAt: job?.endedAt ?? null,
    error: job && !running && job.state === 'RUNNING' ? positionOpsMessages.syncFailed : (job?.error ?? null),
  });

  async function generatePositions(callId: string, input: PeriodInput, actor: Actor): Promise<GenerationResult> {
    const { call, period } = await prepare(callId, input);
    return (await generate(call, period, actor)).result;
  }

  return {
    /** POST /api/calls/{id}/positions/generate: the month's positions created, updated or cancelled. */
    generatePositions,

    /**
     * PUT /api/positions/{id} (the payment edit modal, operator-admin §5): a new description and amount.
     * 0 cancels the position (final), another amount changes it (both with the rule planMonth applies,
     * `withAmount`); a paid or cancelled position, or one of a call being exported, is a 409. One
     * conditional write on the version read: an edit racing another change writes nothing.
     */
    async editPosition(iud: string, input: PositionEdit, actor: Actor): Promise<Position> {
      const before = await positions.getPositionByIud(iud);
      if (!before) throw new NotFoundError(positionOpsMessages.notFound);
      if (isFinal(before)) throw new ConflictError(positionOpsMessages.final);
      if (await exports.runningExportOf(before.callId)) throw new ConflictError(positionOpsMessages.exportRunningEdit);
      if (before.importoDovuto === input.importoCents && before.descrizione === input.descrizione) return publicPosition(before);
      const now = clock.now();
      const { after } = withAmount(before, input.importoCents, { descrizione: input.descrizione }, now.toISOString());
      if (!(await positions.replacePosition(after, before.version))) throw new ConflictError(positionOpsMessages.changed);
      await summaries.refreshDebtSummaries([{ callId: after.callId, userId: after.userId, anno: after.anno }]);
      await audit.recordMany([{ actor, entity: 'position', id: after.iud, action: 'update', before, after }], now);
      return publicPosition(after);
    },

    /**
     * 'Sincronizza' (POST /api/calls/{id}/positions/sync): starts the background recalculation of the call's
     * unpaid positions (the job 'sync-positions'). Refused while an export of the call runs, or while a
     * recalculation of it runs (409); the configuration must be complete, as for a generation.
     */
    async startSync(callId: string, actor: Actor): Promise<SyncStatus> {
      const call = await requireCall(callId);
      if (await exports.runningExportOf(call.id)) throw new ConflictError(messages.positions.exportRunning);
      await requireCompleteConfiguration(configuration);
      const job = await (await requireJobs()).start(SYNC_JOB, call.id, { callId: call.id }, actor);
      if (!job) throw new ConflictError(positionOpsMessages.syncRunning);
      await audit.recordMany([{ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }], clock.now());
      return syncStatusOf({ job, running: true });
    },

    /** GET /api/calls/{id}/positions/sync: the spec's import status (isUpdating) and how far the recalculation is. */
    async syncStatus(callId: string): Promise<SyncStatus> {
      const call = await requireCall(callId);
      return syncStatusOf(await (await requireJobs()).status(SYNC_JOB, call.id));
    },

    /**
     * One slice of 'Sincronizza' (the job kind 'sync-positions'). The first finds the months to recalculate:
     * those with a position neither paid nor cancelled, and the current month; each next one regenerates one
     * month with the month's generation (generatePositions: current hours and ISEE, the same rules, the same
     * audit). The cursor is the list of months and the next one; regenerating is idempotent, so a slice run
     * twice changes nothing more.
     */
    async syncSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor): Promise<{ cursor: string | null; done: number; total: number }> {
      const callId = String(input.callId ?? '');
      if (cursor === null) {
        const call = await requireCall(callId);
        const current = currentPeriod(clock.now());
        const candidates = syncCandidateMonths(call.year, current);
        const open = await mapAtMost(candidates, 6, async (period) => ((await positions.hasOpenPositions(call.id, period)) ? periodKey(period) : null));
        const months = [...new Set([...open.filter((m): m is string => m !== null), periodKey(current)])].sort();
        return { cursor: JSON.stringify({ months, next: 0 }), done: 0, total: months.length };
      }
      const { months, next } = parseSyncCursor(cursor);
      const [anno, mese] = months[next].split('-').map(Number);
      await generatePositions(callId, { mese, anno }, actor);
      const done = next + 1;
      // The last slice also recomputes the payment list's totals of those years from their rows (a write
      // interrupted between a row and its totals is repaired here).
      if (done === months.length) for (const year of new Set(months.map((month) => Number(month.slice(0, 4))))) await summaries.reconcileDebtTotals(callId, year);
      return { cursor: done < months.length ? JSON.stringify({ months, next: done }) : null, done, total: months.length };
    },

    /**
     * 'Verifica / genera CSV' (part 2 §2.11, §7 export-csv): generates the month first (so the file is
     * what an export would send now), then the MyPay CSV of the month's positions with a pending action
     * (new, changed, cancelled, or refused last time). Paid positions and those already accepted as they
     * are never appear.
     */
    async positionsCsv(callId: string, input: PeriodInput, actor: Actor): Promise<PositionsCsv> {
      const { call, config, period } = await prepare(callId, input);
      const { result, content, rows } = await pendingCsv(call, config, period, null, actor);
      const fileName = positionsCsvFileName(call.nomeMyPay, period);
      const key = `csv/${call.id}/${periodKey(period)}/${clock.now().toISOString()}/${fileName}`;
      await exportFiles.put(key, new TextEncoder().encode(content), CSV_CONTENT_TYPE);
      return { ...result, fileName, url: await exportFiles.downloadUrl(key, fileName, CSV_CONTENT_TYPE), rows };
    },

    /**
     * The export's file (functions/flows, step Prepare): the same month generation and the same CSV as
     * 'Verifica / genera CSV', run by the flow that holds the call's export lock; one citizen only for the
     * single payment.
     */
    async exportCsv(request: { callId: string; mese: number; anno: number; fiscalCode: string | null; flowId: string }, actor: Actor) {
      const { call, config, period, lockedBy } = await prepare(request.callId, { mese: request.mese, anno: request.anno }, request.flowId);
      // Only a flow that holds the call's export lock may batch its creates (generate).
      const { content, rows, iseeIds } = await pendingCsv(call, config, period, request.fiscalCode, actor, lockedBy);
      // Without the lock the generation marked its ISEEs itself.
      return { csv: content, rows, iseeIds: lockedBy ? iseeIds : [] };
    },

    /** The export's step MarkIsees: one slice of the ISEEs its month generation used (see generate). */
    async markIseesUsedForFee(ids: readonly string[]): Promise<{ marked: number }> {
      return { marked: await markIseesUsedForFee(ids, clock.now().toISOString()) };
    },

    /**
     * MyPay's verdict, written back by IUD: an accepted position gets its IUV and notice number (and is
     * known to MyPay from then on), a rejected one the reason. Writing the same verdict twice changes
     * nothing; a position that changed since the file was built keeps its pending change.
     *
     * Positions only a payment can change meanwhile go in batches of 25 (BatchWriteItem, no condition),
     * each the position as read with the verdict on it; the month is read after the fence opens, and a
     * payment recorded while it is open leaves its receipt there (repository.recordPayment). Then the
     * check: every receipt is put back on its position if the batch overwrote it (a paid position stays
     * paid; a cancelled one stays cancelled), and the fence closes only when no receipt came since the
     * last look. The others (paid, cancelled, already with a notice number) keep one conditional update each.
     */
    async recordExportResults(request: { callId: string; mese: number; anno: number; flowId?: string; noticeZip?: string | null }, results: ExportResults): Promise<void> {
      const at = clock.now().toISOString();
      const month = { callId: request.callId, mese: request.mese, anno: request.anno };
      const fence = results.accepted.length + results.rejected.length > 0;
      if (fence) await positions.openWriteBack(month, request.flowId ?? '', at);
      // The month's positions in one read (not one index lookup per row): each verdict goes to its
      // position by key, and one that is already there is not written again (a restarted Collect).
      const byIud = new Map((await positions.listPositionsOfMonth(request.callId, request)).map((p) => [p.iud, p]));
      const outcomes: { position: PositionRecord; outcome: ExportOutcome }[] = [];
      for (const { iud, iuv, nav } of results.accepted) {
        const position = byIud.get(iud);
        if (position && !(position.statoExport === 'ESPORTATA' && position.codIuv === iuv)) outcomes.push({ position, outcome: { kind: 'accepted', iuv, nav, at, noticeZip: request.noticeZip ?? null } });
      }
      for (const { iud, code, reason: text } of results.rejected) {
        const position = byIud.get(iud);
        const reason = `${code ? `${code}: ` : ''}${text}`.slice(0, 500);
        if (position && !(position.statoExport === 'ERRORE' && position.lastExportError === reason)) outcomes.push({ position, outcome: { kind: 'rejected', reason, at } });
      }
      const batched = outcomes.filter(({ position }) => batchableWriteBack(position));
      const oneByOne = outcomes.filter(({ position }) => !batchableWriteBack(position));
      await positions.putPositions(batched.map(({ position, outcome }) => withExportOutcome(position, outcome)));
      await mapAtMost(oneByOne, WRITES_AT_ONCE, ({ position, outcome }) => positions.recordExportOutcome(position, outcome));
      if (!fence) return;
      for (;;) {
        const { receipts, count } = await positions.writeBackReceipts(month);
        for (const receipt of receipts) await positions.repairPayment(month, receipt);
        if (await positions.closeWriteBack(month, count)) break;
      }
    },

    async listPositions(callId: string, query: PeriodInput & { limit?: number; cursor?: string }): Promise<Page<Position>> {
      await requireCall(callId);
      const { limit, cursor, ...periodInput } = query;
      return positions.listPositions(callId, resolvePeriod(periodInput, clock.now()), { limit, cursor });
    },
  };
}

function parseSyncCursor(cursor: string): { months: string[]; next: number } {
  const parsed = JSON.parse(cursor) as { months?: unknown; next?: unknown };
  const months = Array.isArray(parsed.months) ? parsed.months.filter((m): m is string => typeof m === 'string' && /^\d{4}-\d{2}$/.test(m)) : [];
  const next = typeof parsed.next === 'number' ? parsed.next : -1;
  if (!months.length || next < 0 || next >= months.length) throw new ValidationError('Cursore del ricalcolo non valido.');
  return { months, next };
}

export type PaymentUseCases = ReturnType<typeof makePaymentUseCases>;
