import { beforeAll, describe, expect, it } from 'vitest';
import { as, request } from '../support/api.ts';
import { callFields, openCall, upload } from '../support/calls.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { renamedExecutable, samplePdf, tinyPng } from '../support/files.ts';
import { giveValidatedIsee } from '../support/isee.ts';
import { romeYear } from '../../functions/domain/period.ts';

let operator: Awaited<ReturnType<typeof as>>;
let citizen: Awaited<ReturnType<typeof as>>;
let service: { id: string; name: string };
let band: { id: string };

beforeAll(async () => {
  operator = await as('operator');
  citizen = await as('citizen');
  await giveValidatedIsee(citizen, operator);
  service = (
    await operator.post('/api/services', {
      code: 'SAD',
      name: 'Assistenza domiciliare (bandi)',
      description: 'Aiuto a casa.',
    })
  ).json;
  band = (await operator.post('/api/bands', { name: 'Fascia A', min: 0, max: 6000, percent: 10, fixedCost: 20 })).json;
});

const fields = () => callFields(service.id, `Assistenza domiciliare ${Date.now()}`);
const update = (call: any, changes: Record<string, unknown> = {}) => ({
  serviceId: call.serviceId,
  name: call.name,
  year: call.year,
  state: call.state,
  nomeMyPay: call.nomeMyPay,
  codAccertamento: call.codAccertamento,
  codCapitolo: call.codCapitolo,
  bandsId: call.bandsId,
  files: [],
  ...changes,
});
const forms = async (count: number) =>
  Promise.all(
    Array.from({ length: count }, async (_, i) =>
      upload(operator, 'call-form', await samplePdf(`Modulo ${i + 1}`), `modulo-${i + 1}.pdf`),
    ),
  );

