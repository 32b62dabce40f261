import { mapAtMost } from '../domain/at-most.ts';
import type { Band } from '../domain/bands.ts';
import { completeConfiguration, type Configuration } from '../domain/configuration.ts';
import {
  closeReconciliation,
  edit,
  hasExportOutcome,
  isFinal,
  isHeld,
  isPendingExport,
  planMonth,
  planTransitions,
  publicPosition,
  recordExportOutcome,
  reserveIuv,
  syncCandidateMonths,
  type ExportOutcome,
  type PaymentRecord,
  type PlannedSubscription,
  type PositionRecord,
  type Transition,
} from '../domain/positions/index.ts';
import {
  CSV_JOB,
  GENERATE_JOB,
  SYNC_JOB,
  jobStatusOf,
  resultJobStatus,
  type BackgroundJobs,
  type JobRecord,
} from '../domain/jobs.ts';
import { CallState } from '../domain/call-limits.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { iseeForMonth, monthlyFee } from '../domain/fee.ts';
import { messages, positionOpsMessages } from '../domain/messages.ts';
import {
  heldBackCsv,
  heldBackReasons,
  mypayCsv,
  mypayCsvRow,
  type MyPayRowRules,
  type Payer,
} from '../domain/mypay-csv.ts';
import { myPayRowRulesFromEnv } from '../adapters/mypay-rules.ts';
import type { PaymentPlatform, PaymentPlatformName, PlatformPosition } from '../domain/payment-platform.ts';
import { needsIuv, platformCheckCsv, platformPositionOf } from '../domain/platform-export.ts';
import { platformSync, syncsWithPlatform } from '../domain/platform-sync.ts';
import { receiptOfPayment } from '../domain/payment-rules.ts';
import type { PaymentSettlement } from '../positions/settlement.ts';
import type {
  PositionEdit,
  ReconciliationClose,
  SyncStatus,
  GenerationResult,
  GenerationStatus,
  PositionsCsvStatus,
  PeriodInput,
  Position,
  PositionsCsv,
  Skipped,
} from '../domain/payments.ts';
import { currentPeriod, periodKey, romeDay, type Period } from '../domain/period.ts';
import { SKIPPED_SHOWN, positionsCsvFileName, resolvePeriod } from '../domain/position-rules.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditEntry } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { ConfigurationRepository } from '../adapters/ports/configuration.ts';
import type { ExportResults, MonthExportRequest, PreparedExport, RunningExports } from '../adapters/ports/export.ts';
import type { ExportFiles } from '../adapters/ports/files.ts';
import { type BusinessMetrics, noMetrics } from '../adapters/ports/metrics.ts';
import type { PaymentListSummaries } from '../adapters/ports/payment-list.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { SubscriptionRecord } from '../domain/subscription-record.ts';
import type { StoredUser } from '../domain/user-record.ts';

export interface PositionRepository {
  listPositionsOfMonth(callId: string, period: Period): Promise<PositionRecord[]>;
  listPositions(callId: string, period: Period, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
  /** The one writer (positions/repository.ts): a transition as one write conditional on its guard; false when the guard failed. */
  applyTransition(transition: Transition): Promise<boolean>;
  /** A month's transitions, those the export's lock guards in batches; the ones written. */
  applyTransitions(
    transitions: readonly Transition[],
    onWritten?: (count: number) => Promise<unknown>,
  ): Promise<Transition[]>;
  getPositionByIud(iud: string): Promise<PositionRecord | null>;
  /** Whether the call's month holds a position neither paid nor cancelled. */
  hasOpenPositions(callId: string, period: Period): Promise<boolean>;
  /**
   * The write-back fence of an export's batched verdicts: open before the month is read, closed once every
   * receipt of a payment recorded meanwhile has been repaired.
   */
  openWriteBack(month: MonthOf, flowId: string, at: string): Promise<void>;
  writeBackReceipts(month: MonthOf): Promise<{ receipts: PaymentRecord[]; count: number }>;
  closeWriteBack(month: MonthOf, count: number): Promise<boolean>;
  /** Puts a payment back on its position unless it holds it already ('repaired' when it wrote). */
  repairPayment(month: MonthOf, receipt: PaymentRecord): Promise<'repaired' | 'paid' | 'none'>;
  /** Whether a citizen's MyPay checkout holds a position of the call (of one month, when given) at `now` (checkouts.ts). */
  hasLiveCheckouts(callId: string, month: Period | null, now: string): Promise<boolean>;
}

type MonthOf = { callId: string; mese: number; anno: number };

export interface PaymentDeps {
  positions: PositionRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  bands: { getBand(id: string): Promise<Band | null> };
  subscriptions: { listApprovedSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]> };
  /** Many users at once (BatchGetItem): a month may hold thousands of subscribers. */
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> };
  /** The ISEEs a fee was computed from cannot be deleted: marked once, in batches (those already marked keep their time). */
  isees: { markIseesUsedForFee(ids: readonly string[], at: string): Promise<number> };
  configuration: Pick<ConfigurationRepository, 'getConfiguration'>;
  /**
   * What the deployment's platform needs before a month is generated, recalculated or sent
   * (functions/adapters/platform-configuration.ts): MyPay's configuration page complete (the default), or on GPD the
   * council's pagoPA settings (then null: MyPay's page is needed only by its CSV).
   */
  requireConfiguration?: () => Promise<Configuration | null>;
  /** One entry per changed position, written in batches. */
  audit: { recordMany(entries: readonly AuditEntry[], at: Date): Promise<void> };
  /** The flow exporting a call now, if any: its positions do not change while MyPay reads them. */
  exports: RunningExports;
  /** Only the API needs it (Sincronizza); the job's own slices do not. */
  /** The background jobs (functions/jobs): 'Sincronizza' runs as the kind 'sync-positions', keyed by call. */
  jobs?: BackgroundJobs;
  /** The exports bucket: 'Verifica / genera CSV' leaves its file there and answers a short-lived link. */
  exportFiles: Pick<ExportFiles, 'put' | 'get' | 'downloadUrl'>;
  /** Who each generation left without a position for 'ISEE scaduto o mancante' (the payment list shows them). */
  missingIsee?: {
    putMissingIsee(callId: string, period: Period, people: readonly Skipped[], at: string): Promise<void>;
  };
  /** The payment list's totals, reconciled by 'Sincronizza' (its rows follow the position writes by themselves). */
  summaries: PaymentListSummaries;
  clock: Clock;
  /** The entity's MyPay settings the rows depend on (functions/adapters/mypay-rules.ts; the environment unless given). */
  mypayRules?: Omit<MyPayRowRules, 'today'>;
  /** PositionsGenerated (functions/domain/business-metrics.ts); none when not given. */
  metrics?: BusinessMetrics;
  /** GPD: the council's IUV sequence (functions/positions/iuv-sequence.ts), for the export's new positions. */
  iuvSequence?: { reserveIuvs(count: number): Promise<string[]> };
  /**
   * A platform that keeps each position's state (GPD): 'Sincronizza' reads the state of every position it was sent
   * and records what happened there (domain/platform-sync.ts); the payments through the reporting's settlement.
   */
  platformSync?: Pick<PaymentPlatform, 'positionStates'> & { settlement: Pick<PaymentSettlement, 'settle'> };
  /** The deployment's platform (MyPay unless given): on GPD 'Verifica / genera CSV' lists what the export will send. */
  platformName?: PaymentPlatformName;
  /**
   * How much of a month one slice of a background job writes: 'Sincronizza', 'Generazione posizioni', 'Verifica /
   * genera CSV' (SLICE_BUDGET unless a test sets another).
   */
  sliceBudget?: SliceBudget;
  /** How much of a month one call of the export's Prepare writes (EXPORT_SLICE_BUDGET unless a test sets another). */
  exportSliceBudget?: SliceBudget;
}

