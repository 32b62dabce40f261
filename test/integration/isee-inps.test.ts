import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as, request } from '../support/api.ts';
import { attestationPdf, randomFiscalCode, stageIseeFile } from '../support/isee.ts';
import { newUserBody } from '../support/user-body.ts';
import { romeYear } from '../../functions/domain/period.ts';

/**
 * The ISEE from INPS through PDND over the local stack: the citizen's fetch, the operator's refresh and check,
 * the records of the queries, and the faults of INPS and PDND as a citizen or an operator meets them.
 */
type Client = Awaited<ReturnType<typeof as>>;
let citizen: Client;
let operator: Client;
let delegate: Client;
const year = romeYear(new Date());
const inps = (path: string, body: unknown) =>
  fetch(`${inject('inpsUrl')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const pdnd = (path: string, body: unknown) =>
  fetch(`${inject('pdndUrl')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  [citizen, operator, delegate] = await Promise.all([as('citizen'), as('operator'), as('delegate')]);
});
afterEach(async () => {
  await inps('/admin/reset', {});
  await pdnd('/admin/reset', {});
});

/** A citizen registered by the office, with a fiscal code INPS does not know yet. */
async function newUser(lastName = 'Inps') {
  const fiscalCode = randomFiscalCode();
  const created = await operator.post(
    '/api/users',
    newUserBody({ firstName: 'Prova', lastName, fiscalCode, email: `${fiscalCode.toLowerCase()}@example.it` }),
  );
  expect(created.status).toBe(201);
  return { id: created.json.id as string, fiscalCode };
}

describe('a citizen fetches their ISEE from INPS', () => {
  it('is accepted at once (source INPS), shows on the profile list, and the query is recorded for them to see', async () => {
    const fetched = await citizen.post('/api/me/isee/inps', {});
    expect(fetched.status).toBe(200);
    expect(['VALIDATED', 'UNCHANGED']).toContain(fetched.json.outcome);
    expect(fetched.json.isee).toMatchObject({
      state: 'VALIDATED',
      source: 'INPS',
      sourceLabel: 'INPS tramite PDND',
      value: 8450.32,
      year,
      scadenza: `${year}-12-31`,
      hasFile: false,
    });
    expect(fetched.json.isee.inps).toMatchObject({
      dataPresentazione: `${year}-01-15`,
      scalaEquivalenza: 2.04,
      omissions: [],
    });
    expect(fetched.json.isee.inps.household).toHaveLength(3);
    // The profile's list is read through a global index: it shows the new ISEE once the index has it (a reload).
    await expect
      .poll(async () => (await citizen.get('/api/me/isee')).json.items[0])
      .toMatchObject({ id: fetched.json.isee.id, sourceLabel: 'INPS tramite PDND' });
    const queries = await citizen.get('/api/me/inps-queries');
    expect(queries.status).toBe(200);
    expect(queries.json.items[0]).toMatchObject({
      reason: 'CITIZEN',
      reasonLabel: 'Su tua richiesta, dalla pagina Caricamento ISEE',
      esito: 'OK',
      resultLabel: 'ISEE trovato',
    });
    // The citizen's view carries no voucher, purpose or operator names.
    expect(Object.keys(queries.json.items[0]).sort()).toEqual([
      'at',
      'esito',
      'id',
      'idRichiesta',
      'reason',
      'reasonLabel',
      'resultLabel',
    ]);
  });

  it('fetched again, the same DSU writes nothing new', async () => {
    const first = await citizen.post('/api/me/isee/inps', {});
    await expect
      .poll(async () =>
        (await citizen.get('/api/me/isee')).json.items.some((i: { id: string }) => i.id === first.json.isee.id),
      )
      .toBe(true);
    const before = (await citizen.get('/api/me/isee')).json.items.length;
    const again = await citizen.post('/api/me/isee/inps', {});
    expect(again.json.outcome).toBe('UNCHANGED');
    expect(again.json.message).toMatch(/^Il tuo ISEE è già aggiornato/);
    expect((await citizen.get('/api/me/isee')).json.items.length).toBe(before);
  });

  it('INPS offline: 503 with what to do, nothing written', async () => {
    const before = (await citizen.get('/api/me/isee')).json.items.length;
    await inps('/admin/faults', { kind: 'DATABASE_OFFLINE' });
    const fetched = await citizen.post('/api/me/isee/inps', {});
    expect(fetched.status).toBe(503);
    expect(fetched.json.detail).toBe(
      'Il servizio ISEE dell’INPS non è raggiungibile in questo momento. Riprova più tardi oppure carica l’attestazione.',
    );
    expect((await citizen.get('/api/me/isee')).json.items.length).toBe(before);
    expect((await citizen.get('/api/me/inps-queries')).json.items[0]).toMatchObject({
      esito: 'DATABASE_OFFLINE',
      resultLabel: 'INPS non disponibile',
    });
  });

  it('malformed XML and a PDND refusal: an Italian message, no ISEE invented', async () => {
    const before = (await citizen.get('/api/me/isee')).json.items.length;
    await inps('/admin/faults', { kind: 'malformed' });
    expect((await citizen.post('/api/me/isee/inps', {})).status).toBe(503);
    // INPS refuses the cached voucher as expired, and PDND refuses to give a new one.
    await inps('/admin/faults', { kind: 'voucher-expired' });
    await pdnd('/admin/faults', { kind: 'refuse', times: 'always' });
    const refused = await citizen.post('/api/me/isee/inps', {});
    expect(refused.status).toBe(502);
    expect(refused.json.detail).toMatch(/^Non è stato possibile consultare l’INPS per conto del Comune/);
    expect((await citizen.get('/api/me/inps-queries')).json.items[0]).toMatchObject({ esito: 'NON_INVIATA' });
    expect((await citizen.get('/api/me/isee')).json.items.length).toBe(before);
  });
});

