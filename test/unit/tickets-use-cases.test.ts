import { beforeEach, describe, expect, it } from 'vitest';
import { makeTicketUseCases } from '../../functions/tickets/use-cases.ts';
import {
  actors,
  memoryAudit,
  memoryMailer,
  memoryMetrics,
  memoryServices,
  memoryTickets,
  memoryUsers,
  portal,
  type Portal,
} from '../support/in-memory.ts';
import { makeEnsureCitizen } from '../../functions/users/use-cases.ts';

/** Maria Rossi signed in with SPID: the e-mail of her claims is her profile's, where the receipt goes. */
const maria = { ...actors.citizen, email: 'maria.rossi@example.it' };
let app: Portal;
let citizenId: string;
const message = (change: Partial<{ emailUser: string; subject: string; message: string }> = {}) => ({
  emailUser: 'maria.rossi@example.it',
  subject: 'Assistenza domiciliare',
  message: 'Vorrei sapere quando inizia il servizio.',
  ...change,
});

beforeEach(async () => {
  app = portal();
  await app.services.createService(
    { code: 'AD', name: 'Assistenza domiciliare', description: 'Aiuto a casa' },
    actors.operator,
  );
  citizenId = await app.ensureCitizen(maria);
});

describe('support message → ticket + e-mails', () => {
  it('makes an open ticket of the citizen (categoria = subject), mails the office and sends the citizen a receipt', async () => {
    const ticket = await app.tickets.sendSupportMessage(message(), maria);
    expect(ticket).toMatchObject({
      id: '1',
      stato: 0,
      categoria: 'Assistenza domiciliare',
      dettagli: 'Vorrei sapere quando inizia il servizio.',
      userId: citizenId,
      richiedente: 'Maria Rossi',
      emailUser: 'maria.rossi@example.it',
      assegnatoA: null,
    });
    expect(app.store.mailer.sent.map((m) => m.to)).toEqual([
      ['supporto@comune.example.it'],
      ['maria.rossi@example.it'],
    ]);
    expect(app.store.mailer.sent[0]).toMatchObject({
      replyTo: ['maria.rossi@example.it'],
      subject: '[Ticket 1] Assistenza domiciliare',
    });
    expect(app.store.mailer.sent[0].text).toContain('Vorrei sapere quando inizia il servizio.');
    expect(app.store.mailer.sent[1].subject).toBe('Abbiamo ricevuto la tua segnalazione (ticket n. 1)');
    expect((await app.tickets.listMyTickets({}, maria)).items.map((t) => t.id)).toEqual(['1']);
    expect(await app.tickets.countOpenTickets()).toEqual({ count: 1 });
  });

  it('accepts Altro, and refuses a subject that is neither a service nor Altro, leaving nothing behind', async () => {
    await app.tickets.sendSupportMessage(message({ subject: 'Altro' }), maria);
    await expect(
      app.tickets.sendSupportMessage(message({ subject: 'Servizio inventato' }), maria),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Scegli l’oggetto tra i servizi elencati o Altro.',
    });
    expect(app.store.tickets.all.size).toBe(1);
    expect(app.store.mailer.sent).toHaveLength(2);
  });

  it('keeps the ticket when an e-mail cannot be sent, and reports the failure', async () => {
    app.store.mailer.failNext = 1;
    const ticket = await app.tickets.sendSupportMessage(message(), maria);
    expect(app.store.tickets.all.has(ticket.id)).toBe(true);
    expect(app.store.mailFailures).toEqual([{ ticketId: ticket.id, message: 'SES non raggiungibile' }]);
  });

  it('lists the subjects: the services and Altro', async () => {
    expect(await app.tickets.supportSubjects()).toEqual({
      subjects: ['Assistenza domiciliare', 'Accessibilità', 'Altro'],
    });
  });
});

