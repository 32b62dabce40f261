import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import {
  DEBT_FILTER_COUNT_CAP,
  debtListMessages,
  debtListQuerySchema,
  paymentsWorkbookName,
  readNameFilter,
  summarize,
  type DebtListQuery,
} from '../../functions/domain/debt-summaries.ts';
import { ValidationError } from '../../functions/domain/errors.ts';
import { parseOrThrow } from '../../functions/domain/validation.ts';
import type { CallRecord } from '../../functions/domain/call-record.ts';
import { makeDebtSummaryUseCases } from '../../functions/payment-list/use-cases.ts';
import type { StoredUser } from '../../functions/domain/user-record.ts';
import { tickingClock } from '../support/in-memory.ts';
import { memoryDebts } from '../support/in-memory-debts.ts';
import { positionToExport } from '../support/position-records.ts';

const CALL = 'call-1';
const call = { id: CALL, name: 'Assistenza domiciliare 2026' } as CallRecord;

function position(
  userId: string,
  mese: number,
  importoDovuto: number,
  fields: Partial<PositionRecord> = {},
): PositionRecord {
  const iud = `P2026${String(mese).padStart(2, '0')}${userId}`;
  return positionToExport('2026-03-01T00:00:00.000Z', {
    id: iud,
    iud,
    callId: CALL,
    userId,
    fiscalCode: `CF${userId}`.toUpperCase().padEnd(16, 'X'),
    cognome: `Cognome ${userId}`,
    nome: 'Nome',
    mese,
    titolo: 't',
    descrizione: 'd',
    importoDovuto,
    ...fields,
  });
}

function setup(people: Array<[id: string, lastName: string, firstName: string, fiscalCode: string]> = []) {
  const positions = new Map<string, PositionRecord>();
  const users = new Map<string, StoredUser>(
    people.map(([id, lastName, firstName, fiscalCode]) => [
      id,
      {
        id,
        lastName,
        firstName,
        fiscalCode,
        email: `${id}@example.it`,
        phoneNumber: '3331234567',
        state: 'VALIDATED',
        dataInsert: '2026-01-01T00:00:00.000Z',
      } as StoredUser,
    ]),
  );
  const debts = memoryDebts(() => positions.values());
  const summaries = makeDebtSummaryUseCases({
    debts,
    positions: debts,
    users: {
      getUserItems: async (ids) => new Map(ids.filter((id) => users.has(id)).map((id) => [id, users.get(id)!])),
    },
    calls: { getCall: async (id) => (id === CALL ? call : null) },
    clock: tickingClock('2026-03-10T09:00:00.000Z'),
  });
  /** A position writer (generation, payment, edit, e-mail…): the write, then the refresh of its row. */
  const write = async (...written: PositionRecord[]) => {
    for (const p of written) positions.set(`${p.callId}|${p.mese}|${p.userId}`, p);
    return summaries.refreshDebtSummaries(written.map((p) => ({ callId: p.callId, userId: p.userId, anno: p.anno })));
  };
  const list = (query: Partial<DebtListQuery> = {}) =>
    summaries.listDebtSummaries(CALL, parseOrThrow(debtListQuerySchema, { anno: '2026', ...query }));
  return { positions, debts, summaries, write, list };
}

