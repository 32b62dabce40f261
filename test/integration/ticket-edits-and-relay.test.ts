import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { inbox } from '../support/mail.ts';

/**
 * Issue 21: two operators editing the same ticket (the second save, made on a stale copy, is refused and
 * changes nothing), and the support form as a relay (the receipt goes only to the profile's e-mail).
 */
type Client = Awaited<ReturnType<typeof as>>;
let citizen: Client, operator: Client, secondOperator: Client;
let mariaId: string;
const STALE = 'Il record è stato modificato da un altro operatore: ricarica la pagina.';
const SUPPORT = 'supporto@comune.example.it';

beforeAll(async () => {
  [citizen, operator, secondOperator] = await Promise.all([as('citizen'), as('operator'), as('entityOperator')]);
  mariaId = (await citizen.get('/api/me')).json.userId;
});

describe('two operators edit the same ticket', () => {
  it('the second save, made on the copy both read, gets 409 and the first save stays', async () => {
    const created = await operator.post('/api/tickets', {
      userId: mariaId,
      categoria: 'Altro',
      dettagli: 'Richiesta di un appuntamento.',
    });
    expect(created.status).toBe(201);
    const path = `/api/tickets/${created.json.id}`;
    // Both open the ticket page: the same copy.
    const [first, second] = [(await operator.get(path)).json, (await secondOperator.get(path)).json];
    expect(first.ultimoAggiornamento).toBe(second.ultimoAggiornamento);

    const saved = await operator.put(`${path}/modifica`, {
      ...first,
      stato: 1,
      assegnatoA: 'Laura Bianchi',
      dettagli: 'Appuntamento fissato per lunedì.',
    });
    expect(saved.status).toBe(200);
    const refused = await secondOperator.put(`${path}/modifica`, {
      ...second,
      stato: 1,
      assegnatoA: 'Francesca Romano',
      dettagli: 'Richiamare la cittadina.',
    });
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(STALE);

    const stored = (await operator.get(path)).json;
    expect(stored).toMatchObject({
      assegnatoA: 'Laura Bianchi',
      dettagli: 'Appuntamento fissato per lunedì.',
      ultimoAggiornamento: saved.json.ultimoAggiornamento,
    });
    expect((await operator.get(`${path}/storico`)).json.items.map((e: { action: string }) => e.action)).toEqual([
      'create',
      'update',
    ]);

    // Reloaded, the second operator's save goes through.
    const reloaded = (await secondOperator.get(path)).json;
    const again = await secondOperator.put(`${path}/modifica`, {
      ...reloaded,
      dettagli: 'Appuntamento fissato; richiamare la cittadina.',
    });
    expect(again.status).toBe(200);
    expect(again.json.dettagli).toBe('Appuntamento fissato; richiamare la cittadina.');
  });
});

describe('the support form is not a relay', () => {
  beforeEach(async () => {
    for (const item of await localTable().partition(`SUPPORTRATE#${mariaId}`))
      await localTable().deleteItem({ pk: item.pk, sk: item.sk });
  });

  it('sends the receipt only to the profile’s e-mail; the typed address is the office’s reply-to, never a recipient', async () => {
    const typed = `chiunque.${Date.now()}@altro-dominio.example`;
    const sentBefore = (await inbox()).length;
    const response = await citizen.post('/api/support', {
      emailUser: typed,
      subject: 'Altro',
      message: 'Testo che non deve arrivare a terzi.',
    });
    expect(response.status).toBe(201);

    const mails = (await inbox()).slice(sentBefore);
    const recipients = mails.flatMap((m) => [...m.destination.to, ...m.destination.cc, ...m.destination.bcc]);
    expect(recipients.some((address) => address.includes(typed))).toBe(false);
    expect(mails.find((m) => m.destination.to.includes(SUPPORT))).toMatchObject({ replyTo: [typed] });
    const profileEmail = (await citizen.get('/api/profile')).json.email as string;
    expect(profileEmail).toMatch(/@/);
    const receipt = mails.find((m) => m.destination.to.includes(profileEmail));
    expect(receipt?.subject).toBe(`Abbiamo ricevuto la tua segnalazione (ticket n. ${response.json.id})`);
  });

  it('sends no receipt at all when the profile has no e-mail, and the office still gets the message', async () => {
    const key = keys.user(mariaId);
    const profile = await localTable().item(key);
    await localTable().putItem({ ...profile, email: null });
    try {
      const typed = `senza.profilo.${Date.now()}@altro-dominio.example`;
      const sentBefore = (await inbox()).length;
      const response = await citizen.post('/api/support', {
        emailUser: typed,
        subject: 'Altro',
        message: 'Una domanda sul servizio.',
      });
      expect(response.status).toBe(201);
      const mails = (await inbox()).slice(sentBefore);
      expect(mails.map((m) => m.destination.to)).toEqual([[SUPPORT]]);
    } finally {
      await localTable().putItem(profile!);
    }
  });
});
