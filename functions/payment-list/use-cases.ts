import type { PositionRecord } from '../domain/debt-positions.ts';
import {
  DEBT_FILTER_COUNT_CAP,
  addTotals,
  isZeroDelta,
  sameSummary,
  summaryPersonOf,
  readNameFilter,
  summarize,
  totalsDelta,
  zeroTotals,
  type DebtSort,
  type DebtSummaryRow,
  type DebtTotals,
} from '../domain/debt-summary-rules.ts';
import type {
  DebtListQuery,
  DebtListResponse,
  DebtTotalsQuery,
  DebtTotalsResponse,
  MissingIseeResponse,
} from '../domain/debt-summaries.ts';
import { NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import { currentPeriod } from '../domain/period.ts';
import type { Page } from '../domain/validation.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { StoredUser } from '../domain/user-record.ts';
import type { DebtListFilter, StoredDebtSummary, SummaryKey } from './repository.ts';

/**
 * The payment list (operator-admin §2 "Payment list") on maintained aggregates, so that its pages and
 * totals cost the same with 600 or 600,000 positions (README "The payment list"):
 *
 * - `refreshDebtSummaries(changes)` recomputes the summary of each (call, year, citizen) from that
 *   citizen's twelve positions of the year (read consistently by key) and writes it only if the stored
 *   one is still the version it read; the writer that wins adds the change's delta to the call-year's
 *   totals (ADD), a loser reads again and retries. The projection of the position writes calls it
 *   (projection.ts: the one writer of positions tells it every write).
 * - `reconcileDebtTotals(callId, anno)` recomputes a call-year's totals exactly from its summaries (a
 *   crash between a summary's write and its ADD would otherwise leave the totals off): 'Sincronizza'.
 */

/** What refreshing and reconciling need (the payments function, every position writer). */
export interface DebtWriteRepository {
  getDebtSummaries(which: readonly SummaryKey[]): Promise<Map<string, StoredDebtSummary>>;
  /** `hadToReconcile`: the stored summary had a payment to reconcile (its filter marker then follows). */
  putDebtSummary(
    summary: StoredDebtSummary,
    expectedVersion: number | null,
    hadToReconcile?: boolean,
  ): Promise<boolean>;
  addToDebtTotals(callId: string, anno: number, delta: DebtTotals, at: string): Promise<void>;
  putDebtTotals(callId: string, anno: number, totals: DebtTotals, at: string): Promise<void>;
  sumDebtSummaries(callId: string, anno: number): Promise<DebtTotals>;
}

/** What the payment list reads (the payment-list function). */
export interface DebtReadRepository {
  getDebtTotals(callId: string, anno: number): Promise<DebtTotals>;
  listDebtSummaries(
    callId: string,
    anno: number,
    filter: DebtListFilter,
    sort: DebtSort,
    page: { limit: number; cursor?: string },
  ): Promise<Page<DebtSummaryRow>>;
  countDebtSummaries(
    callId: string,
    anno: number,
    filter: DebtListFilter,
    cap: number,
  ): Promise<{ count: number; sum: number; capped: boolean }>;
}

export type DebtSummaryRepository = DebtWriteRepository & DebtReadRepository;

/** The positions a refresh sums (positions/payment-list-repository.ts: the positions' items). */
export interface YearPositions {
  positionsOfYears(which: readonly SummaryKey[]): Promise<PositionRecord[]>;
}

export interface DebtRefreshDeps {
  debts: DebtWriteRepository;
  positions: YearPositions;
  users: { getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> };
  clock: Clock;
}
export interface DebtListDeps {
  debts: DebtReadRepository;
  calls: { getCall(id: string): Promise<CallRecord | null> };
  clock: Clock;
  /** The months' subscribers left without a position for 'ISEE scaduto o mancante' (written by each generation). */
  missingIsee?: { listMissingIsee(callId: string, anno: number): Promise<MissingIseeResponse['months']> };
}

/** A position write to reflect: which call, citizen and year changed. */
export interface DebtChange {
  callId: string;
  userId: string;
  anno: number;
}

/** Summaries refreshed at once (each reads 12 positions by key: 600 keys, 6 BatchGetItem calls). */
const REFRESH_CHUNK = 50;
/** A summary whose conditional write keeps losing is read and computed again, at most this often. */
const MAX_ATTEMPTS = 8;

const keyOf = (k: SummaryKey) => `${k.callId}|${k.anno}|${k.userId}`;
const callYearOf = (k: Pick<SummaryKey, 'callId' | 'anno'>) => `${k.callId}|${k.anno}`;

const personOf = summaryPersonOf;

/** Refresh and reconcile: what every position writer needs (kept apart from the list's reads, and its bundle). */
export function makeDebtRefreshUseCases(deps: DebtRefreshDeps) {
  const { debts, positions: yearPositions, users, clock } = deps;

  async function refreshChunk(changes: readonly SummaryKey[], at: string) {
    let pending = [...changes];
    const people = await users.getUserItems([...new Set(changes.map((c) => c.userId))]);
    let written = 0;
    for (let attempt = 0; pending.length && attempt < MAX_ATTEMPTS; attempt++) {
      const [stored, positions] = await Promise.all([
        debts.getDebtSummaries(pending),
        yearPositions.positionsOfYears(pending),
      ]);
      const positionsByKey = new Map<string, PositionRecord[]>();
      for (const position of positions) {
        const key = keyOf({ callId: position.callId, anno: position.anno, userId: position.userId });
        positionsByKey.set(key, [...(positionsByKey.get(key) ?? []), position]);
      }
      const deltas = new Map<string, { callId: string; anno: number; delta: DebtTotals }>();
      const lost: SummaryKey[] = [];
      await Promise.all(
        pending.map(async (change) => {
          const key = keyOf(change);
          const before = stored.get(key) ?? null;
          const next = summarize({
            ...change,
            positions: positionsByKey.get(key) ?? [],
            person: personOf(people.get(change.userId)),
          });
          // No position (none was ever written for that year): nothing to list. Positions are never deleted.
          if (!next || (before && sameSummary(before, next))) return;
          const won = await debts.putDebtSummary(
            { ...next, version: (before?.version ?? 0) + 1, updatedAt: at },
            before?.version ?? null,
            (before?.daRiconciliare ?? 0) > 0,
          );
          if (!won) return void lost.push(change);
          written += 1;
          const delta = totalsDelta(before?.contribution ?? null, next.contribution);
          const entry = deltas.get(callYearOf(change)) ?? {
            callId: change.callId,
            anno: change.anno,
            delta: zeroTotals(),
          };
          entry.delta = addTotals(entry.delta, delta);
          deltas.set(callYearOf(change), entry);
        }),
      );
      // Only the writers whose conditional put won add their delta: one ADD per call-year of the chunk.
      await Promise.all(
        [...deltas.values()]
          .filter((d) => !isZeroDelta(d.delta))
          .map((d) => debts.addToDebtTotals(d.callId, d.anno, d.delta, at)),
      );
      pending = lost;
    }
    if (pending.length)
      throw new Error(
        `Riepiloghi dei pagamenti non aggiornati dopo ${MAX_ATTEMPTS} tentativi: ${pending.map(keyOf).join(', ')}`,
      );
    return written;
  }

  return {
    /**
     * Brings the payment list up to date after position writes: one call per batch of writes, with the
     * (call, citizen, year) of each written position (duplicates are fine). Idempotent: a summary that
     * already matches its positions is not written again.
     */
    async refreshDebtSummaries(changes: readonly DebtChange[]): Promise<{ refreshed: number }> {
      const unique = [
        ...new Map(changes.map((c) => [keyOf(c), { callId: c.callId, anno: c.anno, userId: c.userId }])).values(),
      ];
      const at = clock.now().toISOString();
      let refreshed = 0;
      for (let i = 0; i < unique.length; i += REFRESH_CHUNK)
        refreshed += await refreshChunk(unique.slice(i, i + REFRESH_CHUNK), at);
      return { refreshed };
    },

    /** Recomputes a call-year's totals exactly from its summaries (for 'Sincronizza'); returns them. */
    async reconcileDebtTotals(callId: string, anno: number): Promise<DebtTotals> {
      const totals = await debts.sumDebtSummaries(callId, anno);
      await debts.putDebtTotals(callId, anno, totals, clock.now().toISOString());
      return totals;
    },
  };
}

/** The payment list's reads (the payment-list function): the page with its count and sum, and the totals. */
export function makeDebtListUseCases(deps: DebtListDeps) {
  const { debts, calls, clock } = deps;
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const yearOf = (anno: number | undefined) => anno ?? currentPeriod(clock.now()).anno;
  return {
    /**
     * GET /api/calls/{id}/payment-list: one page of the call-year's rows, 'Record trovati' and the sum.
     * Without text they are the maintained totals (one GetItem). With text they are counted, bounded, in
     * parallel with the page: at most DEBT_FILTER_COUNT_CAP + 1 matches are read (their amounts only),
     * and beyond the cap the figures are lower bounds, flagged
     * `countCapped` (the page says so). The request's reads never grow with the table.
     */
    async listDebtSummaries(callId: string, query: DebtListQuery): Promise<DebtListResponse> {
      const anno = yearOf(query.anno);
      const text = readNameFilter(query.name);
      const filter: DebtListFilter = { text, noMail: query.chkNoSendMail, toReconcile: query.chkDaRiconciliare };
      const pageOf = () =>
        debts.listDebtSummaries(callId, anno, filter, query.sort, { limit: query.limit, cursor: query.cursor });
      if (!text && !filter.toReconcile) {
        const [call, totals, page] = await Promise.all([
          requireCall(callId),
          debts.getDebtTotals(callId, anno),
          pageOf(),
        ]);
        const counted = query.chkNoSendMail
          ? { count: totals.cittadiniSenzaEmail, sum: totals.importoSenzaEmail }
          : { count: totals.cittadini, sum: totals.dovuto };
        return { ...page, ...counted, countCapped: false, callName: call.name, anno };
      }
      // The count reads alongside the page, not after it: one round of reads, not two (a match set the
      // first page holds whole is read twice, a page's worth of items at most).
      const [call, page, counted] = await Promise.all([
        requireCall(callId),
        pageOf(),
        debts.countDebtSummaries(callId, anno, filter, DEBT_FILTER_COUNT_CAP),
      ]);
      return {
        ...page,
        count: counted.count,
        countCapped: counted.capped,
        sum: counted.sum,
        callName: call.name,
        anno,
      };
    },

    /** GET /api/calls/{id}/payment-list/missing-isee: per month, who has no position because their ISEE expired or is missing. */
    async missingIsee(callId: string, query: DebtTotalsQuery): Promise<MissingIseeResponse> {
      const anno = yearOf(query.anno);
      const [, months] = await Promise.all([
        requireCall(callId),
        deps.missingIsee?.listMissingIsee(callId, anno) ?? [],
      ]);
      return { anno, months };
    },

    /** GET /api/calls/{id}/payment-totals: the call-year's totals (years from 2025, the fixed start date). */
    async debtTotals(callId: string, query: DebtTotalsQuery): Promise<DebtTotalsResponse> {
      const anno = yearOf(query.anno);
      const [, totals] = await Promise.all([requireCall(callId), debts.getDebtTotals(callId, anno)]);
      return { callId, anno, dal: `${anno}-01-01`, ...totals };
    },
  };
}

export type DebtRefreshUseCases = ReturnType<typeof makeDebtRefreshUseCases>;

/** Both sides on one set of dependencies (the use-case tests). */
export const makeDebtSummaryUseCases = (deps: DebtRefreshDeps & DebtListDeps & { debts: DebtSummaryRepository }) => ({
  ...makeDebtRefreshUseCases(deps),
  ...makeDebtListUseCases(deps),
});