/**
 * One slice (a call of a job function, or of the export's Prepare) writes a month's changes in chunks of `chunk`
 * positions while less than `ms` has passed since it started (always one chunk at least); a month with more (a new
 * month of 10,000 subscribers: 10,000 creates, each with its payment-list row) goes on in the next slice, which plans
 * the month again and finds what was written unchanged. Both functions have 300 s (JOB_SLICE_TIMEOUT_SECONDS,
 * TASK_TIMEOUT_SECONDS): the budget leaves room for the month's planning before and the slower chunk, and for the
 * export's file after the last one.
 */
export interface SliceBudget {
  chunk: number;
  ms: number;
}
/** The background jobs: each write conditional, 50 at once. */
export const SLICE_BUDGET: SliceBudget = { chunk: 500, ms: 120_000 };
/**
 * The export's Prepare: its creates go in batches under the call's export lock, so a chunk is quick, while the
 * payment list's refresh after each chunk reads the call's year (payment-list/month-refresh.ts): bigger chunks.
 */
export const EXPORT_SLICE_BUDGET: SliceBudget = { chunk: 2500, ms: 120_000 };

/** A slice's budget from now: its chunk and the time past which no new chunk starts. */
const budgetFrom = ({ chunk, ms }: SliceBudget, clock: Clock) => ({ chunk, until: clock.now().getTime() + ms });
type Budget = ReturnType<typeof budgetFrom>;

const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A job's progress reporter (functions/jobs: the record's done and total while its one slice runs). */
export type Progress = (done: number, total: number) => Promise<unknown>;

/** The CSV job's answer as kept: the file's key (a link is made at each ask). */
type StoredCsv = Omit<PositionsCsv, 'url' | 'heldBackUrl'> & { key: string; heldBackKey?: string | null };

/** Counts a run's writes so that every PROGRESS_EVERY of them (and the last) reports how many are done. */
const PROGRESS_EVERY = 500;
function countingProgress(total: number, progress?: Progress) {
  let done = 0;
  return async (count: number) => {
    const before = done;
    done += count;
    if (progress && (Math.floor(done / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY) || done === total))
      await progress(done, total);
  };
}

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

/**
 * The month's plan (domain planMonth) from the approved subscriptions, their users' ISEEs and hours and the
 * positions already there: writes nothing. An export plans its month once, in the workflow's Prepare.
 */
export function makeMonthPlanner({
  subscriptions,
  bands,
  users,
  positions,
}: Pick<PaymentDeps, 'subscriptions' | 'bands' | 'users'> & {
  positions: Pick<PositionRepository, 'listPositionsOfMonth'>;
}) {
  async function planOf(call: Pick<CallRecord, 'id' | 'name' | 'serviceName' | 'bandsId'>, period: Period, at: string) {
    const [approved, callBands, existing] = await Promise.all([
      subscriptions.listApprovedSubscriptionsOfCall(call.id),
      Promise.all(call.bandsId.map((id) => bands.getBand(id))).then((found) =>
        found.filter((band): band is Band => band !== null),
      ),
      positions.listPositionsOfMonth(call.id, period),
    ]);
    const usersById: Map<string, StoredUser | null> = await users.getUserItems(
      approved.map((subscription) => subscription.userId),
    );

    const planned: PlannedSubscription[] = approved.map((subscription) => {
      const user = usersById.get(subscription.userId) ?? null;
      const isee = iseeForMonth(user?.lastIsee, period.anno, period.mese);
      return {
        userId: subscription.userId,
        fiscalCode: user?.fiscalCode ?? subscription.fiscalCode,
        firstName: user?.firstName ?? subscription.firstName,
        lastName: user?.lastName ?? subscription.lastName,
        iseeId: isee?.id ?? null,
        fee: monthlyFee({
          isee,
          bands: callBands,
          weeklyHours: subscription.weeklyHour ?? 0,
          year: period.anno,
          month: period.mese,
        }),
      };
    });
    return {
      plan: planMonth({
        call: { id: call.id, name: call.name, serviceName: call.serviceName },
        period,
        existing,
        subscriptions: planned,
        now: at,
      }),
      usersById,
      existing,
    };
  }

  return { planOf };
}

