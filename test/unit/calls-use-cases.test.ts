import { beforeEach, describe, expect, it } from 'vitest';
import { makeCallUseCases } from '../../functions/calls/use-cases.ts';
import type { CallUpdate } from '../../functions/domain/calls.ts';
import { actors, portal, sequentialIds, tickingClock, type Portal } from '../support/in-memory.ts';

let app: Portal;
let serviceId: string;
let bandId: string;
const fields = () => ({
  serviceId,
  name: 'Assistenza domiciliare 2026',
  codAccertamento: 'ACC-1',
  codCapitolo: 'CAP-1',
  nomeMyPay: 'SAD',
  bandsId: [bandId],
  files: [] as { uploadKey: string; name: string }[],
});
const edit = (call: { year: number; state: number }, changes: Partial<CallUpdate> = {}): CallUpdate => ({
  ...fields(),
  year: call.year,
  state: call.state,
  ...changes,
});
const form = (name = 'modulo.pdf', contentType = 'application/pdf') =>
  app.store.files.stage(actors.operator.sub, name, contentType);

beforeEach(async () => {
  app = portal();
  serviceId = (
    await app.services.createService(
      { code: 'SAD', name: 'Assistenza domiciliare', description: 'Aiuto a casa.' },
      actors.operator,
    )
  ).id;
  bandId = (
    await app.bands.createBand({ name: 'Fascia A', min: 0, max: 6000, percent: 10, fixedCost: 20 }, actors.operator)
  ).id;
});

describe('an operator publishes a call', () => {
  it('creates it in state CREATE, in the current year, with its bands and forms, audited', async () => {
    const call = await app.calls.createCall(
      { ...fields(), files: [form('modulo-1.pdf'), form('modulo-2.pdf')] },
      actors.operator,
    );
    expect(call).toMatchObject({
      state: 0,
      year: 2026,
      serviceName: 'Assistenza domiciliare',
      bandsId: [bandId],
      subscriptionCount: 0,
    });
    expect(call.bands.map((b) => b.name)).toEqual(['Fascia A']);
    expect(call.announcementFiles.map((f) => f.name)).toEqual(['modulo-1.pdf', 'modulo-2.pdf']);
    expect(app.store.files.stored.size).toBe(2);
    expect(app.store.audit.entries.at(-1)).toMatchObject({ entity: 'call', id: call.id, action: 'create' });
  });

  it('refuses an unknown service or band on its field, and keeps nothing', async () => {
    await expect(app.calls.createCall({ ...fields(), serviceId: 'nope' }, actors.operator)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { serviceId: 'Il servizio selezionato non esiste.' },
    });
    await expect(
      app.calls.createCall({ ...fields(), bandsId: ['nope'], files: [form()] }, actors.operator),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { bandsId: 'La fascia ISEE selezionata non esiste.' } });
    expect(app.store.calls.all.size).toBe(0);
    expect(app.store.files.stored.size).toBe(0);
  });

  it('drops the forms already claimed when one of them is refused', async () => {
    await expect(
      app.calls.createCall(
        { ...fields(), files: [form('ok.pdf'), form('virus.pdf', 'application/x-msdownload')] },
        actors.operator,
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Carica un file con un formato supportato',
    });
    expect(app.store.files.stored.size).toBe(0);
    expect(app.store.calls.all.size).toBe(0);
  });

  it('lets an edit attach 5 minus the forms attached, and no more', async () => {
    const call = await app.calls.createCall({ ...fields(), files: [form(), form(), form()] }, actors.operator);
    await expect(
      app.calls.updateCall(call.id, edit(call, { files: [form(), form(), form()] }), actors.operator),
    ).rejects.toMatchObject({
      message: 'Non è possibile caricare più di cinque allegati.',
    });
    const full = await app.calls.updateCall(call.id, edit(call, { files: [form(), form()] }), actors.operator);
    expect(full.announcementFiles).toHaveLength(5);
    await app.calls.deleteCallFile(call.id, full.announcementFiles[0].storageFileId, actors.operator);
    expect((await app.calls.getCall(call.id)).announcementFiles).toHaveLength(4);
    await expect(
      app.calls.deleteCallFile(call.id, full.announcementFiles[0].storageFileId, actors.operator),
    ).rejects.toMatchObject({ status: 404, message: 'L’allegato selezionato non esiste.' });
  });

  it('refuses a save when someone else saved in between (409), and drops the new forms', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    const racing = makeCallUseCases({
      ...{
        services: app.store.services,
        bands: app.store.bands,
        subscriptions: app.store.subscriptions,
        citizens: app.store.users,
        files: app.store.files,
        audit: app.store.audit,
      },
      calls: { ...app.store.calls, putCall: async () => false },
      clock: tickingClock(),
      ids: sequentialIds('race'),
    });
    await expect(
      racing.updateCall(call.id, edit(call, { name: 'Nuovo nome', files: [form()] }), actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message: 'Il bando è stato modificato nel frattempo: ricarica la pagina e riprova.',
    });
    expect((await app.calls.getCall(call.id)).name).toBe(call.name);
    expect(app.store.files.stored.size).toBe(0);
  });
});