describe('an operator refreshes and checks ISEE with INPS', () => {
  it('a fiscal code INPS does not know: NOT_FOUND, nothing written; once the DSU exists, with omissions, it waits for review', async () => {
    const user = await newUser();
    const none = await operator.post(`/api/users/${user.id}/isee/inps`, {});
    expect(none.status).toBe(200);
    expect(none.json).toMatchObject({
      outcome: 'NOT_FOUND',
      isee: null,
      message:
        'INPS non ha un’attestazione ISEE valida oggi per questo codice fiscale: l’utente deve presentare la DSU o caricare l’attestazione.',
    });
    expect((await operator.get(`/api/users/${user.id}/isee`)).json.items).toEqual([]);
    expect(
      (
        await inps('/admin/dsu', {
          fiscalCode: user.fiscalCode,
          value: 5321.4,
          omissions: true,
          lastName: 'INPS',
          firstName: 'PROVA',
        })
      ).status,
    ).toBe(200);
    const review = await operator.post(`/api/users/${user.id}/isee/inps`, {});
    expect(review.json).toMatchObject({ outcome: 'REVIEW', isee: { state: 'LOADED', source: 'INPS', value: 5321.4 } });
    expect(review.json.isee.inps.reviewReason).toMatch(
      /^Omissioni o difformità segnalate da INPS: patrimonio mobiliare/,
    );
    await expect
      .poll(async () =>
        (await operator.get('/api/isee?limit=100')).json.items.find(
          (i: { id: string }) => i.id === review.json.isee.id,
        ),
      )
      .toMatchObject({ sourceLabel: 'INPS tramite PDND' });
    const queries = await operator.get(`/api/users/${user.id}/inps-queries`);
    expect(queries.json.items.map((q: { esito: string }) => q.esito)).toEqual(['OK', 'DATI_NON_TROVATI']);
    expect(queries.json.items[0]).toMatchObject({
      reason: 'OPERATOR',
      fiscalCode: user.fiscalCode,
      benefitCode: 'A2.07',
      applicationNumber: `PORTALE-${user.id}`,
      who: { role: 'OPERATOR' },
    });
    expect(queries.json.items[0].voucherJti).toMatch(/^[0-9a-f-]{36}$/);
    expect(queries.json.items[0].idRichiesta).toMatch(/^\d+$/);
  });

  it('Verifica con INPS shows the difference beside the uploaded value, and changes nothing', async () => {
    const user = await newUser('Verifica');
    await inps('/admin/dsu', { fiscalCode: user.fiscalCode, value: 77895.81 });
    const document = await stageIseeFile(
      operator,
      await attestationPdf({
        fullName: 'Prova Verifica',
        fiscalCode: user.fiscalCode,
        protocol: `INPS-ISEE-${year}-00000077B-00`,
        value: '0,77',
      }),
    );
    const uploaded = await operator.post(`/api/users/${user.id}/isee`, {
      document,
      value: 0.77,
      year,
      date: new Date().toISOString(),
      protocollo: `INPS-ISEE-${year}-00000077B-00`,
      scadenza: `${year}-12-31`,
    });
    expect(uploaded.status).toBe(201);
    const check = await operator.post(`/api/isee/${uploaded.json.id}/inps-check`, {});
    expect(check.status).toBe(200);
    expect(check.json).toMatchObject({
      found: true,
      agrees: false,
      inps: { value: 77895.81 },
      declared: { value: 0.77, difference: 77895.04 },
      protocolMatches: false,
    });
    expect((await operator.get(`/api/isee/${uploaded.json.id}`)).json).toMatchObject({
      state: 'LOADED',
      value: 0.77,
      sourceLabel: 'Documento caricato',
    });
  });

  it('a delegate may neither fetch nor check (403), and an unknown ISEE is 404', async () => {
    const user = await newUser('Delegato');
    expect((await delegate.post(`/api/users/${user.id}/isee/inps`, {})).status).toBe(403);
    expect((await delegate.get(`/api/users/${user.id}/inps-queries`)).status).toBe(403);
    expect((await operator.post('/api/isee/nessuno/inps-check', {})).status).toBe(404);
    expect((await request('POST', '/api/me/isee/inps')).status).toBe(401);
  });
});
