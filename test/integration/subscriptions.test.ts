import { beforeAll, describe, expect, it } from 'vitest';
import { as } from '../support/api.ts';
import { openCall, upload } from '../support/calls.ts';
import { renamedExecutable, samplePdf, tinyPng } from '../support/files.ts';
import { indexesCaughtUp } from '../support/dynamo.ts';
import { attestationPdf, giveValidatedIsee, stageIseeFile } from '../support/isee.ts';

type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let citizen: Client;
let otherCitizen: Client;

beforeAll(async () => {
  operator = await as('operator');
  citizen = await as('citizen');
  otherCitizen = await as('newCitizen');
  await giveValidatedIsee(citizen, operator);
  await giveValidatedIsee(otherCitizen, operator);
});

const file = async (client = citizen, name = 'documento.pdf') =>
  upload(client, 'subscription-file', await samplePdf('Certificato'), name);
const mine = async (client: Client, callId: string) =>
  (await client.get(`/api/calls/${callId}/subscription`)).json.subscription;
const count = async (callId: string) => (await operator.get(`/api/calls/${callId}`)).json.subscriptionCount;

describe('citizens apply to open calls with documents', () => {
  it('creates the request in state ADDED with its files, shown on the call, in /iscrizioni and as the call’s count', async () => {
    const { call, service } = await openCall(operator);
    expect(await mine(citizen, call.id)).toBeNull();
    const response = await citizen.post(`/api/calls/${call.id}/subscriptions`, {
      files: [await file(), await upload(citizen, 'subscription-file', tinyPng(), 'foto.png', 'image/png')],
    });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      state: 'ADDED',
      announcementId: call.id,
      announcement: { id: call.id, name: call.name, service: { id: service.id, name: service.name } },
      weeklyHour: null,
      cost: null,
    });
    expect(response.json.subscriptionFiles.map((f: any) => [f.name, f.contentType])).toEqual([
      ['documento.pdf', 'application/pdf'],
      ['foto.png', 'image/png'],
    ]);
    expect((await fetch(response.json.subscriptionFiles[1].url)).headers.get('content-type')).toBe('image/png');

    expect((await mine(citizen, call.id)).id).toBe(response.json.id);
    // The lists read a global index, which shows the request a moment later, as on a reload.
    await indexesCaughtUp();
    const list = (await citizen.get('/api/subscriptions?limit=100')).json.items;
    expect(list[0]).toMatchObject({ id: response.json.id, state: 'ADDED' });
    expect((await citizen.get('/api/subscriptions?state=ADDED&limit=100')).json.items.map((s: any) => s.id)).toContain(
      response.json.id,
    );
    expect((await citizen.get('/api/subscriptions?state=REFUSED')).json.items.map((s: any) => s.id)).not.toContain(
      response.json.id,
    );
    expect(await count(call.id)).toBe(1);
  });

  it('pages /iscrizioni five at a time, also with a state filter', async () => {
    const fresh = await as('newCitizen');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { call } = await openCall(operator);
      ids.push((await fresh.post(`/api/calls/${call.id}/subscriptions`, { files: [] })).json.id);
    }
    await indexesCaughtUp();
    for (const query of ['', 'state=ADDED&']) {
      const first = (await fresh.get(`/api/subscriptions?${query}`)).json;
      expect(first.items).toHaveLength(5);
      const rest: any[] = [];
      let cursor = first.nextCursor;
      while (cursor) {
        const page = (await fresh.get(`/api/subscriptions?${query}cursor=${cursor}`)).json;
        rest.push(...page.items);
        cursor = page.nextCursor;
      }
      const all = [...first.items, ...rest].map((s) => s.id);
      expect(new Set(all).size).toBe(all.length);
      for (const id of ids) expect(all).toContain(id);
    }
  });

  describe('bad requests get a clear Italian error and change nothing', () => {
    it('a second request for the same call (400), even two at the same moment', async () => {
      const { call } = await openCall(operator);
      const [a, b] = await Promise.all([
        citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] }),
        citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] }),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 400]);
      const again = await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [await file()] });
      expect([again.status, again.json.detail]).toEqual([
        400,
        'Hai già inviato una richiesta di iscrizione a questo bando.',
      ]);
      expect(await count(call.id)).toBe(1);
      expect((await mine(citizen, call.id)).subscriptionFiles).toEqual([]);
    });

    it('a call that is not open (400) or does not exist (404)', async () => {
      const { call } = await openCall(operator);
      const closed = await operator.put(`/api/calls/${call.id}`, { ...call, state: 2, files: [] });
      expect(closed.status).toBe(200);
      const response = await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] });
      expect([response.status, response.json.detail]).toEqual([
        400,
        'Il bando selezionato non è aperto alle iscrizioni.',
      ]);
      const unknown = await citizen.post('/api/calls/non-esiste/subscriptions', { files: [] });
      expect([unknown.status, unknown.json.detail]).toEqual([404, 'Il bando selezionato non è presente.']);
      expect(await count(call.id)).toBe(0);
    });

    const refusals: Array<[string, () => Promise<unknown[]>, string]> = [
      [
        'more than five files',
        async () => Promise.all(Array.from({ length: 6 }, (_, i) => file(citizen, `doc-${i}.pdf`))),
        'Non è possibile caricare più di cinque allegati.',
      ],
      [
        'a renamed executable',
        async () => [await file(), await upload(citizen, 'subscription-file', renamedExecutable(), 'certificato.pdf')],
        'Carica un file con un formato supportato',
      ],
      [
        'an oversized file',
        async () => [
          await upload(citizen, 'subscription-file', new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25), 'enorme.pdf'),
        ],
        'Il file supera la dimensione massima di 10 MB.',
      ],
      [
        'another person’s upload',
        async () => [await file(otherCitizen)],
        'Il file caricato non è stato trovato: caricalo di nuovo.',
      ],
    ];
    for (const [name, files, detail] of refusals) {
      it(name, async () => {
        const { call } = await openCall(operator);
        const response = await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: await files() });
        expect([response.status, response.json.detail]).toEqual([400, detail]);
        expect(await mine(citizen, call.id)).toBeNull();
        expect(await count(call.id)).toBe(0);
        // A refusal does not stop a correct request afterwards.
        expect((await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [await file()] })).status).toBe(201);
      });
    }

    it('a citizen acting on another citizen’s subscription or files gets 404', async () => {
      const { call } = await openCall(operator);
      const own = (await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [await file()] })).json;
      expect((await citizen.get(`/api/subscriptions/${own.id}`)).json.subscriptionFiles).toHaveLength(1);
      const stranger = await otherCitizen.get(`/api/subscriptions/${own.id}`);
      expect([stranger.status, stranger.json.detail]).toEqual([404, 'L’iscrizione selezionata non è presente.']);
      expect(JSON.stringify(stranger.json)).not.toContain('documento.pdf');
      expect(await mine(otherCitizen, call.id)).toBeNull();
      expect((await otherCitizen.get('/api/subscriptions?limit=100')).json.items.map((s: any) => s.id)).not.toContain(
        own.id,
      );
      expect((await otherCitizen.get('/api/subscriptions/qualcosa.di-falso')).status).toBe(404);
    });
  });

  it('is for citizens only: operators and delegates get 403', async () => {
    const { call } = await openCall(operator);
    for (const persona of ['operator', 'delegate'] as const) {
      const response = await (await as(persona)).post(`/api/calls/${call.id}/subscriptions`, { files: [] });
      expect(response.status).toBe(403);
    }
  });
});