describe('a debt summary row (pure)', () => {
  it('sums what the year asks, lists the pending ids, counts paid and cancelled apart', () => {
    const row = summarize({
      callId: CALL,
      anno: 2026,
      userId: 'u1',
      person: null,
      positions: [
        position('u1', 3, 6643, { isEmailSent: true }),
        position('u1', 1, 5000, { isPagato: true, importoTotalePagato: 5000 }),
        position('u1', 2, 0, { annullato: true, azione: 'A' }),
        position('u1', 4, 4000, { isEmailSent: false }),
      ],
    })!;
    expect(row).toMatchObject({
      cognome: 'Cognome u1',
      codiceFiscale: 'CFU1XXXXXXXXXXXX',
      importoTotale: 6643 + 5000 + 4000,
      paymentIds: ['P202603u1', 'P202604u1'],
      senzaEmail: true,
    });
    expect(row.contribution).toEqual({
      cittadini: 1,
      posizioni: 4,
      dovuto: 15643,
      pagato: 5000,
      daPagare: 10643,
      pagate: 1,
      daPagareCount: 2,
      annullate: 1,
      cittadiniSenzaEmail: 1,
      importoSenzaEmail: 15643,
      daRiconciliare: 0,
      cittadiniDaRiconciliare: 0,
      differenzaDaRiconciliare: 0,
    });
    expect(summarize({ callId: CALL, anno: 2026, userId: 'u1', person: null, positions: [] })).toBeNull();
  });

  it('counts the payments to reconcile and their difference: the row is flagged, money paid for a cancelled position is paid (issue 21)', () => {
    const row = summarize({
      callId: CALL,
      anno: 2026,
      userId: 'u1',
      person: null,
      positions: [
        position('u1', 1, 5000, {
          isPagato: true,
          importoTotalePagato: 4500,
          riconciliazione: { motivo: 'IMPORTO_DIVERSO', differenza: -500 },
        }),
        position('u1', 2, 0, {
          annullato: true,
          azione: 'A',
          isPagato: true,
          importoTotalePagato: 3000,
          riconciliazione: { motivo: 'ANNULLATA', differenza: 3000 },
        }),
        position('u1', 3, 6643),
      ],
    })!;
    expect(row.daRiconciliare).toBe(2);
    expect(row.contribution).toMatchObject({
      daRiconciliare: 2,
      cittadiniDaRiconciliare: 1,
      differenzaDaRiconciliare: 2500,
      pagato: 7500,
      pagate: 2,
      annullate: 1,
      daPagareCount: 1,
    });
  });

  it('"Email non inviata" looks only at positions still to pay', () => {
    const paidWithoutMail = summarize({
      callId: CALL,
      anno: 2026,
      userId: 'u1',
      person: null,
      positions: [position('u1', 1, 5000, { isPagato: true, importoTotalePagato: 5000 })],
    })!;
    expect(paidWithoutMail.senzaEmail).toBe(false);
  });

  it('reads the text filter as a fiscal-code prefix when it holds a digit, else as a prefix of "cognome nome"', () => {
    expect(readNameFilter('rssmra85')).toEqual({ kind: 'fiscalCode', prefix: 'RSSMRA85' });
    expect(readNameFilter('  De Rossi   Mà ')).toEqual({ kind: 'name', prefix: 'de rossi ma' });
    expect(readNameFilter('   ')).toBeNull();
  });

  it('names the workbook after the day and the call, or pagamenti.xlsx', () => {
    expect(paymentsWorkbookName('Assistenza: 2026/1', '2026-03-10')).toBe('2026-03-10_Assistenza 2026 1.xlsx');
    expect(paymentsWorkbookName(null, '2026-03-10')).toBe('pagamenti.xlsx');
  });
});