describe('a call moves through its states', () => {
  it('opens: everyone sees it on the board and its public summary; closing hides it again', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    await expect(app.calls.getOpenCall(call.id)).rejects.toMatchObject({
      status: 404,
      message: 'Il bando selezionato non è presente.',
    });
    await app.calls.updateCall(call.id, edit(call, { state: 1 }), actors.operator);
    expect((await app.calls.listOpenCalls({})).items.map((c) => c.id)).toEqual([call.id]);
    expect(await app.calls.getOpenCall(call.id)).toMatchObject({ id: call.id, state: 1, service: { id: serviceId } });
    await app.calls.updateCall(call.id, edit(call, { state: 2 }), actors.operator);
    expect((await app.calls.listOpenCalls({})).items).toEqual([]);
  });

  it('stays visible to a citizen enrolled in it after it closes, and to nobody else', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    await expect(app.calls.getCitizenCall(call.id, actors.citizen)).rejects.toMatchObject({
      status: 404,
      message: 'Il bando selezionato non è presente.',
    });
    await app.calls.updateCall(call.id, edit(call, { state: 1 }), actors.operator);
    expect(await app.calls.getCitizenCall(call.id, actors.otherCitizen)).toMatchObject({ id: call.id, state: 1 });
    const userId = await app.ensureCitizen(actors.citizen);
    await app.isee.recordIsee({
      id: 'isee-1',
      userId,
      user: { firstName: 'Maria', lastName: 'Rossi', fiscalCode: 'RSSMRA85C52H501N', email: null },
      value: 8000,
      year: 2026,
      date: '2026-01-20',
      state: 'VALIDATED',
      file: null,
      uploadedBy: 'OPERATOR',
      uploadedBySub: 'op',
    });
    await app.subscriptions.subscribe(call.id, { files: [] }, actors.citizen);
    for (const state of [2, 3]) {
      await app.calls.updateCall(call.id, edit(call, { state }), actors.operator);
      await expect(app.calls.getOpenCall(call.id)).rejects.toMatchObject({ status: 404 });
      expect(await app.calls.getCitizenCall(call.id, actors.citizen)).toMatchObject({
        id: call.id,
        state,
        service: { id: serviceId },
      });
      await expect(app.calls.getCitizenCall(call.id, actors.otherCitizen)).rejects.toMatchObject({
        status: 404,
        message: 'Il bando selezionato non è presente.',
      });
    }
    await expect(app.calls.getCitizenCall('nope', actors.citizen)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a move the rules do not allow, on the state field, and changes nothing', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    await expect(app.calls.updateCall(call.id, edit(call, { state: 2 }), actors.operator)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { state: 'Un bando CREATO non può passare allo stato CHIUSO.' },
    });
    await app.calls.updateCall(call.id, edit(call, { state: 1 }), actors.operator);
    await expect(app.calls.updateCall(call.id, edit(call, { state: 0 }), actors.operator)).rejects.toMatchObject({
      status: 400,
    });
    expect((await app.calls.getCall(call.id)).state).toBe(1);
  });

  it('reopens a closed call, archives it, and an archived call stays archived', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    for (const state of [1, 2, 1, 2, 3])
      expect((await app.calls.updateCall(call.id, edit(call, { state }), actors.operator)).state).toBe(state);
    await expect(app.calls.updateCall(call.id, edit(call, { state: 1 }), actors.operator)).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('deleting a call', () => {
  it('removes a call without subscriptions with its forms, audited', async () => {
    const call = await app.calls.createCall({ ...fields(), files: [form()] }, actors.operator);
    await app.calls.deleteCall(call.id, actors.operator);
    await expect(app.calls.getCall(call.id)).rejects.toMatchObject({ status: 404 });
    expect(app.store.files.stored.size).toBe(0);
    expect(app.store.audit.entries.at(-1)).toMatchObject({ entity: 'call', action: 'delete' });
  });

  it('refuses to delete a call with subscriptions, and keeps it', async () => {
    const call = await app.calls.createCall(fields(), actors.operator);
    await app.calls.updateCall(call.id, edit(call, { state: 1 }), actors.operator);
    const userId = await app.ensureCitizen(actors.citizen);
    await app.isee.recordIsee({
      id: 'isee-1',
      userId,
      user: { firstName: 'Maria', lastName: 'Rossi', fiscalCode: 'RSSMRA85C52H501N', email: null },
      value: 8000,
      year: 2026,
      date: '2026-01-20',
      state: 'VALIDATED',
      file: null,
      uploadedBy: 'OPERATOR',
      uploadedBySub: 'op',
    });
    await app.subscriptions.subscribe(call.id, { files: [] }, actors.citizen);
    await expect(app.calls.deleteCall(call.id, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'Il bando non può essere eliminato perché ha delle iscrizioni.',
    });
    expect((await app.calls.getCall(call.id)).subscriptionCount).toBe(1);
  });
});
