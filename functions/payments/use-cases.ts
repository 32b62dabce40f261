import type { Band } from '../domain/bands.ts';
import type { Configuration } from '../domain/configuration.ts';
import { isPendingExport, planMonth, type PlannedSubscription, type PositionRecord } from '../domain/debt-positions.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { monthlyFee } from '../domain/fee.ts';
import { messages } from '../domain/messages.ts';
import { mypayCsv, mypayCsvRow, type Payer } from '../domain/mypay-csv.ts';
import {
  positionsCsvFileName,
  resolvePeriod,
  type GenerationResult,
  type Period,
  type PeriodInput,
  type Position,
  type PositionsCsv,
} from '../domain/payments.ts';
import type { Actor } from '../domain/roles.ts';
import type { Page } from '../domain/validation.ts';
import type { AuditEntry, Clock } from '../adapters/ports.ts';
import type { ExportResults } from '../flows/use-cases.ts';
import type { CallRecord } from '../calls/repository.ts';
import { requireCompleteConfiguration, type ConfigurationRepository } from '../configuration/use-cases.ts';
import type { SubscriptionRecord } from '../subscriptions/repository.ts';
import type { DebtRefreshUseCases } from '../payment-list/use-cases.ts';
import type { StoredUser } from '../users/repository.ts';

export interface PositionRepository {
  listPositionsOfMonth(callId: string, period: Period): Promise<PositionRecord[]>;
  /** MyPay's verdict on an exported position, unless it changed since the file was built (false then). */
  recordExportOutcome(iud: string, outcome: ExportOutcome): Promise<boolean>;
  listPositions(callId: string, period: Period, page: { limit?: number; cursor?: string }): Promise<Page<Position>>;
  createPosition(position: PositionRecord): Promise<boolean>;
  replacePosition(position: PositionRecord, expectedVersion: number): Promise<boolean>;
}

export type ExportOutcome = { kind: 'accepted'; iuv: string; nav: string; at: string } | { kind: 'rejected'; reason: string; at: string };

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
  /** The payment list's aggregates (functions/payment-list/use-cases.ts): every position write refreshes them. */
  summaries: Pick<DebtRefreshUseCases, 'refreshDebtSummaries'>;
  clock: Clock;
}

/** Conditional writes in flight at once. */
const WRITES_AT_ONCE = 50;

/** Runs `work` over `items`, `size` at a time (DynamoDB calls in parallel, but not thousands at once). */
async function inChunks<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
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

