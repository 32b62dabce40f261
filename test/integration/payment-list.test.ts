import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { DEBT_FILTER_COUNT_CAP, addTotals, summarize, zeroTotals } from '../../functions/domain/debt-summaries.ts';
import { debtSummaryItem } from '../../functions/payment-list/repository.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, useLocalTable } from '../support/dynamo.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * The payment list of a call over HTTP (operator-admin §2 "Payment list"): rows per citizen and year,
 * filters, both orders both ways, pages followed to the end, the totals after a generation and after a
 * change, who may read it, and bad queries.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let call: { id: string; name: string; year: number; serviceId: string; serviceName: string };
const people: Array<{ userId: string; fiscalCode: string; lastName: string }> = [];
// Eleven citizens (one more than a page of 10); 2,0 to 7,0 hours a week; ISEE 8.000 € (band 40% of 18 € = 7,20 €/h).
const SURNAMES = [
  'Rossi',
  'Rossini',
  'Bianchi',
  'Verdi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
];

const list = (query = '') => operator.get(`/api/calls/${call.id}/payment-list?anno=2026${query}`);
/** What the stored positions of March and April add up to, read straight from the table. */
async function storedDue() {
  const positions = [...(await storedPositions(call.id, '2026-03')), ...(await storedPositions(call.id, '2026-04'))];
  const byUser = new Map<string, number>();
  for (const p of positions) if (!p.annullato) byUser.set(p.userId, (byUser.get(p.userId) ?? 0) + p.importoDovuto);
  return { positions, byUser, total: [...byUser.values()].reduce((a, b) => a + b, 0) };
}

beforeAll(async () => {
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  call = (await openCall(operator, `Lista pagamenti ${Math.random().toString(36).slice(2, 6)}`)).call;
  for (const [i, lastName] of SURNAMES.entries()) {
    const { userId, fiscalCode } = await approvedSubscriber(operator, call, {
      lastName,
      firstName: 'Anna',
      iseeValue: 8000,
      weeklyHour: 2 + (i % 6),
    });
    people.push({ userId, fiscalCode, lastName });
  }
  for (const mese of [3, 4])
    expect(
      (await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese, anno: 2026 })).json.created,
    ).toBe(SURNAMES.length);
  // The list's orders are global indexes, which show the rows a moment later (as DynamoDB's, eventually consistent).
  await indexesCaughtUp();
}, 120_000);