describe('operators publish calls', () => {
  it('creates a call with two forms (state CREATE, current year), lists it, shows it with its bands and forms, audited', async () => {
    const input = { ...fields(), bandsId: [band.id], files: await forms(2) };
    const created = await operator.post('/api/calls', input);
    expect(created.status).toBe(201);
    const call = created.json;
    expect(call).toMatchObject({
      name: input.name,
      state: 0,
      year: romeYear(new Date()),
      serviceId: service.id,
      serviceName: service.name,
      bandsId: [band.id],
      subscriptionCount: 0,
    });
    expect(call.bands.map((b: any) => b.id)).toEqual([band.id]);
    expect(call.announcementFiles.map((f: any) => [f.name, f.contentType])).toEqual([
      ['modulo-1.pdf', 'application/pdf'],
      ['modulo-2.pdf', 'application/pdf'],
    ]);
    // The link is a short-lived presigned GET that serves the PDF itself.
    expect(call.announcementFiles[0].url).toMatch(/X-Amz-Expires=300/);
    const pdf = new Uint8Array(await (await fetch(call.announcementFiles[0].url)).arrayBuffer());
    expect(Buffer.from(pdf.slice(0, 5)).toString()).toBe('%PDF-');

    // The lists read global indexes: they show the new call a moment later, as on a reload.
    await expect
      .poll(async () =>
        (await operator.get(`/api/calls?name=${encodeURIComponent(input.name.toUpperCase())}`)).json.items.map(
          (c: any) => c.id,
        ),
      )
      .toEqual([call.id]);
    await expect
      .poll(async () =>
        (await operator.get(`/api/services/${service.id}/calls?limit=100`)).json.items.map((c: any) => c.id),
      )
      .toContain(call.id);
    expect((await localTable().auditOf('call', call.id)).map((e) => e.action)).toEqual(['create']);
  });

  it('pages the list 15 at a time', async () => {
    const prefix = `Paginato ${Date.now()}`;
    for (let i = 0; i < 16; i++)
      await operator.post('/api/calls', callFields(service.id, `${prefix} ${String(i).padStart(2, '0')}`));
    await indexesCaughtUp();
    const first = await operator.get(`/api/calls?name=${encodeURIComponent(prefix)}`);
    expect(first.json.items).toHaveLength(15);
    const second = await operator.get(`/api/calls?name=${encodeURIComponent(prefix)}&cursor=${first.json.nextCursor}`);
    expect(second.json.items.map((c: any) => c.name)).toEqual([`${prefix} 15`]);
  });

  it('opens a call: everyone sees it on the board and in its public summary; closing hides it again', async () => {
    const call = (await operator.post('/api/calls', { ...fields(), bandsId: [band.id], files: await forms(1) })).json;
    const board = async () => (await request('GET', '/api/open-calls?limit=100')).json.items.map((c: any) => c.id);
    expect(await board()).not.toContain(call.id);
    expect((await request('GET', `/api/open-calls/${call.id}`)).json.detail).toBe(
      'Il bando selezionato non è presente.',
    );

    expect((await operator.put(`/api/calls/${call.id}`, update(call, { state: 1 }))).status).toBe(200);
    await expect.poll(board).toContain(call.id);
    await expect
      .poll(async () =>
        (await request('GET', `/api/open-calls?serviceId=${service.id}`)).json.items.map((c: any) => c.id),
      )
      .toContain(call.id);
    const summary = await request('GET', `/api/open-calls/${call.id}`);
    expect(summary.status).toBe(200);
    expect(summary.json).toMatchObject({
      id: call.id,
      name: call.name,
      state: 1,
      service: { id: service.id, name: service.name },
    });
    expect(summary.json.bands[0]).toMatchObject({ name: 'Fascia A', percent: 10, fixedCost: 20 });
    expect(summary.json.announcementFiles).toHaveLength(1);
    expect(summary.json).not.toHaveProperty('codCapitolo');

    expect((await operator.put(`/api/calls/${call.id}`, update(call, { state: 2 }))).status).toBe(200);
    await expect.poll(board).not.toContain(call.id);
    const hidden = await citizen.get(`/api/open-calls/${call.id}`);
    expect([hidden.status, hidden.json.detail]).toEqual([404, 'Il bando selezionato non è presente.']);
    expect((await citizen.get(`/api/calls/${call.id}`)).status).toBe(403);
  });

  it('lets an edit attach 5 minus the attached forms, refuses a sixth, and deletes one', async () => {
    const call = (await operator.post('/api/calls', { ...fields(), files: await forms(3) })).json;
    const tooMany = await operator.put(`/api/calls/${call.id}`, update(call, { files: await forms(3) }));
    expect([tooMany.status, tooMany.json.detail]).toEqual([400, 'Non è possibile caricare più di cinque allegati.']);
    expect((await operator.get(`/api/calls/${call.id}`)).json.announcementFiles).toHaveLength(3);

    const two = await operator.put(`/api/calls/${call.id}`, update(call, { files: await forms(2) }));
    expect(two.json.announcementFiles).toHaveLength(5);
    const full = await operator.put(`/api/calls/${call.id}`, update(two.json, { files: await forms(1) }));
    expect([full.status, full.json.detail]).toEqual([400, 'Non è possibile caricare più di cinque allegati.']);

    const [first] = two.json.announcementFiles;
    expect((await operator.delete(`/api/calls/${call.id}/files/${first.storageFileId}`)).status).toBe(204);
    const after = (await operator.get(`/api/calls/${call.id}`)).json;
    expect(after.announcementFiles.map((f: any) => f.storageFileId)).not.toContain(first.storageFileId);
    expect(after.announcementFiles).toHaveLength(4);
    // S3's answer to a role without s3:ListBucket (the portal's) for a key that is gone.
    expect((await fetch(first.url)).status).toBe(403);
    expect((await operator.delete(`/api/calls/${call.id}/files/${first.storageFileId}`)).json.detail).toBe(
      'L’allegato selezionato non esiste.',
    );
  });

  it('deletes a call with nothing depending on it (204), and then its band and service can go', async () => {
    const ownService = (
      await operator.post('/api/services', { code: 'X', name: 'Servizio da svuotare', description: 'Test.' })
    ).json;
    const ownBand = (await operator.post('/api/bands', { name: 'Fascia da liberare', min: 0, max: 1, fixedCost: 1 }))
      .json;
    const call = (
      await operator.post('/api/calls', {
        ...callFields(ownService.id, 'Da eliminare'),
        bandsId: [ownBand.id],
        files: await forms(1),
      })
    ).json;
    // The checks read gsi2 ("calls of the service", "calls using the band"), which shows a write a moment later.
    await indexesCaughtUp();
    expect((await operator.delete(`/api/bands/${ownBand.id}`)).json.detail).toBe(
      'La fascia ISEE selezionata è inclusa in un bando in corso.',
    );
    expect((await operator.delete(`/api/services/${ownService.id}`)).json.detail).toBe(
      'Il servizio non può essere eliminato perché ha dei bandi associati.',
    );

    expect((await operator.delete(`/api/calls/${call.id}`)).status).toBe(204);
    expect((await operator.get(`/api/calls/${call.id}`)).status).toBe(404);
    expect((await fetch(call.announcementFiles[0].url)).status).toBe(403);
    await indexesCaughtUp();
    expect((await operator.delete(`/api/bands/${ownBand.id}`)).status).toBe(204);
    expect((await operator.delete(`/api/services/${ownService.id}`)).status).toBe(204);
    expect((await localTable().auditOf('call', call.id)).map((e) => e.action)).toEqual(['create', 'delete']);
  });

  it('keeps a closed call’s page for the citizens enrolled in it, and for nobody else', async () => {
    const { call } = await openCall(operator);
    expect((await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] })).status).toBe(201);
    const other = await as('newCitizen');
    expect((await other.get(`/api/me/calls/${call.id}`)).json).toMatchObject({ id: call.id, state: 1 });
    expect((await operator.put(`/api/calls/${call.id}`, update(call, { state: 2 }))).status).toBe(200);
    const mine = await citizen.get(`/api/me/calls/${call.id}`);
    expect([mine.status, mine.json.state, mine.json.service.id]).toEqual([200, 2, call.serviceId]);
    const foreign = await other.get(`/api/me/calls/${call.id}`);
    expect([foreign.status, foreign.json.detail]).toEqual([404, 'Il bando selezionato non è presente.']);
    expect((await request('GET', `/api/open-calls/${call.id}`)).status).toBe(404);
  });

  it('refuses to delete a call with subscriptions (409, clear message) and keeps it', async () => {
    const { call } = await openCall(operator);
    expect((await citizen.post(`/api/calls/${call.id}/subscriptions`, { files: [] })).status).toBe(201);
    await indexesCaughtUp();
    const response = await operator.delete(`/api/calls/${call.id}`);
    expect([response.status, response.json.detail]).toEqual([
      409,
      'Il bando non può essere eliminato perché ha delle iscrizioni.',
    ]);
    expect((await operator.get(`/api/calls/${call.id}`)).json.subscriptionCount).toBe(1);
  });

  describe('bad input gets an Italian message and changes nothing', () => {
    const count = async () => (await operator.get(`/api/services/${service.id}/calls?limit=100`)).json.items.length;
    const cases: Array<[string, () => Promise<any>, number, string]> = [
      [
        'missing codAccertamento',
        async () => ({ ...fields(), codAccertamento: ' ' }),
        400,
        'Il campo non può essere vuoto!',
      ],
      [
        'missing nomeMyPay',
        async () => {
          const { nomeMyPay: _, ...rest } = fields();
          return rest;
        },
        400,
        'Il campo non può essere vuoto!',
      ],
      ['missing name', async () => ({ ...fields(), name: '' }), 400, 'Il campo non può essere vuoto!'],
      [
        'unknown service',
        async () => ({ ...fields(), serviceId: 'non-esiste' }),
        400,
        'Il servizio selezionato non esiste.',
      ],
      [
        'unknown band',
        async () => ({ ...fields(), bandsId: ['non-esiste'] }),
        400,
        'La fascia ISEE selezionata non esiste.',
      ],
      ['a wrong year', async () => ({ ...fields(), year: 25 }), 400, 'Inserisci un anno valido di quattro cifre.'],
      [
        'six forms',
        async () => ({ ...fields(), files: await forms(6) }),
        400,
        'Non è possibile caricare più di cinque allegati.',
      ],
      [
        'a renamed executable among the forms',
        async () => ({
          ...fields(),
          files: [...(await forms(1)), await upload(operator, 'call-form', renamedExecutable(), 'modulo.pdf')],
        }),
        400,
        'Carica un file con un formato supportato',
      ],
      [
        'a form uploaded by someone else',
        async () => ({
          ...fields(),
          files: [await upload(citizen, 'subscription-file', tinyPng(), 'foto.png', 'image/png')],
        }),
        400,
        'Il file caricato non è stato trovato: caricalo di nuovo.',
      ],
    ];
    for (const [name, body, status, detail] of cases) {
      it(name, async () => {
        await indexesCaughtUp();
        const before = await count();
        const response = await operator.post('/api/calls', await body());
        expect([response.status, response.json.detail]).toEqual([status, detail]);
        await indexesCaughtUp();
        expect(await count()).toBe(before);
      });
    }

    it('an edit with a state outside 0–3, or of an unknown call', async () => {
      const call = (await operator.post('/api/calls', fields())).json;
      const bad = await operator.put(`/api/calls/${call.id}`, update(call, { state: 7 }));
      expect([bad.status, bad.json.detail]).toEqual([400, 'Lo stato del bando non è valido.']);
      expect((await operator.get(`/api/calls/${call.id}`)).json.state).toBe(0);
      const unknown = await operator.put('/api/calls/non-esiste', update(call));
      expect([unknown.status, unknown.json.detail]).toEqual([404, 'Il bando selezionato non è presente.']);
    });
  });

  it('refuses delegates’ and citizens’ writes with 403', async () => {
    for (const persona of ['delegate', 'citizen'] as const) {
      const response = await (await as(persona)).post('/api/calls', fields());
      expect([response.status, response.json.detail]).toEqual([
        403,
        'Non sei autorizzato a eseguire questa operazione.',
      ]);
    }
  });
});