describe('rate limit of the support form', () => {
  function wiredAt(times: string[]) {
    const users = memoryUsers();
    const services = memoryServices();
    const tickets = memoryTickets();
    const mailer = memoryMailer();
    const audit = memoryAudit();
    const metrics = memoryMetrics();
    let index = 0;
    const clock = { now: () => new Date(times[Math.min(index++, times.length - 1)]) };
    const ensureCitizen = makeEnsureCitizen({
      users,
      ids: () => 'citizen-1',
      clock: { now: () => new Date('2026-03-01T00:00:00Z') },
    });
    const useCases = makeTicketUseCases({
      tickets,
      users,
      services,
      ensureCitizen,
      mailer,
      supportAddress: () => 'supporto@x.it',
      audit,
      history: audit,
      clock,
      metrics,
    });
    return { useCases, tickets, mailer, metrics };
  }

  it('takes 5 messages in an hour; the 6th is 429 in Italian and changes nothing', async () => {
    const { useCases, tickets, mailer, metrics } = wiredAt(['2026-03-01T10:00:00Z']);
    for (let i = 0; i < 5; i++) await useCases.sendSupportMessage(message({ subject: 'Altro' }), maria);
    await expect(useCases.sendSupportMessage(message({ subject: 'Altro' }), maria)).rejects.toMatchObject({
      status: 429,
      message: 'Hai inviato troppe segnalazioni nell’ultima ora: riprova più tardi.',
    });
    expect(tickets.all.size).toBe(5);
    expect(mailer.sent).toHaveLength(10);
    // The dashboard's support messages: the five received, not the refused one.
    expect(metrics.total('SupportMessages')).toBe(5);
    // The refused message did not count toward the day either.
    expect(tickets.rates.get('citizen-1|day|2026-03-01')).toBe(5);
  });

  it('takes 20 a day across hours; the 21st is refused with the daily message, and the next hour stays free', async () => {
    const times = Array.from(
      { length: 21 },
      (_, i) => `2026-03-01T${String(Math.floor(i / 5) + 8).padStart(2, '0')}:00:00Z`,
    );
    const { useCases, tickets } = wiredAt(times);
    for (let i = 0; i < 20; i++) await useCases.sendSupportMessage(message({ subject: 'Altro' }), maria);
    await expect(useCases.sendSupportMessage(message({ subject: 'Altro' }), maria)).rejects.toMatchObject({
      status: 429,
      message: 'Hai raggiunto il numero massimo di segnalazioni per oggi: riprova domani.',
    });
    expect(tickets.all.size).toBe(20);
    expect(tickets.rates.get('citizen-1|hour|2026-03-01T12')).toBeUndefined();
  });

  it('counts per citizen: another citizen is not limited by the first', async () => {
    const app2 = portal();
    for (let i = 0; i < 5; i++) await app2.tickets.sendSupportMessage(message({ subject: 'Altro' }), maria);
    await expect(
      app2.tickets.sendSupportMessage(message({ subject: 'Altro' }), actors.otherCitizen),
    ).resolves.toMatchObject({ richiedente: 'Giuseppe Verdi' });
  });
});

