import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import { hold, settle } from '../../functions/domain/positions/index.ts';
import { makePaymentListProjection, MONTH_REFRESH_FROM } from '../../functions/payment-list/projection.ts';
import type { MonthRefreshInput } from '../../functions/adapters/ports/payment-list.ts';

const position = (userId: string, fields: Partial<PositionRecord> = {}) =>
  ({
    id: `P-${userId}`,
    iud: `P202603${userId}`,
    callId: 'call-1',
    userId,
    mese: 3,
    anno: 2026,
    fiscalCode: 'RSSMRA85C52H501N',
    cognome: 'Rossi',
    nome: 'Maria',
    descrizione: 'Marzo 2026',
    importoDovuto: 6643,
    importoTotalePagato: 0,
    isPagato: false,
    annullato: false,
    isEmailSent: false,
    version: 1,
    updatedAt: '2026-03-01T00:00:00.000Z',
    ...fields,
  }) as PositionRecord;

/** The projection on recording fakes: which citizens' rows it refreshed, and which months it refreshed whole. */
function projection() {
  const rows: string[] = [];
  const months: Omit<MonthRefreshInput, 'people'>[] = [];
  const port = makePaymentListProjection({
    refresh: { refreshDebtSummaries: async (changes) => void rows.push(...changes.map((c) => c.userId)) },
    month: { refreshMonthSummaries: async ({ people: _p, ...month }) => void months.push(month) },
    users: { getUserItems: async () => new Map() },
  });
  return { port, rows, months };
}

describe('the payment list as a projection of the position writes', () => {
  it('refreshes the row of a citizen whose payment was recorded, not of one whose checkout only holds the position', async () => {
    const { port, rows } = projection();
    const maria = position('maria');
    const giuseppe = position('giuseppe');
    const checkout = {
      session: 'session-1',
      url: 'https://mypay/1',
      until: '2026-03-12T10:15:00.000Z',
      now: '2026-03-12T10:00:00.000Z',
    };
    await port.positionsChanged([hold(giuseppe, checkout)]);
    expect(rows).toEqual([]);
    const paid = settle(
      maria,
      { iud: maria.iud, iuv: '01000000000000012', amountCents: 6643, paidOn: '2026-03-12', iur: 'IUR1' },
      '2026-03-12T10:00:00.000Z',
    ).transition!;
    await port.positionsChanged([paid]);
    expect(rows).toEqual(['maria']);
  });

  it('refreshes a month written for many citizens at once whole, and a few citizens one row each', async () => {
    const { port, rows, months } = projection();
    const many = Array.from({ length: MONTH_REFRESH_FROM }, (_, i) => ({ before: null, after: position(`u${i}`) }));
    const april = { before: null, after: position('anna', { mese: 4 }) };
    await port.positionsChanged([...many, april]);
    expect(months).toEqual([
      { callId: 'call-1', period: { mese: 3, anno: 2026 }, userIds: many.map((c) => c.after.userId) },
    ]);
    expect(rows).toEqual(['anna']);
  });
});