describe('the payment list of a call', () => {
  it('one row per citizen for the year, its amount the sum of its months, two pending ids; Record trovati and the sum', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const due = await storedDue();
    expect(response.json).toMatchObject({
      count: SURNAMES.length,
      sum: due.total,
      countCapped: false,
      callName: call.name,
      anno: 2026,
    });
    expect(response.json.items).toHaveLength(10);
    const rossi = response.json.items.find((r: any) => r.cognome === 'Rossi');
    const person = people.find((p) => p.lastName === 'Rossi')!;
    expect(rossi).toMatchObject({
      userId: person.userId,
      nome: 'Anna',
      codiceFiscale: person.fiscalCode,
      email: 'rossi@example.it',
      importoTotale: due.byUser.get(person.userId),
    });
    expect(rossi.paymentIds).toHaveLength(2);
    expect(rossi.paymentIds.sort()).toEqual(
      due.positions
        .filter((p) => p.userId === person.userId)
        .map((p) => p.id)
        .sort(),
    );
  });

  it('orders by surname+name and by amount, both ways, and pages follow their cursors to the end', async () => {
    const all = async (sort: string) => {
      const rows: any[] = [];
      let cursor = '';
      for (let pages = 0; pages < 5; pages++) {
        const page = await list(`&sort=${sort}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        rows.push(...page.json.items);
        if (!page.json.nextCursor) break;
        cursor = page.json.nextCursor;
      }
      return rows;
    };
    const byName = await all('nome');
    expect(byName.map((r) => r.cognome)).toEqual([...SURNAMES].sort((a, b) => a.localeCompare(b)));
    expect((await all('-nome')).map((r) => r.cognome)).toEqual(byName.map((r) => r.cognome).reverse());
    const byAmount = (await all('importo')).map((r) => r.importoTotale);
    expect(byAmount).toHaveLength(SURNAMES.length);
    expect(byAmount).toEqual([...byAmount].sort((a, b) => a - b));
    expect(new Set(byAmount).size).toBeGreaterThan(3);
    const descending = (await all('-importo')).map((r) => r.importoTotale);
    expect(descending).toEqual([...byAmount].reverse());
  });

  it('filters: a surname prefix, a fiscal-code prefix, and the totals follow', async () => {
    const ross = await list('&name=ross');
    expect(ross.json.items.map((r: any) => r.cognome)).toEqual(['Rossi', 'Rossini']);
    expect(ross.json.count).toBe(2);
    expect(ross.json.sum).toBe(ross.json.items.reduce((s: number, r: any) => s + r.importoTotale, 0));
    const byAmountDesc = await list('&name=ross&sort=-importo');
    expect(byAmountDesc.json.items.map((r: any) => r.importoTotale)).toEqual(
      ross.json.items.map((r: any) => r.importoTotale).sort((a: number, b: number) => b - a),
    );
    const verdi = people.find((p) => p.lastName === 'Verdi')!;
    const byCode = await list(`&name=${verdi.fiscalCode.slice(0, 11).toLowerCase()}`);
    expect(byCode.json.items.map((r: any) => r.userId)).toEqual([verdi.userId]);
    expect((await list('&name=zzzz')).json).toMatchObject({ items: [], count: 0, sum: 0 });
  });

  it('totals per key for the year, then a change (more hours, an ISEE under 3.000 € cancelling a month) moves rows and totals', async () => {
    const before = await operator.get(`/api/calls/${call.id}/payment-totals?anno=2026`);
    expect(before.status).toBe(200);
    const due = await storedDue();
    expect(before.json).toMatchObject({
      callId: call.id,
      anno: 2026,
      dal: '2026-01-01',
      cittadini: SURNAMES.length,
      posizioni: 2 * SURNAMES.length,
      dovuto: due.total,
      daPagare: due.total,
      pagato: 0,
      annullate: 0,
    });

    // Marino: the operator moves the hours to 10 (March is regenerated); Bianchi: a new ISEE of 2.000 € cancels March.
    const marino = people.find((p) => p.lastName === 'Marino')!;
    const bianchi = people.find((p) => p.lastName === 'Bianchi')!;
    const enrolment = (await operator.get(`/api/calls/${call.id}/enrolments?fiscalCode=${marino.fiscalCode}`)).json
      .items[0];
    expect(
      (
        await operator.put(`/api/enrolments/${enrolment.id}/state`, {
          state: 2,
          weeklyHour: 10,
          dataUpdate: enrolment.dataUpdate,
        })
      ).status,
    ).toBeLessThan(300);
    expect(
      (
        await operator.post(`/api/users/${bianchi.userId}/isee`, {
          value: 2000,
          year: 2026,
          date: '2026-02-20T10:00:00.000Z',
          protocollo: 'INPS-ISEE-2026-00000004C-00',
          scadenza: '2026-12-31',
          excludeVerification: true,
        })
      ).status,
    ).toBe(201);
    const regenerated = await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese: 3, anno: 2026 });
    expect(regenerated.json).toMatchObject({ updated: 1, cancelled: 1 });
    await indexesCaughtUp();

    const after = await operator.get(`/api/calls/${call.id}/payment-totals?anno=2026`);
    const dueAfter = await storedDue();
    expect(after.json).toMatchObject({
      cittadini: SURNAMES.length,
      posizioni: 2 * SURNAMES.length,
      annullate: 1,
      dovuto: dueAfter.total,
      daPagare: dueAfter.total,
      daPagareCount: 2 * SURNAMES.length - 1,
    });
    expect(after.json.dovuto).not.toBe(before.json.dovuto);
    const rows = (await list('&name=bianchi')).json.items;
    expect(rows[0]).toMatchObject({ importoTotale: dueAfter.byUser.get(bianchi.userId) });
    expect(rows[0].paymentIds).toHaveLength(1);
    expect((await list('&name=marino')).json.items[0].importoTotale).toBe(dueAfter.byUser.get(marino.userId));
    // 'Email non inviata': every citizen still has a pending month without its e-mail.
    expect((await list('&chkNoSendMail=true')).json).toMatchObject({ count: SURNAMES.length, sum: dueAfter.total });
    expect((await list()).json.sum).toBe(dueAfter.total);
  });

  it('delegates read it; citizens are refused (403); an unknown call is 404', async () => {
    const delegate = await as('delegate');
    expect((await delegate.get(`/api/calls/${call.id}/payment-list?anno=2026`)).json.count).toBe(SURNAMES.length);
    expect((await delegate.get(`/api/calls/${call.id}/payment-totals?anno=2026`)).status).toBe(200);
    const citizen = await as('citizen');
    expect((await citizen.get(`/api/calls/${call.id}/payment-list?anno=2026`)).status).toBe(403);
    expect((await citizen.get(`/api/calls/${call.id}/payment-totals`)).status).toBe(403);
    const unknown = await operator.get('/api/calls/nessuno/payment-list?anno=2026');
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe('Il bando selezionato non è presente.');
  });

  it('bad queries are a 400 with an Italian message, a forged cursor too', async () => {
    const cases: Array<[string, string]> = [
      ['&sort=cognome', 'Ordinamento non valido.'],
      ['&limit=20', 'Righe per pagina: 10, 25 o 50.'],
      ['&chkNoSendMail=forse', 'Email non inviata: true o false.'],
      ['&cursor=abc.def', 'Il parametro di paginazione non è valido.'],
    ];
    for (const [query, detail] of cases) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(response.json.detail).toBe(detail);
    }
    const oldYear = await operator.get(`/api/calls/${call.id}/payment-list?anno=2024`);
    expect(oldYear.status).toBe(400);
    expect(oldYear.json.detail).toBe('Anno non valido: i pagamenti partono dal 2025.');
    expect((await operator.get(`/api/calls/${call.id}/payment-totals?anno=abc`)).status).toBe(400);
    // A cursor of another list (the amount order's) is refused on the name order.
    const amountPage = await list('&sort=importo');
    const foreign = await list(`&name=ross&cursor=${encodeURIComponent(amountPage.json.nextCursor)}`);
    expect(foreign.status).toBe(400);
  });
});

/** Items written straight into the table (as the refresh writes them), 25 a request, 6 requests in flight. */
async function writeItems(items: Record<string, unknown>[]) {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, i * 25 + 25));
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        let request: Record<string, any> | undefined = {
          [TABLE_NAME]: batch.map((Item) => ({ PutRequest: { Item } })),
        };
        while (request && Object.keys(request).length)
          request = (await client.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
      }
    }),
  );
}

/** A stored row of a citizen with one position of `cents` (importoTotale = cents). */
function rowItem(callId: string, userId: string, cognome: string, nome: string, cents: number) {
  const summary = summarize({
    callId,
    anno: 2026,
    userId,
    person: {
      cognome,
      nome,
      codiceFiscale: `GLL${userId.slice(-13).padStart(13, '0')}`.toUpperCase(),
      telefono: null,
      email: `${userId}@example.it`,
    },
    positions: [
      {
        id: `P202603${userId}`,
        mese: 3,
        importoDovuto: cents,
        importoTotalePagato: 0,
        isPagato: false,
        annullato: false,
        isEmailSent: true,
        cognome: '',
        nome: '',
        fiscalCode: '',
      },
    ],
  })!;
  return debtSummaryItem({ ...summary, version: 1, updatedAt: new Date().toISOString() });
}

describe('a whole surname in amount order: the first words it spans merged, pages to the end, both ways', () => {
  let galli: { id: string };
  const listGalli = (query: string) => operator.get(`/api/calls/${galli.id}/payment-list?anno=2026${query}`);
  // 'galli' spans Galli, Galli Rossi (a double surname: first word galli) and Gallini, not Gallo; amounts repeat (ties go by id).
  const rows = [
    ...Array.from({ length: 120 }, (_, i) => ({ cognome: 'Galli', nome: i % 2 ? 'Anna' : 'Luca' })),
    ...Array.from({ length: 90 }, () => ({ cognome: 'Gallini', nome: 'Sara' })),
    ...Array.from({ length: 40 }, () => ({ cognome: 'Galli Rossi', nome: 'Marco' })),
    ...Array.from({ length: 20 }, () => ({ cognome: 'Gallo', nome: 'Pia' })),
  ].map((person, i) => ({
    ...person,
    userId: `galli-${String((i * 53) % 270).padStart(4, '0')}-${i}`,
    cents: 1000 + ((i * 37) % 97) * 10,
  }));
  const expected = (prefix: RegExp, descending: boolean) => {
    const order = rows
      .filter((r) => prefix.test(`${r.cognome} ${r.nome}`.toLowerCase()))
      .sort((a, b) => a.cents - b.cents || (a.userId < b.userId ? -1 : 1))
      .map((r) => r.userId);
    return descending ? order.reverse() : order;
  };
  const walk = async (query: string) => {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 20; pages++) {
      const page = await listGalli(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.json.items.map((r: any) => r.userId));
      if (!page.json.nextCursor) return { seen, pages: pages + 1 };
      cursor = page.json.nextCursor;
    }
    throw new Error('more than 20 pages');
  };

  beforeAll(async () => {
    galli = (await openCall(operator, `Lista Galli ${Math.random().toString(36).slice(2, 6)}`)).call;
    await writeItems(rows.map((r) => rowItem(galli.id, r.userId, r.cognome, r.nome, r.cents)));
    await indexesCaughtUp();
  }, 120_000);

  it('"galli" by amount ascending and descending: every match once, in the order of the amount then the id, page after page', async () => {
    const up = await walk('&name=galli&sort=importo&limit=25');
    expect(up.seen).toEqual(expected(/^galli/, false));
    expect(up.seen).toHaveLength(250);
    expect(up.pages).toBe(10);
    const down = await walk('&name=Galli&sort=-importo&limit=50');
    expect(down.seen).toEqual(expected(/^galli/, true));
    const first = await listGalli('&name=galli&sort=-importo');
    expect(first.json.items.map((r: any) => r.importoTotale)).toEqual(
      expected(/^galli/, true)
        .slice(0, 10)
        .map((id) => rows.find((r) => r.userId === id)!.cents),
    );
    expect(first.json).toMatchObject({ count: DEBT_FILTER_COUNT_CAP, countCapped: true });
  });

  it('a surname and a name ("galli rossi"), and a single word ("gallini"), in amount order; a cursor of one order is refused by the other', async () => {
    expect((await walk('&name=galli rossi&sort=-importo&limit=10')).seen).toEqual(expected(/^galli rossi/, true));
    expect((await walk('&name=gallini&sort=importo&limit=50')).seen).toEqual(expected(/^gallini/, false));
    const down = await listGalli('&name=galli&sort=-importo&limit=10');
    const crossed = await listGalli(
      `&name=galli&sort=importo&limit=10&cursor=${encodeURIComponent(down.json.nextCursor)}`,
    );
    expect(crossed.status).toBe(400);
    expect(crossed.json.detail).toMatch(/[a-z]/);
    const otherName = await listGalli(
      `&name=gallo&sort=-importo&limit=10&cursor=${encodeURIComponent(down.json.nextCursor)}`,
    );
    expect(otherName.status).toBe(400);
  });
});

describe("a large call: a bounded count, export pages past one Query's 1 MB", () => {
  const ROWS = 2600;
  let large: { id: string; name: string };
  const listLarge = (query = '') => operator.get(`/api/calls/${large.id}/payment-list?anno=2026${query}`);

  /** 2,600 rows (with their totals) written straight into the table, as the refresh writes them. */
  beforeAll(async () => {
    large = (await openCall(operator, `Lista grande ${Math.random().toString(36).slice(2, 6)}`)).call;
    const items: Record<string, unknown>[] = [];
    let totals = zeroTotals();
    for (let i = 0; i < ROWS; i++) {
      const userId = `large-${large.id}-${String(i).padStart(4, '0')}`;
      const summary = summarize({
        callId: large.id,
        anno: 2026,
        userId,
        person: {
          cognome: i % 2 ? `Cappelli${String(i).padStart(4, '0')}` : `Zanardi${String(i).padStart(4, '0')}`,
          nome: 'Anna',
          codiceFiscale: `ZZZ${String(i).padStart(13, '0')}`,
          telefono: '3331234567',
          email: `${userId}@example.it`,
        },
        positions: [1, 2, 3].map((mese) => ({
          id: `P20260${mese}${userId}`,
          mese,
          importoDovuto: 1000 + i,
          importoTotalePagato: 0,
          isPagato: false,
          annullato: false,
          isEmailSent: true,
          cognome: '',
          nome: '',
          fiscalCode: '',
        })),
      })!;
      totals = addTotals(totals, summary.contribution);
      items.push(debtSummaryItem({ ...summary, version: 1, updatedAt: new Date().toISOString() }));
    }
    items.push({ ...keys.debtTotals(large.id, 2026), callId: large.id, anno: 2026, ...totals });
    await writeItems(items);
    await indexesCaughtUp();
  }, 180_000);

  it('a prefix matching more rows than the cap: Record trovati and the sum are flagged as lower bounds, the page is right', async () => {
    const wide = await listLarge('&name=capp');
    expect(wide.status).toBe(200);
    expect(wide.json).toMatchObject({ count: DEBT_FILTER_COUNT_CAP, countCapped: true });
    const cappelli = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 2);
    // The first rows in surname order, each with all its fields.
    expect(wide.json.items.map((r: any) => r.cognome)).toEqual(
      cappelli.slice(0, 10).map((i) => `Cappelli${String(i).padStart(4, '0')}`),
    );
    expect(wide.json.items[0]).toEqual({
      userId: expect.any(String),
      cognome: 'Cappelli0001',
      nome: 'Anna',
      codiceFiscale: 'ZZZ0000000000001',
      telefono: '3331234567',
      email: expect.stringContaining('@example.it'),
      importoTotale: 3 * 1001,
      paymentIds: expect.any(Array),
      daRiconciliare: 0,
    });
    // A lower bound: the amounts of the first 200 matches, less than the whole.
    expect(wide.json.sum).toBe(cappelli.slice(0, DEBT_FILTER_COUNT_CAP).reduce((s, i) => s + 3 * (1000 + i), 0));
    // Under the cap: exact (a fiscal-code prefix matching 100 rows, then 10).
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => 3 * (1000 + i)).reduce((a, b) => a + b, 0);
    expect((await listLarge('&name=zzz00000000000&limit=50')).json).toMatchObject({
      count: 100,
      countCapped: false,
      sum: upTo(100),
    });
    expect((await listLarge('&name=zzz000000000000&limit=25')).json).toMatchObject({
      count: 10,
      countCapped: false,
      sum: upTo(10),
      nextCursor: null,
    });
    // No text: the maintained totals, exact.
    expect((await listLarge()).json).toMatchObject({ count: ROWS, countCapped: false });
  });

  it("the export's pages of 2,500 are full (one Query stops at 1 MB: the request continues it) and follow to the end", async () => {
    const first = await listLarge('&limit=2500&sort=-importo');
    expect(first.status).toBe(200);
    expect(first.json.items).toHaveLength(2500);
    expect(first.json.items[0].importoTotale).toBe(3 * (1000 + ROWS - 1));
    const second = await listLarge(`&limit=2500&sort=-importo&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(second.json.items).toHaveLength(ROWS - 2500);
    expect(second.json.nextCursor).toBeNull();
    expect(new Set([...first.json.items, ...second.json.items].map((r: any) => r.userId)).size).toBe(ROWS);
  });
});

describe('rows stored before the list was spread over shards', () => {
  it('are listed while the migration has not moved them yet (expand), and once it rewrote their keys', async () => {
    const old = (await openCall(operator, `Lista vecchia ${Math.random().toString(36).slice(2, 6)}`)).call;
    // The keys rows had before the shards: every order of the call-year under one partition "DEBTS#<call>#<anno>".
    const unsharded = (row: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          /^gsi\dpk$/.test(key) ? String(value).replace(/^(DEBTS#[^#]+#\d{4})#\d+/, '$1') : value,
        ]),
      );
    const rows = ['Bianchi', 'Neri', 'Rossi'].map((cognome, i) =>
      unsharded(rowItem(old.id, `vecchio-${i}`, cognome, 'Anna', 1000 * (i + 1))),
    );
    expect(rows[0]!.gsi1pk).toBe(`DEBTS#${old.id}#2026`);
    await writeItems(rows);
    await indexesCaughtUp();
    const listOld = (query = '') => operator.get(`/api/calls/${old.id}/payment-list?anno=2026${query}`);
    // Before the migration: the list reads the old partition too.
    expect((await listOld('&sort=nome')).json.items.map((r: any) => r.cognome)).toEqual(['Bianchi', 'Neri', 'Rossi']);
    expect((await listOld('&name=rossi&sort=-importo')).json.items.map((r: any) => r.importoTotale)).toEqual([3000]);

    useLocalTable();
    const { runMigrationSteps } = await import('../../functions/entry/migration-catalogue.ts');
    expect(await runMigrationSteps('payment-list-shards-v1')).toBeGreaterThanOrEqual(3);
    await indexesCaughtUp();
    expect((await listOld('&sort=nome')).json.items.map((r: any) => r.cognome)).toEqual(['Bianchi', 'Neri', 'Rossi']);
    expect((await listOld('&name=rossi&sort=-importo')).json.items.map((r: any) => r.importoTotale)).toEqual([3000]);
    expect(await runMigrationSteps('payment-list-shards-v1')).toBe(0);
    // The back-fill scans the whole table, which holds everything the suite has written by now: minutes on a busy machine.
  }, 180_000);
});