export function makePaymentUseCases(deps: PaymentDeps) {
  const { positions, calls, bands, subscriptions, users, isees, configuration, exports, audit, summaries, clock } = deps;
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));

  /**
   * Applies the month's plan (domain planMonth) with conditional writes: a create fails if the position
   * exists, a change fails if the stored version moved or the position got paid or cancelled meanwhile.
   * A write that loses such a race changes nothing and counts as unchanged: running twice, or twice at
   * once, never makes a second position.
   */
  async function generate(call: CallRecord, period: Period, actor: Actor) {
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
      const isee = user?.lastIsee?.state === 'VALIDATED' ? user.lastIsee : null;
      return {
        userId: subscription.userId,
        fiscalCode: user?.fiscalCode ?? subscription.fiscalCode,
        firstName: user?.firstName ?? subscription.firstName,
        lastName: user?.lastName ?? subscription.lastName,
        iseeId: isee?.id ?? null,
        fee: monthlyFee({ iseeCents: isee ? isee.valueCents : null, bands: callBands, weeklyHours: subscription.weeklyHour ?? 0, year: period.anno, month: period.mese }),
      };
    });
    const plan = planMonth({ call: { id: call.id, name: call.name, serviceName: call.serviceName }, period, existing, subscriptions: planned, now: at });

    const created = await inChunks(plan.create, WRITES_AT_ONCE, async (position) => ((await positions.createPosition(position)) ? position : null));
    const changes = [...plan.update.map((c) => ({ ...c, kind: 'update' as const })), ...plan.cancel.map((c) => ({ ...c, kind: 'cancel' as const }))];
    const changed = await inChunks(changes, WRITES_AT_ONCE, async (change) => ((await positions.replacePosition(change.after, change.before.version)) ? change : null));

    const writtenCreates = created.filter((p): p is PositionRecord => p !== null);
    const writtenChanges = changed.filter((c): c is (typeof changes)[number] => c !== null);
    await summaries.refreshDebtSummaries([...writtenCreates, ...writtenChanges.map((c) => c.after)].map((p) => ({ callId: p.callId, userId: p.userId, anno: p.anno })));
    const usedIsees = new Set([...writtenCreates, ...writtenChanges.map((c) => c.after)].map((p) => p.iseeId).filter((id): id is string => Boolean(id)));
    const toMark = usedIsees.size ? await isees.iseesNotYetUsedForFee([...usedIsees]) : [];
    await inChunks(toMark, WRITES_AT_ONCE, (id) => isees.markIseeUsedForFee(id, at));
    await audit.recordMany(
      [
        ...writtenCreates.map((after) => ({ actor, entity: 'position', id: after.iud, action: 'create' as const, before: null, after })),
        ...writtenChanges.map((c) => ({ actor, entity: 'position', id: c.after.iud, action: 'update' as const, before: c.before, after: c.after })),
      ],
      now,
    );

    const lost = plan.create.length - writtenCreates.length + changes.length - writtenChanges.length;
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
    return { result, usersById };
  }

  async function prepare(callId: string, input: PeriodInput, exportingFlow: string | null = null) {
    const call = await requireCall(callId);
    const running = await exports.runningExportOf(callId);
    if (running && running !== exportingFlow) throw new ConflictError(messages.positions.exportRunning);
    // Checked before anything is generated: the CSV and the export need every value.
    const config: Configuration = await requireCompleteConfiguration(configuration);
    return { call, config, period: resolvePeriod(input, clock.now()) };
  }

  /** Generates the month, then the MyPay CSV of its positions with a pending action (of one citizen, if given). */
  async function pendingCsv(call: CallRecord, config: Configuration, period: Period, fiscalCode: string | null, actor: Actor) {
    const { result, usersById } = await generate(call, period, actor);
    const pending = (await positions.listPositionsOfMonth(call.id, period))
      .filter(isPendingExport)
      .filter((p) => !fiscalCode || p.fiscalCode.toUpperCase() === fiscalCode)
      .sort((a, b) => `${a.cognome} ${a.nome} ${a.fiscalCode}`.localeCompare(`${b.cognome} ${b.nome} ${b.fiscalCode}`, 'it'));
    const missing = pending.filter((p) => !usersById.has(p.userId)).map((p) => p.userId);
    if (missing.length) for (const [id, user] of await users.getUserItems(missing)) usersById.set(id, user);
    const rows = pending.map((position) => mypayCsvRow(position, payerOf(position, usersById.get(position.userId) ?? null), call, config));
    return { result, content: mypayCsv(rows), rows: rows.length };
  }

  return {
    /** POST /api/calls/{id}/positions/generate: the month's positions created, updated or cancelled. */
    async generatePositions(callId: string, input: PeriodInput, actor: Actor): Promise<GenerationResult> {
      const { call, period } = await prepare(callId, input);
      return (await generate(call, period, actor)).result;
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
      return { ...result, fileName: positionsCsvFileName(call.nomeMyPay, period), content, rows };
    },

    /**
     * The export's file (functions/flows, step Prepare): the same month generation and the same CSV as
     * 'Verifica / genera CSV', run by the flow that holds the call's export lock; one citizen only for the
     * single payment.
     */
    async exportCsv(request: { callId: string; mese: number; anno: number; fiscalCode: string | null; flowId: string }, actor: Actor) {
      const { call, config, period } = await prepare(request.callId, { mese: request.mese, anno: request.anno }, request.flowId);
      const { content, rows } = await pendingCsv(call, config, period, request.fiscalCode, actor);
      return { csv: content, rows };
    },

    /**
     * MyPay's verdict, written back by IUD: an accepted position gets its IUV and notice number (and is
     * known to MyPay from then on), a rejected one the reason. Writing the same verdict twice changes
     * nothing; a position that changed since the file was built keeps its pending change.
     */
    async recordExportResults(results: ExportResults): Promise<void> {
      const at = clock.now().toISOString();
      await inChunks(results.accepted, WRITES_AT_ONCE, ({ iud, iuv, nav }) => positions.recordExportOutcome(iud, { kind: 'accepted', iuv, nav, at }));
      await inChunks(results.rejected, WRITES_AT_ONCE, ({ iud, code, reason }) =>
        positions.recordExportOutcome(iud, { kind: 'rejected', reason: `${code ? `${code}: ` : ''}${reason}`.slice(0, 500), at }),
      );
    },

    async listPositions(callId: string, query: PeriodInput & { limit?: number; cursor?: string }): Promise<Page<Position>> {
      await requireCall(callId);
      const { limit, cursor, ...periodInput } = query;
      return positions.listPositions(callId, resolvePeriod(periodInput, clock.now()), { limit, cursor });
    },
  };
}

export type PaymentUseCases = ReturnType<typeof makePaymentUseCases>;
