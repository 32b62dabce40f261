import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { as } from '../support/api.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { inbox } from '../support/mail.ts';
import { romeDay } from '../../functions/domain/period.ts';

type Client = Awaited<ReturnType<typeof as>>;
let citizen: Client, other: Client, operator: Client, delegate: Client;
let citizenId: string, otherId: string;
const table = () => localTable();

const SUPPORT = 'supporto@comune.example.it';
const message = (change: Record<string, unknown> = {}) => ({
  emailUser: 'maria.rossi@example.it',
  subject: 'Altro',
  message: 'Non riesco ad aprire il modulo del bando.',
  ...change,
});

/** The support form's counters of a citizen, emptied: each test starts with the full allowance. */
async function resetAllowance(userId: string) {
  for (const item of await table().partition(`SUPPORTRATE#${userId}`))
    await table().deleteItem({ pk: item.pk, sk: item.sk });
}
// The badge, the lists and the search read global indexes, which show a write a moment later (as DynamoDB's,
// eventually consistent): each is read once they have caught up with the writes before, as on a reload.
const openCount = async () => {
  await indexesCaughtUp();
  return (await operator.get('/api/tickets/aperti/count')).json.count as number;
};
const myTickets = async (client: Client) => {
  await indexesCaughtUp();
  return (await client.get('/api/me/tickets?limit=100')).json.items as { id: string }[];
};

beforeAll(async () => {
  [citizen, other, operator, delegate] = await Promise.all([
    as('citizen'),
    as('newCitizen'),
    as('operator'),
    as('delegate'),
  ]);
  citizenId = (await citizen.get('/api/me')).json.userId;
  otherId = (await other.get('/api/me')).json.userId;
  await operator.post('/api/services', {
    code: 'TKT',
    name: 'Trasporto sociale',
    description: 'Servizio per i test dei ticket.',
  });
  await indexesCaughtUp();
});
beforeEach(async () => {
  await resetAllowance(citizenId);
  await resetAllowance(otherId);
});

