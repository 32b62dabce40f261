import { beforeAll, describe, expect, it } from 'vitest';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, localTable, useLocalTable } from '../support/dynamo.ts';
import { randomFiscalCode } from '../support/isee.ts';
import { jobAnswer } from '../support/jobs.ts';
import { newUserBody } from '../support/user-body.ts';
import { romeYear } from '../../functions/domain/period.ts';

/**
 * Enrolment management (issue 7) over real HTTP on the local stack: every new route as operator,
 * delegate and citizen, bad input, and two operators acting at once.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
let citizen: Client;

beforeAll(async () => {
  [operator, delegate, citizen] = await Promise.all([as('operator'), as('delegate'), as('citizen')]);
});

const userBody = (lastName: string) => newUserBody({ firstName: 'Utente', lastName, email: null });

/** A user registered by the operator, with a validated ISEE of `value` € (none when null). */
async function newUser(lastName: string, value: number | null = 8000, year = romeYear(new Date())) {
  const created = await operator.post('/api/users', userBody(lastName));
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  if (value !== null) {
    const isee = await operator.post(`/api/users/${created.json.id}/isee`, {
      value,
      year,
      date: new Date().toISOString(),
      protocollo: 'INPS-ISEE-2026-00000009Z-00',
      scadenza: `${year}-12-31`,
      excludeVerification: true,
    });
    expect(isee.status, JSON.stringify(isee.json)).toBe(201);
  }
  return created.json as { id: string; fiscalCode: string; lastName: string };
}