describe('maintained aggregates: every position write moves the totals by its delta', () => {
  it('create, update, pay, cancel, e-mail sent: the row and the call-year totals follow, and match a full recount', async () => {
    const t = setup([
      ['u1', 'Rossi', 'Maria', 'RSSMRA85C52H501N'],
      ['u2', 'Bianchi', 'Luca', 'BNCLCU80A01H501X'],
    ]);
    await t.write(position('u1', 3, 6643), position('u2', 3, 4429));
    expect(await t.summaries.debtTotals(CALL, { anno: 2026 })).toMatchObject({
      cittadini: 2,
      posizioni: 2,
      dovuto: 11072,
      daPagare: 11072,
      pagato: 0,
      cittadiniSenzaEmail: 2,
    });

    await t.write(position('u1', 3, 8857, { version: 2 })); // update: +22,14 €
    expect(await t.summaries.debtTotals(CALL, { anno: 2026 })).toMatchObject({ dovuto: 13286, daPagare: 13286 });

    await t.write(position('u1', 4, 6429)); // a second month of u1: one row, two pending ids
    let rows = (await t.list({ sort: 'nome' })).items;
    expect(rows.map((r) => [r.cognome, r.importoTotale, r.paymentIds.length, r.telefono])).toEqual([
      ['Bianchi', 4429, 1, '3331234567'],
      ['Rossi', 8857 + 6429, 2, '3331234567'],
    ]);

    await t.write(position('u1', 3, 8857, { isPagato: true, importoTotalePagato: 8857, version: 3 })); // paid
    expect(await t.summaries.debtTotals(CALL, { anno: 2026 })).toMatchObject({
      posizioni: 3,
      dovuto: 8857 + 6429 + 4429,
      pagato: 8857,
      daPagare: 6429 + 4429,
      pagate: 1,
      daPagareCount: 2,
    });
    rows = (await t.list({ sort: 'nome' })).items;
    expect(rows[1]!.paymentIds).toEqual(['P202604u1']);

    await t.write(position('u2', 3, 0, { annullato: true, azione: 'A', version: 2 })); // cancelled: asks nothing, counted apart
    expect(await t.summaries.debtTotals(CALL, { anno: 2026 })).toMatchObject({
      cittadini: 2,
      dovuto: 8857 + 6429,
      daPagare: 6429,
      annullate: 1,
    });
    expect((await t.list({ sort: 'nome' })).items[0]).toMatchObject({
      cognome: 'Bianchi',
      importoTotale: 0,
      paymentIds: [],
    });

    await t.write(
      position('u1', 4, 6429, { isEmailSent: true, dataIsEmailSent: '2026-04-02T10:00:00.000Z', version: 2 }),
    ); // notice e-mailed
    expect(await t.list({ chkNoSendMail: 'true' } as never)).toMatchObject({ items: [], count: 0, sum: 0 });

    const kept = await t.summaries.debtTotals(CALL, { anno: 2026 });
    const { callId: _c, anno: _a, dal, ...maintained } = kept;
    expect(dal).toBe('2026-01-01');
    expect(await t.summaries.reconcileDebtTotals(CALL, 2026)).toEqual(maintained);
  });

  it('refreshing again writes nothing and adds nothing', async () => {
    const t = setup([['u1', 'Rossi', 'Maria', 'RSSMRA85C52H501N']]);
    expect(await t.write(position('u1', 3, 6643))).toEqual({ refreshed: 1 });
    expect(
      await t.summaries.refreshDebtSummaries([
        { callId: CALL, userId: 'u1', anno: 2026 },
        { callId: CALL, userId: 'u1', anno: 2026 },
      ]),
    ).toEqual({ refreshed: 0 });
    expect((await t.summaries.debtTotals(CALL, { anno: 2026 })).dovuto).toBe(6643);
  });

  it('a writer that loses the version race reads again: the totals are added once', async () => {
    const t = setup([['u1', 'Rossi', 'Maria', 'RSSMRA85C52H501N']]);
    await t.write(position('u1', 3, 6643));
    // While this refresh computes from 88,57 €, another writer changes the position and refreshes first.
    t.debts.beforeNextPut = async () => {
      t.positions.set(`${CALL}|3|u1`, position('u1', 3, 9000, { version: 3 }));
      await t.summaries.refreshDebtSummaries([{ callId: CALL, userId: 'u1', anno: 2026 }]);
    };
    await t.write(position('u1', 3, 8857, { version: 2 }));
    expect((await t.list()).items[0]!.importoTotale).toBe(9000);
    const totals = await t.summaries.debtTotals(CALL, { anno: 2026 });
    expect([totals.dovuto, totals.cittadini, totals.posizioni]).toEqual([9000, 1, 1]);
    expect(await t.summaries.reconcileDebtTotals(CALL, 2026)).toMatchObject({ dovuto: 9000, cittadini: 1 });
  });

  it('the reconcile repairs totals left off by a crash between a summary write and its ADD', async () => {
    const t = setup([['u1', 'Rossi', 'Maria', 'RSSMRA85C52H501N']]);
    await t.write(position('u1', 3, 6643));
    await t.debts.addToDebtTotals(CALL, 2026, { ...(await t.debts.getDebtTotals(CALL, 2026)), dovuto: 123 }, ''); // drifted
    expect((await t.summaries.debtTotals(CALL, { anno: 2026 })).dovuto).not.toBe(6643);
    expect((await t.summaries.reconcileDebtTotals(CALL, 2026)).dovuto).toBe(6643);
    expect((await t.summaries.debtTotals(CALL, { anno: 2026 })).dovuto).toBe(6643);
  });
});