export function makePaymentUseCases(deps: PaymentDeps) {
  const {
    positions,
    calls,
    users,
    isees,
    configuration,
    exports,
    exportFiles,
    audit,
    summaries,
    jobs,
    clock,
    metrics = noMetrics,
  } = deps;
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const { planOf } = makeMonthPlanner(deps);
  const myPayConfiguration = async () => completeConfiguration(await configuration.getConfiguration());
  const requireConfiguration = deps.requireConfiguration ?? myPayConfiguration;

  /** Marks these ISEEs as used for a fee (in batches; those already marked keep their time). */
  async function markIseesUsedForFee(ids: readonly (string | null)[], at: string): Promise<number> {
    const used = [...new Set(ids.filter((id): id is string => Boolean(id)))];
    return used.length ? isees.markIseesUsedForFee(used, at) : 0;
  }

  async function generate(
    call: CallRecord,
    period: Period,
    actor: Actor,
    lock: { exportingFlow: string | null } = { exportingFlow: null },
    progress?: Progress,
    budget?: Budget,
  ) {
    const now = clock.now();
    const at = now.toISOString();
    const { plan, usersById, existing } = await planOf(call, period, at);
    await deps.missingIsee?.putMissingIsee(
      call.id,
      period,
      plan.skipped.filter((s) => s.reason === messages.positions.noIsee),
      at,
    );

    // The month's transitions, each on its guard: a create where no position is, a change on the version read
    // of an open position no checkout holds. A write that loses such a race changes nothing and counts as
    // unchanged: running twice, or twice at once, never makes a second position. The export holding the
    // call's lock creates in batches of 25 (no other generation of the call can run).
    const transitions = planTransitions(plan, at, lock.exportingFlow !== null);
    const report = countingProgress(transitions.length, progress);
    /** What a chunk wrote, recorded at once: a slice cut after it leaves no write without its audit entry. */
    async function recordWritten(written: readonly Transition[]) {
      // The export marks the ISEEs in a step of its own, in slices (MarkIsees): one conditional write each.
      if (!lock.exportingFlow)
        await markIseesUsedForFee(
          written.map((t) => t.after.iseeId),
          at,
        );
      await audit.recordMany(
        written.map((t) => ({
          actor,
          entity: 'position',
          id: t.after.iud,
          action: t.name === 'create' ? ('create' as const) : ('update' as const),
          before: t.name === 'create' ? null : t.before!,
          after: t.after,
        })),
        now,
      );
      metrics.count('PositionsGenerated', written.filter((t) => t.name === 'create').length);
    }
    // With a budget (every slice: SliceBudget), a big month is written in chunks until the slice's time is up (at
    // least one chunk, so every slice moves on); the next slice plans the month again and finds these writes
    // unchanged. A slice cut mid-chunk left some of it written: the next plan finds those, and writes the rest.
    const chunk = budget ? Math.max(1, budget.chunk) : Math.max(1, transitions.length);
    const applied: Transition[] = [];
    let taken = 0;
    do {
      const written = await positions.applyTransitions(transitions.slice(taken, taken + chunk), report);
      taken = Math.min(transitions.length, taken + chunk);
      await recordWritten(written);
      applied.push(...written);
    } while (taken < transitions.length && budget && clock.now().getTime() < budget.until);
    const remaining = transitions.length - taken;

    const writtenChanges = applied.filter((t) => t.name !== 'create');
    // The payment list's rows followed the writes: the writer told its projection (payment-list/projection.ts).
    const written = applied.map((t) => t.after);
    const lost = taken - applied.length;
    // The month as it now stands, without reading it again: what was there, with what this run wrote. A
    // write that lost a race (or one left to the next slice) leaves that position unknown here: then the
    // caller reads the month again.
    const month = lost || remaining ? null : [...new Map([...existing, ...written].map((p) => [p.userId, p])).values()];

    const result: GenerationResult = {
      mese: period.mese,
      anno: period.anno,
      created: applied.length - writtenChanges.length,
      updated: writtenChanges.filter((t) => t.name !== 'cancel').length,
      cancelled: writtenChanges.filter((t) => t.name === 'cancel').length,
      unchanged: plan.unchanged.length + lost,
      exempt: plan.exempt,
      skipped: plan.skipped.slice(0, SKIPPED_SHOWN),
      skippedCount: plan.skipped.length,
    };
    return { result, usersById, month, remaining };
  }

  /**
   * The checks before a month's generation. `exportStep`: the export's own (its flow says whether it holds
   * the call's export lock: the lock is flows' own, read there); otherwise none may run while an export of
   * the call does.
   */
  async function prepare(
    callId: string,
    input: PeriodInput,
    exportStep: { flowId: string; underLock: boolean } | null = null,
  ) {
    const call = await requireCall(callId);
    const period = resolvePeriod(input, clock.now());
    // An archived call is over: no new positions (a closed one keeps billing). The export's own step was
    // allowed when its flow started ('Invia a MyPay' checks it).
    if (!exportStep && call.state === CallState.ARCHIVED) throw new ConflictError(positionOpsMessages.archived);
    if (!exportStep && (await exports.isRunning(callId))) throw new ConflictError(messages.positions.exportRunning);
    // Checked before anything is generated: the export needs every value (on MyPay, the CSV's).
    const config = await requireConfiguration();
    // Not while a citizen pays a position of the month (each write's condition holds it anyway).
    if (!exportStep && (await positions.hasLiveCheckouts(call.id, period, clock.now().toISOString())))
      throw new ConflictError(positionOpsMessages.checkoutLiveMonth);
    /** The flow that holds the call's export lock, when this generation is its own. */
    const lockedBy = exportStep?.underLock ? exportStep.flowId : null;
    return { call, config, period, lockedBy };
  }

  /**
   * Generates the month (as much of it as the budget allows), then its positions with a pending action (of one
   * citizen, if given), in the file's order, with their citizens, and the ISEEs of the month's fees. A month left
   * unfinished (`remaining` > 0) has no list yet: the next slice generates on.
   */
  async function pendingOfMonth(
    call: CallRecord,
    period: Period,
    fiscalCode: string | null,
    actor: Actor,
    exportingFlow: string | null = null,
    progress?: Progress,
    budget?: Budget,
  ) {
    const { result, usersById, month, remaining } = await generate(
      call,
      period,
      actor,
      { exportingFlow },
      progress,
      budget,
    );
    if (remaining > 0) return { finished: false as const, result, remaining };
    const current = month ?? (await positions.listPositionsOfMonth(call.id, period));
    const pending = current
      .filter(isPendingExport)
      .filter((p) => !fiscalCode || p.fiscalCode.toUpperCase() === fiscalCode)
      .sort((a, b) =>
        `${a.cognome} ${a.nome} ${a.fiscalCode}`.localeCompare(`${b.cognome} ${b.nome} ${b.fiscalCode}`, 'it'),
      );
    const missing = pending.filter((p) => !usersById.has(p.userId)).map((p) => p.userId);
    if (missing.length) for (const [id, user] of await users.getUserItems(missing)) usersById.set(id, user);
    // The ISEEs of the month's positions (not only those written now: a Prepare that stopped after its
    // writes left its ISEEs unmarked); the export marks those not marked yet (MarkIsees).
    const iseeIds = [...new Set(current.map((p) => p.iseeId).filter((id): id is string => Boolean(id)))];
    return { finished: true as const, result, pending, usersById, iseeIds };
  }

  /**
   * Generates the month, then the MyPay CSV of its positions with a pending action (of one citizen, if given); a
   * month the budget left unfinished has no file yet.
   */
  async function pendingCsv(
    call: CallRecord,
    config: Configuration,
    period: Period,
    fiscalCode: string | null,
    actor: Actor,
    exportingFlow: string | null = null,
    progress?: Progress,
    budget?: Budget,
  ) {
    const month = await pendingOfMonth(call, period, fiscalCode, actor, exportingFlow, progress, budget);
    if (!month.finished) return month;
    const { result, pending, usersById, iseeIds } = month;
    // A row MyPay would refuse for the citizen's data, or with a text that would run as a formula, stays out
    // of the file with its reason: the operator fixes the record and sends it again (it stays pending).
    const rows: ReturnType<typeof mypayCsvRow>[] = [];
    const heldBack: Skipped[] = [];
    const rules: MyPayRowRules = { today: romeDay(clock.now()), ...(deps.mypayRules ?? myPayRowRulesFromEnv()) };
    for (const position of pending) {
      const row = mypayCsvRow(position, payerOf(position, usersById.get(position.userId) ?? null), call, config);
      const reasons = heldBackReasons(row, rules);
      if (reasons.length)
        heldBack.push({
          fiscalCode: position.fiscalCode,
          cognome: position.cognome,
          nome: position.nome,
          reason: reasons.join('; '),
        });
      else rows.push(row);
    }
    return { finished: true as const, result, content: mypayCsv(rows), rows: rows.length, heldBack, iseeIds };
  }

  /** Generates the month, then the file of what the export will do at pagoPA with its pending positions (GPD). */
  async function pendingCheckCsv(call: CallRecord, period: Period, actor: Actor, progress?: Progress, budget?: Budget) {
    const month = await pendingOfMonth(call, period, null, actor, null, progress, budget);
    if (!month.finished) return month;
    const { result, pending, usersById } = month;
    const sent = pending.map((p) => platformPositionOf(p, usersById.get(p.userId)?.email ?? null));
    return {
      finished: true as const,
      result,
      content: platformCheckCsv(sent, romeDay(clock.now())),
      rows: sent.length,
      heldBack: [],
    };
  }

  const requireJobs = () => jobs ?? Promise.reject(new Error('Background jobs are not wired here'));

  const syncStatusOf = (status: { job: JobRecord | null; running: boolean }): SyncStatus => ({
    isUpdating: status.running,
    ...jobStatusOf(status, positionOpsMessages.syncFailed),
  });

  /**
   * 'Sincronizza' on a platform that keeps each position's state (GPD): the month's positions it was sent, read
   * there; payments made there are recorded (with the reporting's rules), a position invalidated there is cancelled,
   * one no longer payable there is marked to send again. Before the month's recalculation, which then sees them.
   */
  async function syncMonthWithPlatform(callId: string, period: Period, actor: Actor): Promise<void> {
    const platform = deps.platformSync;
    if (!platform) return;
    const sent = (await positions.listPositionsOfMonth(callId, period)).filter(syncsWithPlatform);
    const now = clock.now().toISOString();
    const states = await platform.positionStates(sent);
    const found = sent.map((position) => platformSync(position, states.get(position.iud) ?? null, now));
    const receipts = found.flatMap((f) => (f.kind === 'settle' ? f.payments.map(receiptOfPayment) : []));
    if (receipts.length) await platform.settlement.settle(receipts, actor, { callId, channel: 'reporting' });
    const written: Transition[] = [];
    for (const f of found)
      if ((f.kind === 'cancel' || f.kind === 'republish') && (await positions.applyTransition(f.transition)))
        written.push(f.transition);
    if (written.length)
      await audit.recordMany(
        written.map(({ before, after }) => ({
          actor,
          entity: 'position' as const,
          id: after.iud,
          action: 'update' as const,
          before,
          after,
        })),
        clock.now(),
      );
  }

  async function generatePositions(
    callId: string,
    input: PeriodInput,
    actor: Actor,
    progress?: Progress,
  ): Promise<GenerationResult> {
    const { call, period } = await prepare(callId, input);
    return (await generate(call, period, actor, undefined, progress)).result;
  }

  /**
   * 'Verifica / genera CSV': the month generated (as far as the budget allows), then its file left in the exports
   * bucket (the key, not a link) once the month is whole.
   */
  async function positionsCsvFile(
    callId: string,
    input: PeriodInput,
    actor: Actor,
    progress?: Progress,
    budget?: Budget,
  ): Promise<{ finished: false; result: GenerationResult; remaining: number } | { finished: true; stored: StoredCsv }> {
    const { call, config, period } = await prepare(callId, input);
    const month =
      deps.platformName === 'gpd'
        ? await pendingCheckCsv(call, period, actor, progress, budget)
        : // MyPay's import file needs MyPay's configuration.
          await pendingCsv(call, config ?? (await myPayConfiguration()), period, null, actor, null, progress, budget);
    if (!month.finished) return month;
    const { result, content, rows, heldBack } = month;
    const fileName = positionsCsvFileName(call.nomeMyPay, period);
    const key = `csv/${call.id}/${periodKey(period)}/${clock.now().toISOString()}/${fileName}`;
    await exportFiles.put(key, new TextEncoder().encode(content), CSV_CONTENT_TYPE);
    // The whole held-back list goes beside the file; the job's answer (one item) keeps the first ones.
    const heldBackKey = heldBack.length ? `${key.replace(/\.csv$/i, '')}_trattenute.csv` : null;
    if (heldBackKey)
      await exportFiles.put(heldBackKey, new TextEncoder().encode(heldBackCsv(heldBack)), CSV_CONTENT_TYPE);
    return {
      finished: true,
      stored: {
        ...result,
        fileName,
        key,
        rows,
        heldBack: heldBack.slice(0, SKIPPED_SHOWN),
        heldBackCount: heldBack.length,
        heldBackKey,
      },
    };
  }

  /**
   * A month's job in slices ('Generazione posizioni', 'Verifica / genera CSV'): each slice generates as much of the
   * month as its budget allows. The cursor carries what the slices before wrote, so that done/total are the positions
   * written so far (and those left), and the last slice answers the whole month's counts: the positions the earlier
   * slices wrote are in its plan as unchanged.
   */
  const sliceOfMonthJob = (cursor: string | null, progress?: Progress) => {
    const before = parseWrittenCursor(cursor);
    const earlier = writtenCount(before);
    return {
      budget: budgetFrom(deps.sliceBudget ?? SLICE_BUDGET, clock),
      progress: progress && ((done: number, total: number) => progress(earlier + done, earlier + total)),
      answer<R>(result: GenerationResult, remaining: number, finish: (whole: GenerationResult) => R) {
        const written: WrittenSoFar = {
          created: before.created + result.created,
          updated: before.updated + result.updated,
          cancelled: before.cancelled + result.cancelled,
        };
        const done = writtenCount(written);
        if (remaining > 0) return { cursor: JSON.stringify(written), done, total: done + remaining };
        const whole = { ...result, ...written, unchanged: Math.max(0, result.unchanged - earlier) };
        return { cursor: null, done, total: done, result: finish(whole) };
      },
    };
  };

  const generationStatusOf = (status: { job: JobRecord | null; running: boolean }): GenerationStatus =>
    resultJobStatus(status, positionOpsMessages.generationFailed, (stored) => stored as GenerationResult);
  const csvStatusOf = async (status: { job: JobRecord | null; running: boolean }): Promise<PositionsCsvStatus> => {
    const view = resultJobStatus(status, positionOpsMessages.csvFailed, (stored) => stored as StoredCsv);
    if (!view.result) return { ...view, result: null };
    // The link is made at each ask: it lives five minutes, the job's answer stays.
    return { ...view, result: await withLinks(view.result) };
  };

  /** The stored file's answer with fresh links to the CSV and, beside it, the whole held-back list. */
  async function withLinks({ key, heldBackKey, ...result }: StoredCsv): Promise<PositionsCsv> {
    const heldBackUrl = heldBackKey
      ? await exportFiles.downloadUrl(heldBackKey, `Trattenute_${result.fileName}`, CSV_CONTENT_TYPE)
      : null;
    return { ...result, url: await exportFiles.downloadUrl(key, result.fileName, CSV_CONTENT_TYPE), heldBackUrl };
  }

  /** Starts a month's job of `kind` on the call (its checks first: 404, an export running, the configuration). */
  async function startMonthJob(kind: string, running: string, callId: string, input: PeriodInput, actor: Actor) {
    const { call, period } = await prepare(callId, input);
    const job = await (
      await requireJobs()
    ).start(kind, call.id, { callId: call.id, mese: period.mese, anno: period.anno }, actor);
    if (!job) throw new ConflictError(running);
    await audit.recordMany(
      [{ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }],
      clock.now(),
    );
    return job;
  }
  const periodOf = (input: Record<string, unknown>): PeriodInput => ({
    mese: Number(input.mese),
    anno: Number(input.anno),
  });

  return {
    /** The month's positions created, updated or cancelled (the job's slice, 'Sincronizza', the tests). */
    generatePositions,

    /**
     * POST /api/calls/{id}/positions/generate: starts the month's generation as a background job (a month of
     * thousands of positions is longer than an API request may last): the status, at once; 409 while one
     * runs for the call. GET the same path: the status, with the counts once done.
     */
    async startGeneration(callId: string, input: PeriodInput, actor: Actor): Promise<GenerationStatus> {
      return generationStatusOf({
        job: await startMonthJob(GENERATE_JOB, positionOpsMessages.generationRunning, callId, input, actor),
        running: true,
      });
    },
    async generationStatus(callId: string): Promise<GenerationStatus> {
      const call = await requireCall(callId);
      return generationStatusOf(await (await requireJobs()).status(GENERATE_JOB, call.id));
    },
    /**
     * The job 'generate-positions': the month in slices (SLICE_BUDGET each, sliceOfMonthJob), with its progress; the
     * last slice answers the whole month's counts.
     */
    async generationSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor, progress?: Progress) {
      const slice = sliceOfMonthJob(cursor, progress);
      const { call, period } = await prepare(String(input.callId ?? ''), periodOf(input));
      const { result, remaining } = await generate(call, period, actor, undefined, slice.progress, slice.budget);
      return slice.answer(result, remaining, (whole) => whole);
    },

    /** POST /api/calls/{id}/positions/csv: 'Verifica / genera CSV' as a background job; GET: its status, with the file's link once done. */
    async startCsv(callId: string, input: PeriodInput, actor: Actor): Promise<PositionsCsvStatus> {
      return csvStatusOf({
        job: await startMonthJob(CSV_JOB, positionOpsMessages.csvRunning, callId, input, actor),
        running: true,
      });
    },
    async csvStatus(callId: string): Promise<PositionsCsvStatus> {
      const call = await requireCall(callId);
      return csvStatusOf(await (await requireJobs()).status(CSV_JOB, call.id));
    },
    /**
     * The job 'positions-csv': the generation in slices as 'generate-positions', then (in the last) the file in the
     * exports bucket; its answer keeps the file's key.
     */
    async csvSlice(input: Record<string, unknown>, cursor: string | null, actor: Actor, progress?: Progress) {
      const slice = sliceOfMonthJob(cursor, progress);
      const file = await positionsCsvFile(
        String(input.callId ?? ''),
        periodOf(input),
        actor,
        slice.progress,
        slice.budget,
      );
      return file.finished
        ? slice.answer(file.stored, 0, (whole): StoredCsv => ({ ...file.stored, ...whole }))
        : slice.answer(file.result, file.remaining, (whole) => whole);
    },

    /**
     * PUT /api/positions/{id} (the payment edit modal, operator-admin §5): a new description and amount.
     * 0 cancels the position (final), another amount changes it (both with the rule planMonth applies,
     * `withAmount`); a paid or cancelled position, or one of a call being exported, is a 409. One
     * conditional write on the version read: an edit racing another change writes nothing.
     */
    async editPosition(iud: string, input: PositionEdit, actor: Actor): Promise<Position> {
      const before = await positions.getPositionByIud(iud);
      if (!before) throw new NotFoundError(positionOpsMessages.notFound);
      const now = clock.now();
      if (isFinal(before)) throw new ConflictError(positionOpsMessages.final);
      if (isHeld(before, now)) throw new ConflictError(positionOpsMessages.checkoutLive);
      // The copy the operator edited is no longer the stored one: another operator saved in between.
      if (input.updatedAt && input.updatedAt !== before.updatedAt)
        throw new ConflictError(positionOpsMessages.staleCopy);
      if (await exports.isRunning(before.callId)) throw new ConflictError(positionOpsMessages.exportRunningEdit);
      if (before.importoDovuto === input.importoCents && before.descrizione === input.descrizione)
        return publicPosition(before);
      const change = edit(before, input.importoCents, input.descrizione, now.toISOString());
      const { after } = change;
      if (!(await positions.applyTransition(change))) {
        // Lost to another write: say which.
        const current = await positions.getPositionByIud(iud);
        if (current && isFinal(current)) throw new ConflictError(positionOpsMessages.final);
        if (current && isHeld(current, clock.now())) throw new ConflictError(positionOpsMessages.checkoutLive);
        throw new ConflictError(positionOpsMessages.staleCopy);
      }
      await audit.recordMany([{ actor, entity: 'position', id: after.iud, action: 'update', before, after }], now);
      return publicPosition(after);
    },

    /**
     * POST /api/positions/{id}/reconciliation ('Chiudi riconciliazione', issue 21): the operator closes a
     * payment to reconcile with a note (the refund made, the difference accepted). The payments stay; the
     * payment list's row, its filter and the statistics no longer count it. A position not to reconcile
     * (never, or closed already) or a stale copy is a 409 and changes nothing.
     */
    async closeReconciliation(iud: string, input: ReconciliationClose, actor: Actor): Promise<Position> {
      const before = await positions.getPositionByIud(iud);
      if (!before) throw new NotFoundError(positionOpsMessages.notFound);
      if (!before.riconciliazione) throw new ConflictError(positionOpsMessages.notToReconcile);
      if (input.updatedAt && input.updatedAt !== before.updatedAt)
        throw new ConflictError(positionOpsMessages.staleCopy);
      const now = clock.now();
      const close = closeReconciliation(
        before,
        { nota: input.nota, chiusaDa: actor.fullName || actor.email || actor.sub },
        now.toISOString(),
      )!;
      const { after } = close;
      if (!(await positions.applyTransition(close))) {
        // Lost to another write (another operator closed it, a payment arrived): say which.
        const current = await positions.getPositionByIud(iud);
        throw new ConflictError(
          current?.riconciliazione ? positionOpsMessages.staleCopy : positionOpsMessages.notToReconcile,
        );
      }
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
      if (call.state === CallState.ARCHIVED) throw new ConflictError(positionOpsMessages.archived);
      if (await exports.isRunning(call.id)) throw new ConflictError(messages.positions.exportRunning);
      await requireConfiguration();
      if (await positions.hasLiveCheckouts(call.id, null, clock.now().toISOString()))
        throw new ConflictError(positionOpsMessages.checkoutLiveCall);
      const job = await (await requireJobs()).start(SYNC_JOB, call.id, { callId: call.id }, actor);
      if (!job) throw new ConflictError(positionOpsMessages.syncRunning);
      await audit.recordMany(
        [{ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }],
        clock.now(),
      );
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
     * month with the month's generation (current hours and ISEE, the same rules, the same audit), as much of it
     * as its budget allows (sliceBudget): a month left unfinished is the next slice's too (`resume`: its platform
     * states were read already). The cursor is the list of months and the next one; regenerating is idempotent,
     * so a slice run twice changes nothing more.
     */
    async syncSlice(
      input: Record<string, unknown>,
      cursor: string | null,
      actor: Actor,
    ): Promise<{ cursor: string | null; done: number; total: number }> {
      const callId = String(input.callId ?? '');
      if (cursor === null) {
        const call = await requireCall(callId);
        const current = currentPeriod(clock.now());
        const candidates = syncCandidateMonths(call.year, current);
        const open = await mapAtMost(candidates, 6, async (period) =>
          (await positions.hasOpenPositions(call.id, period)) ? periodKey(period) : null,
        );
        const months = [...new Set([...open.filter((m): m is string => m !== null), periodKey(current)])].sort();
        return { cursor: JSON.stringify({ months, next: 0 }), done: 0, total: months.length };
      }
      const { months, next, resume } = parseSyncCursor(cursor);
      const [anno, mese] = months[next].split('-').map(Number);
      const budget = budgetFrom(deps.sliceBudget ?? SLICE_BUDGET, clock);
      // A month resumed was read at the platform by the slice that began it.
      if (!resume) await syncMonthWithPlatform(callId, { mese, anno }, actor);
      const { call, period } = await prepare(callId, { mese, anno });
      const { remaining } = await generate(call, period, actor, undefined, undefined, budget);
      if (remaining > 0)
        return { cursor: JSON.stringify({ months, next, resume: true }), done: next, total: months.length };
      const done = next + 1;
      // The last slice also recomputes the payment list's totals of those years from their rows (a write
      // interrupted between a row and its totals is repaired here).
      if (done === months.length)
        for (const year of new Set(months.map((month) => Number(month.slice(0, 4)))))
          await summaries.reconcileDebtTotals(callId, year);
      return {
        cursor: done < months.length ? JSON.stringify({ months, next: done }) : null,
        done,
        total: months.length,
      };
    },

    /**
     * 'Verifica / genera CSV' (part 2 §2.11, §7 export-csv): generates the month first (so the file is
     * what an export would send now), then the MyPay CSV of the month's positions with a pending action
     * (new, changed, cancelled, or refused last time). Paid positions and those already accepted as they
     * are never appear.
     */
    async positionsCsv(callId: string, input: PeriodInput, actor: Actor): Promise<PositionsCsv> {
      const file = await positionsCsvFile(callId, input, actor);
      if (!file.finished) throw new Error('Il mese non è stato generato per intero.');
      return withLinks(file.stored);
    },

    /**
     * The export's file (functions/flows, step Prepare): the same month generation and the same CSV as
     * 'Verifica / genera CSV', run by the flow that holds the call's export lock; one citizen only for the
     * single payment. One call generates as much of the month as EXPORT_SLICE_BUDGET allows: a month left
     * unfinished answers `finished: false`, and the step is called again (it plans the month again and goes on).
     */
    async exportCsv(request: MonthExportRequest, actor: Actor): Promise<PreparedExport<{ csv: string; rows: number }>> {
      const { call, config, period, lockedBy } = await prepare(
        request.callId,
        { mese: request.mese, anno: request.anno },
        { flowId: request.flowId, underLock: request.underLock },
      );
      // Only a flow that holds the call's export lock may batch its creates (generate).
      const month = await pendingCsv(
        call,
        config ?? (await myPayConfiguration()),
        period,
        request.fiscalCode,
        actor,
        lockedBy,
        undefined,
        budgetFrom(deps.exportSliceBudget ?? EXPORT_SLICE_BUDGET, clock),
      );
      if (!month.finished) return { finished: false, remaining: month.remaining };
      const { content, rows, heldBack, iseeIds } = month;
      // Without the lock the generation marked its ISEEs itself.
      return { finished: true, csv: content, rows, heldBack, iseeIds: lockedBy ? iseeIds : [] };
    },

    /**
     * The export's positions for a platform that takes them one by one (GPD, issue 37; step Prepare): the same
     * month generation as exportCsv, then each pending position as the port sends them. The positions to create
     * that have no IUV yet get one from the council's sequence, a chunk at a time, saved on them through the one
     * writer BEFORE anything is sent, so a retried step sends the same IUV and iupd. The same budget bounds the
     * generation and the IUVs: a call that runs out of it answers `finished: false` and the next goes on (a
     * position that has its IUV keeps it; a block reserved for a chunk cut short leaves a gap in the sequence).
     */
    async exportPlatformPositions(
      request: MonthExportRequest,
      actor: Actor,
    ): Promise<PreparedExport<{ positions: PlatformPosition[] }>> {
      const { call, period, lockedBy } = await prepare(
        request.callId,
        { mese: request.mese, anno: request.anno },
        { flowId: request.flowId, underLock: request.underLock },
      );
      const budget = budgetFrom(deps.exportSliceBudget ?? EXPORT_SLICE_BUDGET, clock);
      const month = await pendingOfMonth(call, period, request.fiscalCode, actor, lockedBy, undefined, budget);
      if (!month.finished) return { finished: false, remaining: month.remaining };
      const { pending, usersById, iseeIds } = month;
      const without = pending.filter(needsIuv);
      if (without.length && !deps.iuvSequence)
        throw new Error('La sequenza degli IUV dell’ente non è configurata (GPD).');
      const byIud = new Map<string, PositionRecord>();
      let taken = 0;
      // At least one chunk: every call moves on, also one whose generation used the whole budget.
      while (taken < without.length && (taken === 0 || clock.now().getTime() < budget.until)) {
        const chunk = without.slice(taken, taken + Math.max(1, budget.chunk));
        const iuvs = await deps.iuvSequence!.reserveIuvs(chunk.length);
        const at = clock.now().toISOString();
        const saved = await positions.applyTransitions(
          chunk.map((position, i) => reserveIuv(position, iuvs[i]!, at, lockedBy !== null)),
        );
        for (const t of saved) byIud.set(t.after.iud, t.after);
        taken += chunk.length;
      }
      if (taken < without.length) return { finished: false, remaining: without.length - taken };
      // A position whose IUV could not be saved (changed meanwhile: only without the lock) waits for the next export.
      const ready = pending.flatMap((p) => (needsIuv(p) ? (byIud.has(p.iud) ? [byIud.get(p.iud)!] : []) : [p]));
      return {
        finished: true,
        positions: ready.map((p) => platformPositionOf(p, usersById.get(p.userId)?.email ?? null)),
        iseeIds: lockedBy ? iseeIds : [],
      };
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
    async recordExportResults(
      request: { callId: string; mese: number; anno: number; flowId?: string; noticeZip?: string | null },
      results: ExportResults,
    ): Promise<void> {
      const at = clock.now().toISOString();
      const month = { callId: request.callId, mese: request.mese, anno: request.anno };
      const fence = results.accepted.length + results.rejected.length > 0;
      if (fence) await positions.openWriteBack(month, request.flowId ?? '', at);
      // The month's positions in one read (not one index lookup per row): each verdict goes to its
      // position by key, and one that is already there is not written again (a restarted Collect).
      const byIud = new Map((await positions.listPositionsOfMonth(request.callId, request)).map((p) => [p.iud, p]));
      const verdicts: { iud: string; outcome: ExportOutcome }[] = [
        // A position MyPay made no new notice for (a change of one it held) keeps the notice it had.
        ...results.accepted.map(({ iud, iuv, nav, notice }) => ({
          iud,
          outcome: {
            kind: 'accepted' as const,
            iuv,
            nav,
            at,
            noticeZip: notice === false ? null : (request.noticeZip ?? null),
          },
        })),
        ...results.rejected.map(({ iud, code, reason }) => ({
          iud,
          outcome: { kind: 'rejected' as const, reason: `${code ? `${code}: ` : ''}${reason}`.slice(0, 500), at },
        })),
      ];
      const outcomes = verdicts.flatMap(({ iud, outcome }) => {
        const position = byIud.get(iud);
        return position && !hasExportOutcome(position, outcome) ? [{ position, outcome }] : [];
      });
      await positions.applyTransitions(outcomes.map(({ position, outcome }) => recordExportOutcome(position, outcome)));
      if (!fence) return;
      for (;;) {
        const { receipts, count } = await positions.writeBackReceipts(month);
        for (const receipt of receipts) await positions.repairPayment(month, receipt);
        if (await positions.closeWriteBack(month, count)) break;
      }
    },

    async listPositions(
      callId: string,
      query: PeriodInput & { limit?: number; cursor?: string },
    ): Promise<Page<Position>> {
      await requireCall(callId);
      const { limit, cursor, ...periodInput } = query;
      return positions.listPositions(callId, resolvePeriod(periodInput, clock.now()), { limit, cursor });
    },
  };
}