const enrol = async (callId: string, userId: string) => {
  const response = await operator.post(`/api/calls/${callId}/enrolments`, { userId });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json;
};
const csvBody = (lines: string[], extra: object = {}) => ({
  fileContentBase64: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`).toString('base64'),
  contentType: 'text/csv',
  updateIsees: false,
  removeOldSubscriptions: false,
  ...extra,
});

/** Polls the import's status until the background job ends (the local Step Functions runs it). */
async function importFinished(callId: string) {
  for (let i = 0; i < 200; i++) {
    const status = await operator.get(`/api/calls/${callId}/enrolments/import`);
    expect(status.status, JSON.stringify(status.json)).toBe(200);
    if (!status.json.isRunning) return status.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import never finished');
}
const HEADER = 'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee';

/**
 * The enrolled users table. Its rows and orders are global indexes, which show a write a moment later (as
 * DynamoDB's, eventually consistent): it is read once they have caught up with the writes before, as the
 * operator's next look at the page would.
 */
const enrolments = async (callId: string, query = '') => {
  await indexesCaughtUp();
  return operator.get(`/api/calls/${callId}/enrolments${query}`);
};

describe('the operator runs the enrolled users table', () => {
  it('enrols, confirms with hours, ranks, suspends, reactivates and deletes; each change shows in the table', async () => {
    const { call } = await openCall(operator);
    const [a, b] = [await newUser('Alfieri', 5000), await newUser('Bassi', null)];
    const added = await enrol(call.id, a.id);
    expect(added).toMatchObject({
      id: `${call.id}.${a.id}`,
      state: 'ADDED',
      weeklyHour: null,
      fee: null,
      isee: { valueCents: 500_000, state: 'VALIDATED' },
      iseeYearMismatch: false,
    });
    await enrol(call.id, b.id);
    expect((await operator.post(`/api/calls/${call.id}/enrolments`, { userId: b.id })).status).toBe(400);

    const confirmed = await operator.put(`/api/enrolments/${added.id}/state`, {
      state: 2,
      weeklyHour: 7,
      dataUpdate: added.dataUpdate,
    });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    // The band of openCall(): 40% of 18 € = 7,20 €/h; 7 h a week for the days of this month.
    expect(confirmed.json).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: 7,
      fee: { kind: 'DUE' },
      singlePaymentAllowed: true,
    });
    expect(confirmed.json.fee.amountCents % 720).toBe(0);
    const ranked = await operator.put(`/api/enrolments/${added.id}/ranking`, { rankingScore: 4 });
    expect(ranked.json.rankingScore).toBe(4);

    const page = await enrolments(call.id);
    expect(page.status).toBe(200);
    expect(page.json.total).toBe(2);
    expect(
      page.json.items.map((r: any) => [r.lastName, r.rankingScore, r.isee?.valueCents ?? null, r.iseeYearMismatch]),
    ).toEqual([
      ['Alfieri', 4, 500_000, false],
      ['Bassi', null, null, true],
    ]);
    expect((await enrolments(call.id, `?confirmed=true`)).json).toMatchObject({
      total: 1,
      items: [{ lastName: 'Alfieri' }],
    });
    expect((await enrolments(call.id, `?lastName=bas`)).json).toMatchObject({
      total: 1,
      items: [{ lastName: 'Bassi' }],
    });
    expect((await enrolments(call.id, `?iseeAbove=4.999,99`)).json).toMatchObject({
      total: 1,
      items: [{ lastName: 'Alfieri' }],
    });
    expect((await enrolments(call.id, `?iseeAbove=5000`)).json).toMatchObject({ total: 0, items: [] });

    expect((await operator.put(`/api/enrolments/${added.id}/state`, { state: 4 })).json.state).toBe('SUSPENDED');
    expect((await operator.put(`/api/enrolments/${added.id}/state`, { state: 2 })).json).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: 7,
    });
    expect((await operator.delete(`/api/enrolments/${added.id}`)).status).toBe(204);
    expect((await enrolments(call.id)).json.total).toBe(1);
  });

  it('pages 10/25/50 rows with a cursor, ranking order with unscored last both ways', async () => {
    const { call } = await openCall(operator);
    const users = [];
    for (let i = 0; i < 12; i++) users.push(await newUser(`Pagina${String(i).padStart(2, '0')}`, 4000 + i * 100));
    for (const [i, user] of users.entries()) {
      const row = await enrol(call.id, user.id);
      if (i < 8)
        expect((await operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: i % 4 })).status).toBe(200);
    }
    const first = (await enrolments(call.id)).json;
    expect(first.items).toHaveLength(10);
    expect(first.total).toBe(12);
    const second = (await enrolments(call.id, `?cursor=${encodeURIComponent(first.nextCursor)}`)).json;
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const ascending = [...first.items, ...second.items].map((r: any) => r.rankingScore);
    expect(ascending).toEqual([0, 0, 1, 1, 2, 2, 3, 3, null, null, null, null]);
    const down = (await enrolments(call.id, `?sort=-ranking&limit=25`)).json.items.map((r: any) => r.rankingScore);
    expect(down).toEqual([3, 3, 2, 2, 1, 1, 0, 0, null, null, null, null]);
    const byIsee = (await enrolments(call.id, `?sort=-isee&limit=25`)).json.items.map((r: any) => r.isee.valueCents);
    expect(byIsee).toEqual([...byIsee].sort((x, y) => y - x));
    // A cursor of another list is refused.
    expect((await enrolments(call.id, `?sort=-isee&cursor=${encodeURIComponent(first.nextCursor)}`)).status).toBe(400);
  });

  it('keeps the unscored rows in the ranking order under "ISEE maggiore di", after the scored ones and across pages', async () => {
    const { call } = await openCall(operator);
    const tag = Math.random().toString(36).slice(2, 7).toUpperCase();
    // Eleven citizens with an ISEE above 10.000 €: eight ranked, three not (one of them at 45.000 €); two below.
    const scored = [];
    for (let i = 0; i < 8; i++) scored.push(await newUser(`Soglia${tag}S${i}`, 11_000 + i * 1000));
    const unscored = [
      await newUser(`Soglia${tag}U0`, 45_000),
      await newUser(`Soglia${tag}U1`, 12_500),
      await newUser(`Soglia${tag}U2`, 20_000),
    ];
    const below = [await newUser(`Soglia${tag}B0`, 9_000), await newUser(`Soglia${tag}B1`, null)];
    for (const [i, user] of scored.entries()) {
      const row = await enrol(call.id, user.id);
      expect((await operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: 10 - i })).status).toBe(200);
    }
    for (const user of [...unscored, ...below]) await enrol(call.id, user.id);

    // The table reads a global index: the last enrolments show a moment later, as on a reload.
    const firstPage = async () => (await operator.get(`/api/calls/${call.id}/enrolments?iseeAbove=10000`)).json;
    const nextPage = async (cursor: string) =>
      (await operator.get(`/api/calls/${call.id}/enrolments?iseeAbove=10000&cursor=${encodeURIComponent(cursor)}`))
        .json;
    const everyPage = async () => {
      const first = await firstPage();
      return [...first.items, ...(first.nextCursor ? (await nextPage(first.nextCursor)).items : [])]
        .map((r: any) => r.lastName)
        .sort();
    };
    await expect.poll(everyPage, { timeout: 10_000 }).toEqual([...scored, ...unscored].map((u) => u.lastName).sort());
    expect((await firstPage()).items.map((r: any) => r.rankingScore)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, null, null]);
    const first = await firstPage();
    expect(first.total).toBe(11);
    expect(first.nextCursor).not.toBeNull();
    const second = await nextPage(first.nextCursor);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const shown = [...first.items, ...second.items].map((r: any) => r.lastName);
    expect(new Set(shown)).toEqual(new Set([...scored, ...unscored].map((u) => u.lastName)));

    // Descending too, unscored still last.
    const down = (await operator.get(`/api/calls/${call.id}/enrolments?iseeAbove=10000&sort=-ranking&limit=25`)).json;
    expect(down.items.map((r: any) => r.rankingScore)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, null, null, null]);
    // Only the unscored 45.000 € citizen is above 40.000 €: counted and shown.
    expect((await operator.get(`/api/calls/${call.id}/enrolments?iseeAbove=40000`)).json).toMatchObject({
      total: 1,
      items: [{ lastName: unscored[0].lastName, rankingScore: null }],
    });
  });

  it('a surname filter follows each change of its rows: ranking order, state, ISEE and a deletion', async () => {
    const { call } = await openCall(operator);
    const tag = Math.random().toString(36).slice(2, 7).toUpperCase();
    const [first, second, third] = [
      await newUser(`Filtro${tag}a`, 4000),
      await newUser(`Filtro${tag}b`, 6000),
      await newUser(`Filtro${tag}c`, 8000),
    ];
    const rows = [await enrol(call.id, first.id), await enrol(call.id, second.id), await enrol(call.id, third.id)];
    const surname = `lastName=filtro${tag.toLowerCase()}`;
    const names = async (query: string) => {
      const page = (await enrolments(call.id, `?${surname}&${query}`)).json;
      return { total: page.total, names: page.items.map((r: any) => r.lastName.slice(-1)) };
    };
    for (const [i, score] of [3, 1, 2].entries())
      expect((await operator.put(`/api/enrolments/${rows[i].id}/ranking`, { rankingScore: score })).status).toBe(200);
    expect(await names('sort=ranking')).toEqual({ total: 3, names: ['b', 'c', 'a'] });
    expect(await names('sort=-ranking')).toEqual({ total: 3, names: ['a', 'c', 'b'] });
    expect(await names('sort=-isee')).toEqual({ total: 3, names: ['c', 'b', 'a'] });

    const confirmed = await operator.put(`/api/enrolments/${rows[2].id}/state`, { state: 2, weeklyHour: 5 });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    expect(await names('confirmed=true')).toEqual({ total: 1, names: ['c'] });
    expect(await names('iseeAbove=5000')).toEqual({ total: 2, names: ['b', 'c'] });

    expect((await operator.delete(`/api/enrolments/${confirmed.json.id}`)).status).toBe(204);
    expect(await names('sort=ranking')).toEqual({ total: 2, names: ['b', 'a'] });
    expect(await names('confirmed=true')).toEqual({ total: 0, names: [] });

    // A subscription stored before the search items existed: found again once the back-fill (run at each local start) wrote it.
    await localTable().deleteItem({ pk: `CALL#${call.id}`, sk: `ENROLSEARCH#${first.id}` });
    expect(await names('sort=ranking')).toEqual({ total: 1, names: ['b'] });
    useLocalTable();
    const { runMigrationSteps } = await import('../../functions/entry/migration-catalogue.ts');
    expect(await runMigrationSteps('enrolment-search-item-v1')).toBeGreaterThanOrEqual(2);
    expect(await names('sort=ranking')).toEqual({ total: 2, names: ['b', 'a'] });
  });

  it('finds a renamed user under the new surname, first name and fiscal code, and no longer under the old ones', async () => {
    const { call } = await openCall(operator);
    const tag = Math.random().toString(36).slice(2, 7).toUpperCase();
    const user = await newUser(`Vecchio${tag}`);
    await enrol(call.id, user.id);
    // A rename reaches the user's subscriptions through gsi1 (their only list by user), which lists a new one a
    // moment later: the operator renames afterwards, as anyone would.
    await indexesCaughtUp();
    const edited = await operator.put(`/api/users/${user.id}`, {
      ...userBody(`Nuovo${tag}`),
      firstName: `Rinominato${tag}`,
    });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    const rows = async (query: string) =>
      (await enrolments(call.id, `?${query}`)).json.items.map((r: any) => [r.lastName, r.firstName, r.fiscalCode]);
    const renamed = [[`Nuovo${tag}`, `Rinominato${tag}`, edited.json.fiscalCode]];
    expect(await rows(`lastName=nuovo${tag.toLowerCase()}`)).toEqual(renamed);
    expect(await rows(`firstName=Rinominato${tag}`)).toEqual(renamed);
    expect(await rows(`fiscalCode=${edited.json.fiscalCode}`)).toEqual(renamed);
    expect(await rows(`lastName=Vecchio${tag}`)).toEqual([]);
    expect(await rows(`fiscalCode=${user.fiscalCode}`)).toEqual([]);
    expect(await rows('')).toEqual(renamed);
  });

  it('resets the hours, exports the CSV and gives the template', async () => {
    const { call } = await openCall(operator);
    const user = await newUser('Esporta', 12345.6);
    const row = await enrol(call.id, user.id);
    await operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 2.5 });
    const exported = await operator.get(`/api/calls/${call.id}/enrolments/csv`);
    expect(exported.status).toBe(200);
    expect(exported.json.fileName).toBe(`${call.name}.csv`);
    expect(exported.json.content).toBe(
      `\uFEFF${HEADER}\r\n${user.fiscalCode};Esporta;Utente;;2,5;12345,6;${romeYear(new Date())}\r\n`,
    );
    expect((await delegate.get(`/api/calls/${call.id}/enrolments/csv`)).status).toBe(403); // outside the delegate’s slice (part 2 §2.1, §6)

    expect((await jobAnswer(operator, `/api/calls/${call.id}/enrolments/reset-hours`, {})).json).toEqual({ reset: 1 });
    expect((await enrolments(call.id)).json.items[0]).toMatchObject({
      state: 'VALIDATED',
      weeklyHour: null,
      fee: null,
    });

    const template = await operator.get('/api/enrolments/template');
    expect(template.json.fileName).toMatch(/^Template_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(template.json.content).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('imports a CSV: preview writes nothing, Applica applies that preview in the background, the same file again changes nothing', async () => {
    const { call } = await openCall(operator);
    const [a, b] = [await newUser('Importa', 9000), await newUser('Rimuovi', 9000)];
    await enrol(call.id, b.id);
    const body = csvBody(
      [
        HEADER,
        `${a.fiscalCode};Importa;Utente;2;"3,5";"10.000,00";${romeYear(new Date())}`,
        `${randomFiscalCode()};Sconosciuto;X;;;;`,
      ],
      { updateIsees: true, removeOldSubscriptions: true },
    );
    const preview = await operator.post(`/api/calls/${call.id}/enrolments/import`, body);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    expect(preview.json).toMatchObject({
      add: [{ fiscalCode: a.fiscalCode }],
      update: [],
      remove: [{ fiscalCode: b.fiscalCode }],
      applied: false,
    });
    expect(preview.json.rejected).toEqual([
      expect.objectContaining({
        line: 3,
        reason: expect.stringMatching(/^Riga 3: .* non appartiene a un cittadino registrato/),
      }),
    ]);
    expect((await enrolments(call.id)).json.total).toBe(1);

    expect((await operator.get(`/api/calls/${call.id}/enrolments/import`)).json).toMatchObject({
      isRunning: false,
      state: 'NONE',
    });

    const started = await operator.post(`/api/calls/${call.id}/enrolments/import/apply`, {
      previewId: preview.json.previewId,
    });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    expect(started.json).toMatchObject({
      isRunning: true,
      state: 'RUNNING',
      total: 2,
      summary: { add: 1, update: 0, remove: 1, rejected: 1 },
    });
    expect(await importFinished(call.id)).toMatchObject({ state: 'SUCCEEDED', done: 2, total: 2, error: null });
    const rows = (await enrolments(call.id)).json;
    expect(rows.total).toBe(1);
    expect(rows.items[0]).toMatchObject({
      userId: a.id,
      state: 'VALIDATED',
      weeklyHour: 3.5,
      rankingScore: 2,
      isee: { valueCents: 1_000_000, state: 'VALIDATED' },
    });
    const again = await operator.post(`/api/calls/${call.id}/enrolments/import`, body);
    expect(again.json).toMatchObject({ add: [], update: [], remove: [], unchanged: 1, applied: false });
    // The preview already applied describes a call that changed since: refused, nothing written.
    const twice = await operator.post(`/api/calls/${call.id}/enrolments/import/apply`, {
      previewId: preview.json.previewId,
    });
    expect([twice.status, twice.json.detail]).toEqual([
      409,
      'Le iscrizioni del bando sono cambiate dopo l’anteprima: carica di nuovo il file per vedere una nuova anteprima.',
    ]);
    expect((await enrolments(call.id)).json).toMatchObject({
      total: 1,
      items: [{ userId: a.id, dataUpdate: rows.items[0].dataUpdate }],
    });
  });

  it('refuses to apply a preview that is unknown, of another call or stale, or a second time while it runs', async () => {
    const { call } = await openCall(operator);
    const { call: other } = await openCall(operator);
    const user = await newUser('Anteprima', 9000);
    const row = await enrol(call.id, user.id);
    const body = csvBody([HEADER, `${user.fiscalCode};Anteprima;Utente;4;;;`]);
    const preview = (await operator.post(`/api/calls/${call.id}/enrolments/import`, body)).json;
    const cases: [Promise<{ status: number; json: any }>, number, string | RegExp][] = [
      [
        operator.post(`/api/calls/${call.id}/enrolments/import/apply`, {}),
        400,
        'Manca l’anteprima da applicare: carica il file e premi «Anteprima».',
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import/apply`, { previewId: 'sconosciuta' }),
        404,
        'Anteprima non trovata: carica di nuovo il file e premi «Anteprima».',
      ],
      [
        operator.post(`/api/calls/${other.id}/enrolments/import/apply`, { previewId: preview.previewId }),
        404,
        'Anteprima non trovata: carica di nuovo il file e premi «Anteprima».',
      ],
      [
        operator.post(`/api/calls/nessuno/enrolments/import/apply`, { previewId: preview.previewId }),
        404,
        'Il bando selezionato non è presente.',
      ],
      [operator.get(`/api/calls/nessuno/enrolments/import`), 404, 'Il bando selezionato non è presente.'],
    ];
    for (const [response, status, detail] of cases) {
      const { status: got, json } = await response;
      expect([got, json.detail], JSON.stringify(json)).toEqual([status, detail]);
    }
    // Another operator changes the subscription after the preview: 409, the preview is not applied.
    expect((await operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: 9 })).status).toBe(200);
    const stale = await operator.post(`/api/calls/${call.id}/enrolments/import/apply`, {
      previewId: preview.previewId,
    });
    expect([stale.status, stale.json.detail]).toEqual([
      409,
      'Le iscrizioni del bando sono cambiate dopo l’anteprima: carica di nuovo il file per vedere una nuova anteprima.',
    ]);
    expect((await enrolments(call.id)).json.items[0]).toMatchObject({ rankingScore: 9 });
    expect((await operator.get(`/api/calls/${call.id}/enrolments/import`)).json).toMatchObject({ state: 'NONE' });

    // Two clicks at once: one import starts, the other is refused.
    const fresh = (await operator.post(`/api/calls/${call.id}/enrolments/import`, body)).json;
    const clicks = await Promise.all(
      [1, 2].map(() => operator.post(`/api/calls/${call.id}/enrolments/import/apply`, { previewId: fresh.previewId })),
    );
    expect(clicks.map((c) => c.status)).toContain(200);
    const refused = clicks.filter((c) => c.status !== 200);
    for (const click of refused) expect(click.status).toBe(409);
    expect(await importFinished(call.id)).toMatchObject({ state: 'SUCCEEDED', done: 1, total: 1 });
    expect((await enrolments(call.id)).json.items[0]).toMatchObject({ rankingScore: 4 });
  });
});

describe('who may do what, and bad input', () => {
  it('refuses the delegate the table (outside their slice, part 2 §2.1, §6) and every change (403); a citizen reaches none of it', async () => {
    const { call } = await openCall(operator);
    const user = await newUser('Permessi');
    const row = await enrol(call.id, user.id);
    expect((await delegate.get(`/api/calls/${call.id}/enrolments`)).status).toBe(403);
    const writes = [
      delegate.post(`/api/calls/${call.id}/enrolments`, { userId: user.id }),
      delegate.put(`/api/enrolments/${row.id}/state`, { state: 3 }),
      delegate.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: 1 }),
      delegate.delete(`/api/enrolments/${row.id}`),
      jobAnswer(delegate, `/api/calls/${call.id}/enrolments/reset-hours`, {}),
      delegate.post(`/api/calls/${call.id}/enrolments/import`, csvBody([HEADER])),
      delegate.get('/api/enrolments/template'),
      delegate.post(`/api/calls/${call.id}/enrolments/import/apply`, { previewId: 'x' }),
      delegate.get(`/api/calls/${call.id}/enrolments/import`),
    ];
    expect((await Promise.all(writes)).map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403, 403]);
    const citizenCalls = [
      citizen.get(`/api/calls/${call.id}/enrolments`),
      citizen.get(`/api/calls/${call.id}/enrolments/csv`),
      citizen.put(`/api/enrolments/${row.id}/state`, { state: 3 }),
      citizen.post(`/api/calls/${call.id}/enrolments/import/apply`, { previewId: 'x' }),
      citizen.get(`/api/calls/${call.id}/enrolments/import`),
    ];
    expect((await Promise.all(citizenCalls)).map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect((await enrolments(call.id)).json.items[0]).toMatchObject({ state: 'ADDED', dataUpdate: row.dataUpdate });
  });

  it('answers bad codes, hours, scores, filters and ids with an Italian 400/404/409, and writes nothing', async () => {
    const { call } = await openCall(operator);
    const user = await newUser('Errori');
    const row = await enrol(call.id, user.id);
    const cases: [Promise<{ status: number; json: any }>, number, string | RegExp][] = [
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 2 }), 400, 'Il campo non può essere vuoto!'],
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 0 }), 400, /ore/],
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 1.234 }), 400, /due decimali/],
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 'abc' }), 400, /fino a 168/],
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: '1e3' }), 400, /fino a 168/],
      [
        operator.put(`/api/enrolments/${row.id}/state`, { state: 7 }),
        400,
        'Il codice di stato deve essere 0, 2, 3 o 4.',
      ],
      [operator.put(`/api/enrolments/${row.id}/state`, { state: 4 }), 409, /non può passare/],
      [operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: '' }), 400, 'Il campo non può essere vuoto!'],
      [
        operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: 2.5 }),
        400,
        'Il punteggio deve essere un numero intero.',
      ],
      [operator.delete(`/api/enrolments/${row.id}`), 409, 'Si può cancellare solo un’iscrizione approvata.'],
      [
        operator.put(`/api/enrolments/${call.id}.nessuno/state`, { state: 3 }),
        404,
        'L’iscrizione selezionata non è presente.',
      ],
      [operator.get(`/api/calls/nessuno/enrolments`), 404, 'Il bando selezionato non è presente.'],
      [enrolments(call.id, `?iseeAbove=dieci`), 400, /valore ISEE valido/],
      [enrolments(call.id, `?limit=20`), 400, /10, 25 o 50/],
      [
        operator.post(`/api/calls/${call.id}/enrolments`, { userId: 'nessuno' }),
        404,
        'L’utente selezionato non è presente.',
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, {
          ...csvBody([HEADER]),
          contentType: 'application/pdf',
        }),
        400,
        'Carica un file con un formato supportato',
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, { ...csvBody([]), fileContentBase64: '' }),
        400,
        'Nessun file caricato',
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, { contentType: 'text/csv' }),
        400,
        'Nessun file caricato',
      ],
      [
        operator.post(
          `/api/calls/${call.id}/enrolments/import`,
          csvBody(['codiceFiscale;nome;ore;isee', `${user.fiscalCode};Utente;12;8000`]),
        ),
        400,
        /Attese: codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\. Trovate: codiceFiscale;nome;ore;isee\./,
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, {
          ...csvBody([]),
          fileContentBase64: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]).toString('base64'),
        }),
        400,
        /^Il file non è un CSV: contiene dati binari/,
      ],
      // A file of 2,5 MB: the limit is said as the file's size, not as the encoded request's.
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, {
          ...csvBody([]),
          fileContentBase64: Buffer.alloc(2_500_000, 'a').toString('base64'),
        }),
        413,
        'Il file è troppo grande: la dimensione massima è 2 MB.',
      ],
      [
        operator.post(`/api/calls/${call.id}/enrolments/import`, {
          ...csvBody([]),
          fileContentBase64: Buffer.alloc(2_098_000, 'a').toString('base64'),
        }),
        400,
        'Il file è troppo grande: la dimensione massima è 2 MB.',
      ],
    ];
    for (const [response, status, detail] of cases) {
      const { status: got, json } = await response;
      expect([got, json.detail], JSON.stringify(json)).toEqual([status, expect.any(String)]);
      expect(json.detail).toMatch(detail);
    }
    expect((await enrolments(call.id)).json).toMatchObject({
      total: 1,
      items: [{ state: 'ADDED', rankingScore: null, dataUpdate: row.dataUpdate }],
    });
  });

  it('lets exactly one of two operators acting at once win; the other gets 409 and nothing of it is written', async () => {
    const { call } = await openCall(operator);
    const user = await newUser('Concorrenza');
    const row = await enrol(call.id, user.id);
    const second = await as('entityOperator');
    const [one, two] = await Promise.all([
      operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 5, dataUpdate: row.dataUpdate }),
      second.put(`/api/enrolments/${row.id}/state`, { state: 3, dataUpdate: row.dataUpdate }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const loser = one.status === 409 ? one : two;
    expect(loser.json.detail).toBe(
      'L’iscrizione è stata modificata da un altro operatore: ricarica la pagina e riprova.',
    );
    const winner = one.status === 200 ? one : two;
    expect((await enrolments(call.id)).json.items[0]).toMatchObject({
      state: winner.json.state,
      dataUpdate: winner.json.dataUpdate,
    });
    // Without a version from the web: the write is conditional on what the server read.
    const [r1, r2] = await Promise.all(
      [1, 2].map((score) => operator.put(`/api/enrolments/${row.id}/ranking`, { rankingScore: score })),
    );
    expect([r1.status, r2.status]).toContain(200);
  });
});

describe('the citizen sees the state and, once approved, the monthly cost', () => {
  it('shows weeklyHour and cost on the call detail after the operator approves', async () => {
    const { call } = await openCall(operator);
    const me = (await citizen.get('/api/me')).json;
    const row = await enrol(call.id, me.userId);
    expect((await citizen.get(`/api/calls/${call.id}/subscription`)).json.subscription).toMatchObject({
      state: 'ADDED',
      cost: null,
    });
    const approved = (await operator.put(`/api/enrolments/${row.id}/state`, { state: 2, weeklyHour: 7 })).json;
    const mine = (await citizen.get(`/api/calls/${call.id}/subscription`)).json.subscription;
    expect(mine).toMatchObject({ state: 'VALIDATED', weeklyHour: 7, cost: approved.fee.amountCents / 100 });
    // Her list reads a global index: as on a reload, a moment later.
    await indexesCaughtUp();
    expect(
      (await citizen.get('/api/subscriptions?limit=100')).json.items.find((s: any) => s.id === row.id),
    ).toMatchObject({ cost: approved.fee.amountCents / 100 });
  });
});

/**
 * An item holds at most 400 KB, attribute names included (DynamoDB Developer Guide, "Constraints", Items:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-items). An operation on a
 * large call is audited in entries cut by size before anything is written, so none is refused after the change.
 */
describe('a large call: audits that DynamoDB can hold', () => {
  const ITEM_LIMIT = 400 * 1024;
  let repositories: {
    subscriptionItem: (r: any) => Record<string, unknown>;
    enrolmentSearchItem: (r: any) => Record<string, unknown>;
    newSubscription: (input: any) => any;
    recount: (callId: string) => Promise<void>;
  };

  beforeAll(async () => {
    useLocalTable();
    const subscriptions = await import('../../functions/subscriptions/repository.ts');
    const { subscriptionItem, enrolmentSearchItem } = await import('../../functions/subscriptions/repository-items.ts');
    const { newSubscription } = await import('../../functions/domain/new-subscription.ts');
    repositories = {
      subscriptionItem,
      enrolmentSearchItem,
      newSubscription,
      recount: async (callId) =>
        subscriptions.recountEnrolments(callId, await subscriptions.listAllSubscriptionsOfCall(callId)),
    };
  });

  /** Subscriptions written straight into the table, as the API writes them, for `people` of a call. */
  async function seed(
    callId: string,
    people: { userId: string; fiscalCode: string; lastName: string }[],
    extra: Record<string, unknown>,
  ) {
    const call = (await localTable().item({ pk: `CALL#${callId}`, sk: 'CALL' }))!;
    const records = people.map((person) =>
      repositories.newSubscription({
        call,
        person: { ...person, firstName: 'Anna' },
        now: new Date(),
        state: 'VALIDATED',
        ...extra,
      }),
    );
    await localTable().putItems(
      records.flatMap((record) => [repositories.subscriptionItem(record), repositories.enrolmentSearchItem(record)]),
    );
    await repositories.recount(callId);
  }
  const sizeOf = (item: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(item));

  // Volume, not speed: thousands of items through the local table take long on a busy machine.
  it('resets the hours of 2,500 approved subscriptions, every one audited, in entries under 400 KB', async () => {
    const { call } = await openCall(operator);
    const people = Array.from({ length: 2500 }, (_, i) => ({
      userId: `reset-${call.id}-${String(i).padStart(4, '0')}`,
      fiscalCode: randomFiscalCode(),
      lastName: `Reset${i}`,
    }));
    await seed(call.id, people, { weeklyHour: 3 });
    const reset = await jobAnswer(operator, `/api/calls/${call.id}/enrolments/reset-hours`, {});
    expect([reset.status, reset.json]).toEqual([200, { reset: 2500 }]);
    // The call's own entries (its creation) aside: those of the reset.
    const entries = (await localTable().auditOf('call', call.id)).filter((entry) => entry.before?.weeklyHours);
    const audited = entries.flatMap((entry) =>
      entry.before.weeklyHours.map((h: { id: string; weeklyHour: number }) => [h.id, h.weeklyHour]),
    );
    expect(audited).toHaveLength(2500);
    expect(new Set(audited.map(([id]) => id)).size).toBe(2500);
    expect(audited.every(([, hours]) => hours === 3)).toBe(true);
    for (const entry of entries) expect(sizeOf(entry)).toBeLessThan(ITEM_LIMIT);
    expect(
      (await enrolments(call.id, '?confirmed=true&limit=10')).json.items.every(
        (row: { weeklyHour: number | null }) => row.weeklyHour === null,
      ),
    ).toBe(true);
  }, 180_000);

  it('imports new hours for 150 subscriptions carrying five files each: every change audited, in entries under 400 KB', async () => {
    const { call } = await openCall(operator);
    const users = await import('../../functions/users/repository.ts');
    const people = [];
    for (let i = 0; i < 150; i++) {
      const fiscalCode = randomFiscalCode();
      const userId = `import-${call.id}-${String(i).padStart(3, '0')}`;
      const now = new Date().toISOString();
      expect(await users.claimFiscalCode(fiscalCode, userId)).toBe(true);
      await users.insertUser(
        {
          id: userId,
          fiscalCode,
          firstName: 'Anna',
          lastName: `Allegati${i}`,
          state: 'VALIDATED',
          dataInsert: now,
          nation: 'IT',
        },
        now,
      );
      people.push({ userId, fiscalCode, lastName: `Allegati${i}` });
    }
    const file = (n: number) => ({
      id: `file-${n}`,
      name: `${'Documentazione allegata alla domanda di iscrizione '.repeat(3)}${n}.pdf`,
      contentType: 'application/pdf',
      size: 123_456,
      key: `subscriptions/${call.id}/${'x'.repeat(60)}-${n}`,
    });
    await seed(call.id, people, { weeklyHour: 2, rankingScore: 1, files: [1, 2, 3, 4, 5].map(file) });

    const body = csvBody([HEADER, ...people.map((p) => `${p.fiscalCode};${p.lastName};Anna;7;"4,5";;`)]);
    const preview = await operator.post(`/api/calls/${call.id}/enrolments/import`, body);
    expect(preview.status, JSON.stringify(preview.json).slice(0, 300)).toBe(200);
    expect(preview.json.update).toHaveLength(150);
    expect(
      (await operator.post(`/api/calls/${call.id}/enrolments/import/apply`, { previewId: preview.json.previewId }))
        .status,
    ).toBe(200);
    expect(await importFinished(call.id)).toMatchObject({ state: 'SUCCEEDED', done: 150, total: 150, error: null });

    const entries = await localTable().auditOf('subscription-import', call.id);
    const after = entries.flatMap((entry) => entry.after as { id: string; weeklyHour: number; files: unknown[] }[]);
    expect(after).toHaveLength(150);
    expect(after.every((record) => record.weeklyHour === 4.5 && record.files.length === 5)).toBe(true);
    expect(entries.length).toBeGreaterThan(1);
    for (const entry of entries) expect(sizeOf(entry)).toBeLessThan(ITEM_LIMIT);
  }, 180_000);
});