describe('the ISEE rule (part 2 §4)', () => {
  it('refuses a request while the newest ISEE is not validated, and writes nothing', async () => {
    const { call } = await openCall(operator);
    const me = (await otherCitizen.get('/api/me')).json;
    const pdf = await attestationPdf({
      fullName: me.fullName,
      fiscalCode: me.fiscalCode,
      protocol: 'INPS-ISEE-2026-00000002B-00',
      value: '9.000,00',
    });
    expect(
      (await otherCitizen.post('/api/isee', { document: await stageIseeFile(otherCitizen, pdf), value: 9000 })).status,
    ).toBe(201);

    const refused = await otherCitizen.post(`/api/calls/${call.id}/subscriptions`, {
      files: [await file(otherCitizen)],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.detail).toBe(
      'Non è possibile iscriversi ai bandi finché il Comune non ha validato il tuo ISEE: caricalo dalla pagina Caricamento ISEE.',
    );
    expect(await mine(otherCitizen, call.id)).toBeNull();
    expect(await count(call.id)).toBe(0);

    await giveValidatedIsee(otherCitizen, operator);
    expect((await otherCitizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] })).status).toBe(201);
  });
});

describe('a user’s subscriptions on the operator’s user record', () => {
  it('lists them newest first, 3 per page, for the operator and the delegate; an unknown user is a 404', async () => {
    const userId = (await citizen.get('/api/me')).json.userId;
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { call } = await openCall(operator);
      const created = await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] });
      expect(created.status).toBe(201);
      made.push(created.json.id);
    }
    await indexesCaughtUp();
    for (const reader of [operator, await as('delegate')]) {
      const first = (await reader.get(`/api/users/${userId}/subscriptions`)).json;
      // The three made last, newest first; the fourth is on a later page.
      expect(first.items.map((s: any) => s.id)).toEqual(made.slice(1).reverse());
      expect(first.items[0]).toMatchObject({ state: 'ADDED', announcement: { id: made[3].split('.')[0] } });
      const seen: string[] = first.items.map((s: any) => s.id);
      let cursor = first.nextCursor;
      while (cursor) {
        const page = (await reader.get(`/api/users/${userId}/subscriptions?cursor=${cursor}`)).json;
        seen.push(...page.items.map((s: any) => s.id));
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(made[0]);
    }
    const unknown = await operator.get('/api/users/non-esiste/subscriptions');
    expect([unknown.status, unknown.json.detail]).toEqual([404, 'L’utente selezionato non esiste.']);
  });
});

describe('a user with subscriptions is linked data', () => {
  it('cannot be deleted even when none of their ISEE is left', async () => {
    const { call } = await openCall(operator);
    expect((await otherCitizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] })).status).toBe(201);
    const userId = (await otherCitizen.get('/api/me')).json.userId;
    for (const isee of (await operator.get(`/api/users/${userId}/isee?limit=100`)).json.items) {
      expect((await operator.delete(`/api/isee/${isee.id}`)).status).toBe(204);
    }
    expect((await operator.get(`/api/users/${userId}`)).json.lastIsee).toBeNull();
    const refused = await operator.delete(`/api/users/${userId}`);
    expect([refused.status, refused.json.detail]).toEqual([
      409,
      'Non è possibile cancellare un utente se ha dati collegati!',
    ]);
    expect((await operator.get(`/api/users/${userId}`)).status).toBe(200);
    await giveValidatedIsee(otherCitizen, operator);
  });
});