/** What the earlier slices of a month's job wrote (its cursor). */
interface WrittenSoFar {
  created: number;
  updated: number;
  cancelled: number;
}
const writtenCount = (written: WrittenSoFar) => written.created + written.updated + written.cancelled;

function parseWrittenCursor(cursor: string | null): WrittenSoFar {
  if (cursor === null) return { created: 0, updated: 0, cancelled: 0 };
  const parsed = JSON.parse(cursor) as Record<string, unknown>;
  const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : -1);
  const written = {
    created: count(parsed.created),
    updated: count(parsed.updated),
    cancelled: count(parsed.cancelled),
  };
  if (Object.values(written).some((n) => n < 0)) throw new ValidationError('Cursore della generazione non valido.');
  return written;
}

function parseSyncCursor(cursor: string): { months: string[]; next: number; resume: boolean } {
  const parsed = JSON.parse(cursor) as { months?: unknown; next?: unknown; resume?: unknown };
  const months = Array.isArray(parsed.months)
    ? parsed.months.filter((m): m is string => typeof m === 'string' && /^\d{4}-\d{2}$/.test(m))
    : [];
  const next = typeof parsed.next === 'number' ? parsed.next : -1;
  if (!months.length || next < 0 || next >= months.length)
    throw new ValidationError('Cursore del ricalcolo non valido.');
  return { months, next, resume: parsed.resume === true };
}

export type PaymentUseCases = ReturnType<typeof makePaymentUseCases>;