describe('operators work the tickets', () => {
  let id: string;
  beforeEach(async () => {
    id = (await app.tickets.sendSupportMessage(message(), maria)).id;
  });

  it('takes a ticket In Corso, resolves it, and then it is read-only (409, nothing changed)', async () => {
    const taken = await app.tickets.updateTicket(
      id,
      { stato: 1, categoria: 'Assistenza domiciliare', dettagli: 'Presa in carico', assegnatoA: 'Laura Bianchi' },
      actors.operator,
    );
    expect(taken).toMatchObject({ stato: 1, assegnatoA: 'Laura Bianchi', dettagli: 'Presa in carico' });
    expect(await app.tickets.countOpenTickets()).toEqual({ count: 1 });
    await app.tickets.updateTicket(
      id,
      { stato: 2, categoria: 'Assistenza domiciliare', dettagli: 'Risposto via mail', assegnatoA: 'Laura Bianchi' },
      actors.operator,
    );
    expect(await app.tickets.countOpenTickets()).toEqual({ count: 0 });
    expect((await app.tickets.listOpenTickets({})).items).toEqual([]);
    const before = await app.tickets.getTicket(id, actors.operator);
    await expect(
      app.tickets.updateTicket(
        id,
        { stato: 0, categoria: 'Altro', dettagli: 'riapro', assegnatoA: null },
        actors.operator,
      ),
    ).rejects.toMatchObject({
      status: 409,
      message: 'Il ticket è risolto o chiuso: non può più essere modificato.',
    });
    expect(await app.tickets.getTicket(id, actors.operator)).toEqual(before);
  });

  it('keeps a history: who changed what, and when', async () => {
    await app.tickets.updateTicket(
      id,
      {
        stato: 1,
        categoria: 'Assistenza domiciliare',
        dettagli: 'Vorrei sapere quando inizia il servizio.',
        assegnatoA: 'Laura Bianchi',
      },
      actors.operator,
    );
    const history = await app.tickets.ticketHistory(id, {});
    expect(history.items.map((h) => [h.action, h.who, h.changes])).toEqual([
      ['create', 'Maria Rossi', expect.arrayContaining([{ field: 'stato', before: null, after: 'Aperto' }])],
      [
        'update',
        'Laura Bianchi',
        [
          { field: 'stato', before: 'Aperto', after: 'In Corso' },
          { field: 'assegnatoA', before: null, after: 'Laura Bianchi' },
        ],
      ],
    ]);
    expect(history.items[1].at > history.items[0].at).toBe(true);
  });

  it('refuses an edit that raced another (409) without writing it', async () => {
    const stale = await app.store.tickets.getTicketItem(id);
    await app.tickets.updateTicket(
      id,
      { stato: 1, categoria: 'Altro', dettagli: 'prima', assegnatoA: null },
      actors.operator,
    );
    expect(
      await app.store.tickets.updateTicket(
        stale!,
        { stato: 3, categoria: 'Altro', dettagli: 'seconda', assegnatoA: null },
        '2030-01-01T00:00:00Z',
      ),
    ).toBeNull();
    expect((await app.tickets.getTicket(id, actors.operator)).dettagli).toBe('prima');
  });

  it('creates a ticket for a user, Aperto, and lists it under the user', async () => {
    const created = await app.tickets.createTicket(
      { userId: citizenId, categoria: 'Altro', dettagli: 'Telefonata', assegnatoA: null },
      actors.operator,
    );
    expect(created).toMatchObject({ stato: 0, richiedente: 'Maria Rossi', userId: citizenId });
    expect((await app.tickets.listUserTickets(citizenId, {})).items.map((t) => t.id)).toEqual([created.id, id]);
    await expect(
      app.tickets.createTicket(
        { userId: 'nessuno', categoria: 'Altro', dettagli: 'x', assegnatoA: null },
        actors.operator,
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(app.tickets.listUserTickets('nessuno', {})).rejects.toMatchObject({ status: 404 });
  });

  it('finds tickets by number, fiscal-code prefix, surname prefix or category prefix', async () => {
    await app.tickets.sendSupportMessage(message({ subject: 'Altro' }), actors.otherCitizen);
    const ids = async (q: string) => (await app.tickets.searchTickets({ q })).items.map((t) => t.id).sort();
    expect(await ids('1')).toEqual(['1']);
    expect(await ids('99')).toEqual([]);
    expect(await ids('VRDGPP9')).toEqual(['2']);
    expect(await ids('ross')).toEqual(['1']);
    expect(await ids('assist')).toEqual(['1']);
    expect(await ids('alt')).toEqual(['2']);
  });

  it('lets a citizen read their own ticket and answers 404 for anyone else’s or an unknown one', async () => {
    expect((await app.tickets.getTicket(id, maria)).id).toBe(id);
    await expect(app.tickets.getTicket(id, actors.otherCitizen)).rejects.toMatchObject({
      status: 404,
      message: 'Il ticket selezionato non esiste.',
    });
    await expect(app.tickets.getTicket('999', actors.operator)).rejects.toMatchObject({ status: 404 });
    expect((await app.tickets.listMyTickets({}, actors.otherCitizen)).items).toEqual([]);
  });
});
