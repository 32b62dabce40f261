/**
 * The payment list's aggregates in memory (the DebtSummaryRepository the DynamoDB one implements): the
 * same version condition, the same ADD of deltas, the same orders and prefixes, offset cursors.
 */
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import {
  addTotals,
  compareRows,
  nameKey,
  zeroTotals,
  type DebtSummaryRow,
  type DebtTotals,
} from '../../functions/domain/debt-summaries.ts';
import { ValidationError } from '../../functions/domain/errors.ts';
import { messages } from '../../functions/domain/messages.ts';
import type { DebtSummaryRepository, YearPositions } from '../../functions/payment-list/use-cases.ts';
import type { StoredDebtSummary } from '../../functions/payment-list/repository.ts';

const summaryKeyOf = (k: { callId: string; anno: number; userId: string }) => `${k.callId}|${k.anno}|${k.userId}`;
const toRow = ({
  userId,
  cognome,
  nome,
  codiceFiscale,
  telefono,
  email,
  importoTotale,
  paymentIds,
  daRiconciliare,
}: StoredDebtSummary): DebtSummaryRow => ({
  userId,
  cognome,
  nome,
  codiceFiscale,
  telefono,
  email,
  importoTotale,
  paymentIds,
  daRiconciliare: daRiconciliare ?? 0,
});

export function memoryDebts(positions: () => Iterable<PositionRecord>): DebtSummaryRepository &
  YearPositions & {
    summaries: Map<string, StoredDebtSummary>;
    totals: Map<string, DebtTotals>;
    /** Makes the next N conditional puts lose (as if another writer had just won). */
    loseNextPuts: number;
    /** Runs once before the next put: a concurrent change to race with. */
    beforeNextPut: (() => Promise<void>) | null;
  } {
  const summaries = new Map<string, StoredDebtSummary>();
  const totals = new Map<string, DebtTotals>();
  const ofYear = (callId: string, anno: number) =>
    [...summaries.values()].filter((s) => s.callId === callId && s.anno === anno);
  const state = {
    summaries,
    totals,
    loseNextPuts: 0,
    beforeNextPut: null as (() => Promise<void>) | null,
    async getDebtSummaries(which: readonly { callId: string; anno: number; userId: string }[]) {
      return new Map(
        which
          .filter((k) => summaries.has(summaryKeyOf(k)))
          .map((k) => [summaryKeyOf(k), structuredClone(summaries.get(summaryKeyOf(k))!)]),
      );
    },
    async positionsOfYears(which: readonly { callId: string; anno: number; userId: string }[]) {
      const wanted = new Set(which.map(summaryKeyOf));
      return [...positions()].filter((p) => wanted.has(summaryKeyOf(p))).map((p) => structuredClone(p));
    },
    async putDebtSummary(summary: StoredDebtSummary, expectedVersion: number | null) {
      const race = state.beforeNextPut;
      state.beforeNextPut = null;
      if (race) await race();
      if (state.loseNextPuts > 0) {
        state.loseNextPuts--;
        return false;
      }
      const stored = summaries.get(summaryKeyOf(summary));
      if (expectedVersion === null ? stored : stored?.version !== expectedVersion) return false;
      summaries.set(summaryKeyOf(summary), structuredClone(summary));
      return true;
    },
    async addToDebtTotals(callId: string, anno: number, delta: DebtTotals) {
      totals.set(`${callId}|${anno}`, addTotals(totals.get(`${callId}|${anno}`) ?? zeroTotals(), delta));
    },
    async getDebtTotals(callId: string, anno: number) {
      return { ...(totals.get(`${callId}|${anno}`) ?? zeroTotals()) };
    },
    async putDebtTotals(callId: string, anno: number, value: DebtTotals) {
      totals.set(`${callId}|${anno}`, { ...value });
    },
    async sumDebtSummaries(callId: string, anno: number) {
      return ofYear(callId, anno).reduce((sum, s) => addTotals(sum, s.contribution), zeroTotals());
    },
    async listDebtSummaries(
      callId: string,
      anno: number,
      filter: Parameters<DebtSummaryRepository['listDebtSummaries']>[2],
      sort: Parameters<DebtSummaryRepository['listDebtSummaries']>[3],
      page: { limit: number; cursor?: string },
    ) {
      const rows = matching(callId, anno, filter)
        .map(toRow)
        .sort(filter.text?.kind === 'fiscalCode' ? byFiscalCode(sort.startsWith('-')) : compareRows(sort));
      const offset = page.cursor ? Number(page.cursor.replace(/^o/, '')) : 0;
      if (page.cursor && (!/^o\d+$/.test(page.cursor) || offset > rows.length))
        throw new ValidationError(messages.invalidCursor);
      const items = rows.slice(offset, offset + page.limit);
      return { items, nextCursor: offset + page.limit < rows.length ? `o${offset + page.limit}` : null };
    },
    async countDebtSummaries(
      callId: string,
      anno: number,
      filter: Parameters<DebtSummaryRepository['countDebtSummaries']>[2],
      cap: number,
    ) {
      const rows = matching(callId, anno, filter);
      const counted = rows.slice(0, cap);
      return {
        count: counted.length,
        sum: counted.reduce((sum, s) => sum + s.importoTotale, 0),
        capped: rows.length > cap,
      };
    },
  };
  function matching(callId: string, anno: number, filter: Parameters<DebtSummaryRepository['listDebtSummaries']>[2]) {
    return ofYear(callId, anno)
      .filter((s) => !filter.noMail || s.senzaEmail)
      .filter((s) => !filter.toReconcile || (s.daRiconciliare ?? 0) > 0)
      .filter((s) =>
        !filter.text
          ? true
          : filter.text.kind === 'fiscalCode'
            ? s.codiceFiscale.toUpperCase().startsWith(filter.text.prefix)
            : nameKey(s.cognome, s.nome).startsWith(filter.text.prefix),
      );
  }
  return state;
}

const byFiscalCode =
  (descending: boolean) =>
  (a: { codiceFiscale: string; userId: string }, b: { codiceFiscale: string; userId: string }) => {
    const ka = `${a.codiceFiscale}#${a.userId}`;
    const kb = `${b.codiceFiscale}#${b.userId}`;
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * (descending ? -1 : 1);
  };