describe('a citizen writes to support', () => {
  it('offers the services and Altro as subjects', async () => {
    const subjects = (await citizen.get('/api/support/subjects')).json.subjects;
    expect(subjects).toContain('Trasporto sociale');
    expect(subjects.at(-1)).toBe('Altro');
  });

  it('makes a ticket of the citizen, mails the office and the citizen (in the local SES inbox), and the badge goes up', async () => {
    const before = await openCount();
    const sentAfter = (await inbox()).length;
    const response = await citizen.post('/api/support', message({ subject: 'Trasporto sociale' }));
    expect(response.status).toBe(201);
    const ticket = response.json;
    expect(ticket).toMatchObject({
      stato: 0,
      categoria: 'Trasporto sociale',
      richiedente: 'Maria Rossi',
      userId: citizenId,
      fiscalCode: 'RSSMRA85C52H501N',
      emailUser: 'maria.rossi@example.it',
    });
    expect(await openCount()).toBe(before + 1);
    expect((await myTickets(citizen)).map((t) => t.id)).toContain(ticket.id);
    expect((await citizen.get(`/api/tickets/${ticket.id}`)).json.id).toBe(ticket.id);

    const mails = (await inbox()).slice(sentAfter);
    const toOffice = mails.find((m) => m.destination.to.includes(SUPPORT))!;
    expect(toOffice).toMatchObject({
      from: 'portale@comune.example.it',
      subject: `[Ticket ${ticket.id}] Trasporto sociale`,
      replyTo: ['maria.rossi@example.it'],
    });
    expect(toOffice.body.text).toContain('Non riesco ad aprire il modulo del bando.');
    // The receipt goes to the e-mail of her profile (the typed one is the office's reply-to).
    const profileEmail = (await citizen.get('/api/profile')).json.email as string;
    const receipt = mails.find((m) => m.destination.to.includes(profileEmail))!;
    expect(receipt.subject).toBe(`Abbiamo ricevuto la tua segnalazione (ticket n. ${ticket.id})`);

    const audit = await table().auditOf('ticket', ticket.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', who: { fiscalCode: 'RSSMRA85C52H501N' } });
  });

  it.each([
    ['an empty message', message({ message: '  ' }), 'Il campo non può essere vuoto!'],
    [
      'a message of 401 characters',
      message({ message: 'a'.repeat(401) }),
      'Il campo può contenere al massimo 400 caratteri.',
    ],
    ['a malformed e-mail', message({ emailUser: 'maria.rossi@example' }), 'Il formato della mail non è corretto!'],
    ['an empty e-mail', message({ emailUser: '' }), 'Il campo non può essere vuoto!'],
    [
      'an unknown subject',
      message({ subject: 'Servizio che non esiste' }),
      'Scegli l’oggetto tra i servizi elencati o Altro.',
    ],
    ['a subject that is not text', message({ subject: 12 }), undefined],
  ])('refuses %s with 400 and an Italian message, and nothing is created or sent', async (_, body, detail) => {
    const [tickets, mails] = [(await myTickets(citizen)).length, (await inbox()).length];
    const response = await citizen.post('/api/support', body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    if (detail) expect(response.json.detail).toBe(detail);
    else expect(response.json.detail).toMatch(/[a-zà-ù]/i);
    expect((await myTickets(citizen)).length).toBe(tickets);
    expect((await inbox()).length).toBe(mails);
  });

  it('refuses a body that is not JSON', async () => {
    const { request } = await import('../support/api.ts');
    const response = await request('POST', '/api/support', { token: citizen.token, rawBody: '{"emailUser":' });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Il corpo della richiesta non è un JSON valido.');
  });

  it('stops the sixth message in an hour with 429 and an Italian message, creating and sending nothing', async () => {
    for (let i = 0; i < 5; i++)
      expect((await other.post('/api/support', message({ emailUser: 'giuseppe.verdi@example.it' }))).status).toBe(201);
    const [tickets, mails] = [(await myTickets(other)).length, (await inbox()).length];
    const refused = await other.post('/api/support', message({ emailUser: 'giuseppe.verdi@example.it' }));
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe('Hai inviato troppe segnalazioni nell’ultima ora: riprova più tardi.');
    expect((await myTickets(other)).length).toBe(tickets);
    expect((await inbox()).length).toBe(mails);
    // Maria Rossi's allowance is her own.
    expect((await citizen.post('/api/support', message())).status).toBe(201);
  });

  it('stops a citizen who already sent 20 today, with the daily message', async () => {
    const day = romeDay(new Date());
    await table().putItem({ ...keys.supportRate(otherId, 'day', day), count: 20 });
    const refused = await other.post('/api/support', message({ emailUser: 'giuseppe.verdi@example.it' }));
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe('Hai raggiunto il numero massimo di segnalazioni per oggi: riprova domani.');
    expect(await table().partition(`SUPPORTRATE#${otherId}`)).toEqual([
      expect.objectContaining({ sk: `day#${day}`, count: 20 }),
    ]);
  });

  it('never shows a citizen another citizen’s ticket (404), nor an unknown one', async () => {
    const mine = (await citizen.post('/api/support', message())).json;
    const response = await other.get(`/api/tickets/${mine.id}`);
    expect(response.status).toBe(404);
    expect(response.json.detail).toBe('Il ticket selezionato non esiste.');
    expect((await myTickets(other)).map((t) => t.id)).not.toContain(mine.id);
    expect((await citizen.get('/api/tickets/999999')).status).toBe(404);
  });
});

describe('operators work the tickets', () => {
  let ticket: { id: string };
  const edit = (change: Record<string, unknown> = {}) => ({
    stato: 1,
    categoria: 'Altro',
    dettagli: 'Presa in carico.',
    assegnatoA: 'Laura Bianchi',
    ...change,
  });

  beforeEach(async () => {
    ticket = (await citizen.post('/api/support', message())).json;
    await indexesCaughtUp();
  });

  it('lists the open tickets, oldest first, paged by cursor with no duplicate', async () => {
    const first = await operator.get('/api/tickets/aperti?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.items).toHaveLength(2);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await operator.get(
      `/api/tickets/aperti?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`,
    );
    expect(second.json.items.map((t: { id: string }) => t.id)).not.toContain(first.json.items[0].id);
    expect((await operator.get('/api/tickets/aperti?cursor=falso')).status).toBe(400);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { json: { items: { id: string; stato: number }[]; nextCursor: string | null } } = await operator.get(
        `/api/tickets/aperti?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      all.push(...page.json.items.map((t) => t.id));
      expect(page.json.items.every((t) => t.stato === 0 || t.stato === 1)).toBe(true);
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(all).toContain(ticket.id);
    expect(all.length).toBe(await openCount());
  });

  it('takes the ticket In Corso, resolves it (the badge goes down), then refuses any edit with 409 and changes nothing', async () => {
    const before = await openCount();
    const taken = await operator.put(`/api/tickets/${ticket.id}/modifica`, edit());
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ stato: 1, assegnatoA: 'Laura Bianchi', dettagli: 'Presa in carico.' });
    expect(await openCount()).toBe(before);
    const resolved = await operator.put(
      `/api/tickets/${ticket.id}/modifica`,
      edit({ stato: 2, dettagli: 'Risposto via mail.' }),
    );
    expect(resolved.json.stato).toBe(2);
    expect(await openCount()).toBe(before - 1);
    expect(
      (await operator.get('/api/tickets/aperti?limit=100')).json.items.map((t: { id: string }) => t.id),
    ).not.toContain(ticket.id);

    const stored = (await operator.get(`/api/tickets/${ticket.id}`)).json;
    const refused = await operator.put(`/api/tickets/${ticket.id}/modifica`, edit({ stato: 0 }));
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe('Il ticket è risolto o chiuso: non può più essere modificato.');
    expect((await operator.get(`/api/tickets/${ticket.id}`)).json).toEqual(stored);
    // The citizen sees the new state of their own ticket.
    expect((await citizen.get(`/api/tickets/${ticket.id}`)).json.stato).toBe(2);

    const history = (await operator.get(`/api/tickets/${ticket.id}/storico`)).json.items;
    expect(history.map((h: { action: string; who: string }) => [h.action, h.who])).toEqual([
      ['create', 'Maria Rossi'],
      ['update', 'Laura Bianchi'],
      ['update', 'Laura Bianchi'],
    ]);
    expect(history[2].changes).toEqual([
      { field: 'stato', before: 'In Corso', after: 'Risolto' },
      { field: 'dettagli', before: 'Presa in carico.', after: 'Risposto via mail.' },
    ]);
  });

  it.each([[-1], [4], [1.5], ['1']])('refuses the state %j with 400, changing nothing', async (stato) => {
    const response = await operator.put(`/api/tickets/${ticket.id}/modifica`, edit({ stato }));
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Lo stato del ticket deve essere compreso tra 0 (Aperto) e 3 (Chiuso).');
    expect((await operator.get(`/api/tickets/${ticket.id}`)).json).toMatchObject({ stato: 0, assegnatoA: null });
    expect(await table().auditOf('ticket', ticket.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown ticket on read, edit and history', async () => {
    for (const response of [
      await operator.get('/api/tickets/424242'),
      await operator.put('/api/tickets/424242/modifica', edit()),
      await operator.get('/api/tickets/424242/storico'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.json.detail).toBe('Il ticket selezionato non esiste.');
    }
  });

  it('refuses every ticket route to a delegate (403), changing nothing', async () => {
    const stored = (await operator.get(`/api/tickets/${ticket.id}`)).json;
    for (const response of [
      await delegate.put(`/api/tickets/${ticket.id}/modifica`, edit()),
      await delegate.post('/api/tickets', { userId: citizenId, categoria: 'Altro', dettagli: 'x' }),
      await delegate.get(`/api/tickets/${ticket.id}`),
      await delegate.get('/api/tickets/aperti'),
    ]) {
      expect(response.status).toBe(403);
      expect(response.json.detail).toBe('Non sei autorizzato a eseguire questa operazione.');
    }
    expect((await operator.get(`/api/tickets/${ticket.id}`)).json).toEqual(stored);
  });

  it('creates a ticket for a user (Aperto, no state accepted) and lists a user’s tickets, newest first', async () => {
    const created = await operator.post('/api/tickets', {
      userId: citizenId,
      categoria: 'Trasporto sociale',
      dettagli: 'Telefonata della signora Rossi.',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ stato: 0, richiedente: 'Maria Rossi', userId: citizenId });
    await indexesCaughtUp();
    const list = (await operator.get(`/api/users/${citizenId}/tickets`)).json.items.map((t: { id: string }) => t.id);
    expect(list.slice(0, 2)).toEqual([created.json.id, ticket.id]);
    const withState = await operator.post('/api/tickets', {
      userId: citizenId,
      categoria: 'Altro',
      dettagli: 'x',
      stato: 2,
    });
    expect(withState.status).toBe(400);
    const unknownUser = await operator.post('/api/tickets', { userId: 'nessuno', categoria: 'Altro', dettagli: 'x' });
    expect(unknownUser.status).toBe(404);
    expect((await operator.get('/api/users/nessuno/tickets')).status).toBe(404);
    expect((await operator.get(`/api/users/${citizenId}/tickets`)).json.items.map((t: { id: string }) => t.id)).toEqual(
      list,
    );
  });

  it('searches by ticket number, fiscal-code prefix, surname prefix and category prefix (cerca?q=)', async () => {
    await other.post('/api/support', message({ emailUser: 'giuseppe.verdi@example.it', subject: 'Trasporto sociale' }));
    await indexesCaughtUp();
    const ids = async (q: string) =>
      (await operator.get(`/api/tickets/cerca?q=${encodeURIComponent(q)}&limit=100`)).json.items.map(
        (t: { id: string }) => t.id,
      );
    expect(await ids(ticket.id)).toEqual([ticket.id]);
    expect(await ids('RSSMRA85')).toContain(ticket.id);
    expect(await ids('VRDGPP90')).not.toContain(ticket.id);
    expect(await ids('ross')).toContain(ticket.id);
    expect(await ids('verd')).not.toContain(ticket.id);
    const byCategory = (await operator.get('/api/tickets/cerca?q=trasp&limit=100')).json.items;
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((t: { categoria: string }) => t.categoria === 'Trasporto sociale')).toBe(true);
    const empty = await operator.get('/api/tickets/cerca?q=');
    expect(empty.status).toBe(400);
    expect(empty.json.detail).toBe('Scrivi almeno 2 caratteri da cercare.');
    expect((await operator.get('/api/tickets/cerca?q=ross&cursor=falso')).status).toBe(400);
  });
});
