import { beforeEach, describe, expect, it } from 'vitest';
import { actors, portal, recordIsee, type Portal } from '../support/in-memory.ts';

let app: Portal;
let callId: string;

async function openCall(name = 'Assistenza domiciliare 2026') {
  const { id: serviceId } = await app.services.createService(
    { code: 'SAD', name: 'Assistenza domiciliare', description: 'Aiuto a casa.' },
    actors.operator,
  );
  const input = { serviceId, name, codAccertamento: 'A', codCapitolo: 'C', nomeMyPay: 'M', bandsId: [], files: [] };
  const call = await app.calls.createCall(input, actors.operator);
  await app.calls.updateCall(call.id, { ...input, year: call.year, state: 1 }, actors.operator);
  return call.id;
}

/** The citizen's newest ISEE, recorded the way an operator upload does. */
async function newestIsee(actor: typeof actors.citizen, state: 'LOADED' | 'VALIDATED') {
  const userId = await app.ensureCitizen(actor);
  await recordIsee(app, userId, { value: 8000, verified: state === 'VALIDATED' });
}

beforeEach(async () => {
  app = portal();
  callId = await openCall();
});

describe('a citizen applies to an open call', () => {
  it('creates the request in state ADDED with its files, shown on the call, in the list and in the call’s count', async () => {
    await newestIsee(actors.citizen, 'VALIDATED');
    const created = await app.subscriptions.subscribe(
      callId,
      { files: [app.store.files.stage(actors.citizen.sub, 'certificato.pdf')] },
      actors.citizen,
    );
    expect(created).toMatchObject({
      state: 'ADDED',
      announcementId: callId,
      weeklyHour: null,
      cost: null,
      announcement: { name: 'Assistenza domiciliare 2026' },
    });
    expect(created.subscriptionFiles.map((f) => f.name)).toEqual(['certificato.pdf']);
    expect((await app.subscriptions.getMySubscription(callId, actors.citizen)).subscription?.id).toBe(created.id);
    expect((await app.subscriptions.listMySubscriptions({}, actors.citizen)).items.map((s) => s.id)).toEqual([
      created.id,
    ]);
    expect((await app.calls.getCall(callId)).subscriptionCount).toBe(1);
    expect(app.store.audit.entries.at(-1)).toMatchObject({
      entity: 'subscription',
      action: 'create',
      actor: { sub: actors.citizen.sub },
    });
  });

  it('is refused while the newest ISEE is missing or waits for review, and writes nothing', async () => {
    const message =
      'Non è possibile iscriversi ai bandi finché il Comune non ha validato il tuo ISEE: caricalo dalla pagina Caricamento ISEE.';
    await expect(app.subscriptions.subscribe(callId, { files: [] }, actors.citizen)).rejects.toMatchObject({
      status: 400,
      message,
    });
    await newestIsee(actors.citizen, 'VALIDATED');
    await newestIsee(actors.citizen, 'LOADED'); // a newer upload: the validated one no longer counts
    const file = app.store.files.stage(actors.citizen.sub);
    await expect(app.subscriptions.subscribe(callId, { files: [file] }, actors.citizen)).rejects.toMatchObject({
      status: 400,
      message,
    });
    expect(app.store.subscriptions.all.size).toBe(0);
    expect([...app.store.files.stored.keys()].filter((key) => key.startsWith('subscriptions/'))).toEqual([]);
  });

  it('is refused on a call that is not open (400) or not there (404)', async () => {
    await newestIsee(actors.citizen, 'VALIDATED');
    const call = await app.calls.getCall(callId);
    await app.calls.updateCall(callId, { ...call, files: [], state: 2 }, actors.operator);
    await expect(app.subscriptions.subscribe(callId, { files: [] }, actors.citizen)).rejects.toMatchObject({
      status: 400,
      message: 'Il bando selezionato non è aperto alle iscrizioni.',
    });
    await expect(app.subscriptions.subscribe('nope', { files: [] }, actors.citizen)).rejects.toMatchObject({
      status: 404,
      message: 'Il bando selezionato non è presente.',
    });
  });

  it('takes one request per citizen and call', async () => {
    await newestIsee(actors.citizen, 'VALIDATED');
    await app.subscriptions.subscribe(callId, { files: [] }, actors.citizen);
    await expect(app.subscriptions.subscribe(callId, { files: [] }, actors.citizen)).rejects.toMatchObject({
      status: 400,
      message: 'Hai già inviato una richiesta di iscrizione a questo bando.',
    });
    expect((await app.calls.getCall(callId)).subscriptionCount).toBe(1);
  });

  it('shows a citizen only their own subscription: anyone else’s is not there', async () => {
    await newestIsee(actors.citizen, 'VALIDATED');
    const own = await app.subscriptions.subscribe(callId, { files: [] }, actors.citizen);
    expect((await app.subscriptions.getSubscription(own.id, actors.citizen)).id).toBe(own.id);
    await expect(app.subscriptions.getSubscription(own.id, actors.otherCitizen)).rejects.toMatchObject({
      status: 404,
      message: 'L’iscrizione selezionata non è presente.',
    });
    expect((await app.subscriptions.getMySubscription(callId, actors.otherCitizen)).subscription).toBeNull();
  });
});

describe('a user’s subscriptions on the operator’s user record', () => {
  it('pages them 3 at a time, newest first; an unknown user is a 404', async () => {
    await newestIsee(actors.citizen, 'VALIDATED');
    const made = [];
    for (let i = 0; i < 4; i++)
      made.push(
        (
          await app.subscriptions.subscribe(
            i === 0 ? callId : await openCall(`Bando ${i}`),
            { files: [] },
            actors.citizen,
          )
        ).id,
      );
    const userId = await app.ensureCitizen(actors.citizen);
    const first = await app.subscriptions.listUserSubscriptions(userId, {});
    expect(first.items.map((s) => s.id)).toEqual(made.slice(1).reverse());
    const second = await app.subscriptions.listUserSubscriptions(userId, { cursor: first.nextCursor! });
    expect(second.items.map((s) => s.id)).toEqual([made[0]]);
    await expect(app.subscriptions.listUserSubscriptions('nope', {})).rejects.toMatchObject({
      status: 404,
      message: 'L’utente selezionato non esiste.',
    });
  });
});