describe('listing, sorting and filtering', () => {
  const people: Array<[string, string, string, string]> = [
    ['u1', 'Rossi', 'Maria', 'RSSMRA85C52H501N'],
    ['u2', 'Bianchi', 'Luca', 'BNCLCU80A01H501X'],
    ['u3', 'Rossini', 'Anna', 'RSSNNA70A41H501Y'],
    ['u4', 'Verdi', 'Giuseppe', 'VRDGPP90P07F839R'],
    ['u5', 'Russo', 'Carla', 'RSSCRL75B42H501Z'],
  ];
  async function seeded() {
    const t = setup(people);
    await t.write(
      position('u1', 3, 3000),
      position('u2', 3, 5000),
      position('u3', 3, 1000, { isEmailSent: true }),
      position('u4', 3, 4000),
      position('u5', 3, 2000),
    );
    return t;
  }

  it('orders by amount and by surname+name, both ways', async () => {
    const t = await seeded();
    const names = async (sort: string) => (await t.list({ sort } as never)).items.map((r) => r.cognome);
    expect(await names('importo')).toEqual(['Rossini', 'Russo', 'Rossi', 'Verdi', 'Bianchi']);
    expect(await names('-importo')).toEqual(['Bianchi', 'Verdi', 'Rossi', 'Russo', 'Rossini']);
    expect(await names('nome')).toEqual(['Bianchi', 'Rossi', 'Rossini', 'Russo', 'Verdi']);
    expect(await names('-nome')).toEqual(['Verdi', 'Russo', 'Rossini', 'Rossi', 'Bianchi']);
  });

  it('filters by a name or fiscal-code prefix and by "Email non inviata", with Record trovati and the sum', async () => {
    const t = await seeded();
    expect(await t.list({ name: 'ross' })).toMatchObject({
      count: 2,
      sum: 4000,
      items: [{ cognome: 'Rossi' }, { cognome: 'Rossini' }],
    });
    expect(await t.list({ name: 'rossi m' })).toMatchObject({ count: 1, items: [{ cognome: 'Rossi' }] });
    expect(await t.list({ name: 'RSS' })).toMatchObject({ count: 0 }); // letters only: a name, not a fiscal code
    expect(await t.list({ name: 'rssmra8' })).toMatchObject({ count: 1, items: [{ cognome: 'Rossi' }] });
    expect(await t.list({ chkNoSendMail: 'true' } as never)).toMatchObject({ count: 4, sum: 14000 });
    expect((await t.list({ chkNoSendMail: 'true', name: 'ross' } as never)).items.map((r) => r.cognome)).toEqual([
      'Rossi',
    ]);
    expect(await t.list()).toMatchObject({ count: 5, sum: 15000, callName: 'Assistenza domiciliare 2026', anno: 2026 });
  });

  it('pages of 10 followed to the end give every row once', async () => {
    const t = setup();
    const many = Array.from({ length: 23 }, (_, i) => position(`u${String(i).padStart(2, '0')}`, 3, 1000 + i * 10));
    await t.write(...many);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.list({ sort: '-importo', ...(cursor ? { cursor } : {}) } as never);
      expect(page.count).toBe(23);
      seen.push(...page.items.map((r) => r.userId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(many.map((p) => p.userId).reverse());
  });

  it('a text filter is counted with a bounded read: beyond the cap the count and the sum are flagged as lower bounds', async () => {
    const t = setup();
    const many = DEBT_FILTER_COUNT_CAP + 5;
    await t.write(
      ...Array.from({ length: many }, (_, i) =>
        position(`r${String(i).padStart(4, '0')}`, 3, 1000 + i, { cognome: 'Rossi' }),
      ),
      position('v1', 3, 7000, { cognome: 'Verdi' }),
    );
    const counted: number[] = [];
    const countDebtSummaries = t.debts.countDebtSummaries.bind(t.debts);
    t.debts.countDebtSummaries = async (...args) => {
      counted.push(args[3]);
      return countDebtSummaries(...args);
    };
    const wide = await t.list({ name: 'ross' });
    expect(wide.items).toHaveLength(10);
    expect(counted).toEqual([DEBT_FILTER_COUNT_CAP]);
    const trueSum = Array.from({ length: many }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    expect(wide).toMatchObject({ count: DEBT_FILTER_COUNT_CAP, countCapped: true });
    expect(wide.sum).toBeLessThan(trueSum);
    // Narrow enough: the exact figures.
    expect(await t.list({ name: 'rossi cognome' } as never)).toMatchObject({ count: 0, countCapped: false });
    // Without text: the maintained totals, never capped.
    expect(await t.list()).toMatchObject({ count: many + 1, countCapped: false, sum: trueSum + 7000 });
  });

  it('a text filter is counted alongside each page: the figures of the whole match set on the first page and on later ones', async () => {
    const t = await seeded();
    let counts = 0;
    const countDebtSummaries = t.debts.countDebtSummaries.bind(t.debts);
    t.debts.countDebtSummaries = async (...args) => {
      counts += 1;
      return countDebtSummaries(...args);
    };
    expect(await t.list({ name: 'ross' })).toMatchObject({ count: 2, sum: 4000, countCapped: false, nextCursor: null });
    expect(counts).toBe(1);
    const first = await t.list({ name: 'r', limit: 10 } as never);
    expect(first).toMatchObject({ count: 3, sum: 6000, nextCursor: null });
    const big = setup();
    await big.write(
      ...Array.from({ length: 12 }, (_, i) =>
        position(`b${String(i).padStart(2, '0')}`, 3, 100, { cognome: 'Bianchi' }),
      ),
    );
    const countBig = big.debts.countDebtSummaries.bind(big.debts);
    let bigCounts = 0;
    big.debts.countDebtSummaries = async (...args) => {
      bigCounts += 1;
      return countBig(...args);
    };
    const page1 = await big.list({ name: 'bian' });
    expect(page1).toMatchObject({ count: 12, sum: 1200 });
    const page2 = await big.list({ name: 'bian', cursor: page1.nextCursor! } as never);
    expect(page2).toMatchObject({ count: 12, sum: 1200, nextCursor: null });
    expect(page2.items).toHaveLength(2);
    expect(bigCounts).toBe(2);
  });

  it('bad queries are a 400 with an Italian message', () => {
    const bad = (query: Record<string, string>) => {
      try {
        parseOrThrow(debtListQuerySchema, query);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ anno: '2024' })).toBe(debtListMessages.year);
    expect(bad({ anno: 'duemila' })).toBe(debtListMessages.year);
    expect(bad({ sort: 'cognome' })).toBe(debtListMessages.sort);
    expect(bad({ limit: '20' })).toBe(debtListMessages.pageSize);
    expect(bad({ chkNoSendMail: 'si' })).toBe(debtListMessages.chkNoSendMail);
    expect(bad({ name: 'x'.repeat(101) })).toBe(debtListMessages.name);
  });

  it('an unknown call is a 404', async () => {
    const t = setup();
    await expect(t.summaries.listDebtSummaries('nope', parseOrThrow(debtListQuerySchema, {}))).rejects.toMatchObject({
      message: 'Il bando selezionato non è presente.',
    });
  });
});
