import { beforeAll, describe, expect, it } from 'vitest';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { openCall } from '../support/calls.ts';
import { mypayConfiguration } from '../support/positions.ts';

/**
 * Issue 23: a value of the wrong kind sent to the API is told what is wrong with it, in Italian, by the
 * shared error map of the zod schemas — never 'Il campo non può essere vuoto!' for a field that is not empty,
 * nor zod's English — and nothing changes.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client, citizen: Client;

beforeAll(async () => {
  [operator, citizen] = await Promise.all([as('operator'), as('citizen')]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});

describe('a value of the wrong kind', () => {
  it('a MyPay flag that is not true or false ("forse") is refused as such, and the configuration stays', async () => {
    const before = (await operator.get('/api/configuration')).json;
    const response = await operator.put('/api/configuration', {
      ...mypayConfiguration,
      flgGeneraIuv: 'forse',
      codUfficio: 'CAMBIATO',
    });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Il campo deve essere vero o falso (true o false).');
    expect(response.json.errors).toEqual({ flgGeneraIuv: 'Il campo deve essere vero o falso (true o false).' });
    expect((await operator.get('/api/configuration')).json).toEqual(before);
  });

  it('a support message that is a number is refused as not a text, and no ticket is made', async () => {
    const userId = (await citizen.get('/api/me')).json.userId;
    for (const item of await localTable().partition(`SUPPORTRATE#${userId}`))
      await localTable().deleteItem({ pk: item.pk, sk: item.sk });
    const tickets = (await citizen.get('/api/me/tickets?limit=100')).json.items.length;
    const response = await citizen.post('/api/support', {
      emailUser: 'maria.rossi@example.it',
      subject: 'Altro',
      message: 42,
    });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Il campo deve essere un testo.');
    expect((await citizen.get('/api/me/tickets?limit=100')).json.items.length).toBe(tickets);
  });

  it('each field says its own problem, in Italian; an empty field is still "vuoto"', async () => {
    const { call } = await openCall(operator);
    const cases: Array<[string, string, unknown, Record<string, string>]> = [
      [
        'PUT',
        '/api/configuration',
        { ...mypayConfiguration, flgGeneraIuv: undefined, azione: 'X' },
        {
          flgGeneraIuv: 'Il campo non può essere vuoto!',
          azione: 'L’azione deve essere I (inserimento), M (modifica) o A (annullamento).',
        },
      ],
      [
        'PUT',
        '/api/configuration',
        { ...mypayConfiguration, codUfficio: ['UFF01'], tipoVersamento: 7 },
        { codUfficio: 'Il campo deve essere un testo.', tipoVersamento: 'Il campo deve essere un testo.' },
      ],
      [
        'POST',
        `/api/calls/${call.id}/enrolments/import`,
        { fileContentBase64: '', contentType: 'text/csv', updateIsees: 'forse', removeOldSubscriptions: 1 },
        {
          updateIsees: 'Il campo deve essere vero o falso (true o false).',
          removeOldSubscriptions: 'Il campo deve essere vero o falso (true o false).',
        },
      ],
      ['POST', `/api/calls/${call.id}/positions/generate`, { mese: 'marzo', anno: 2026.5 }, {}],
    ];
    for (const [method, path, body, errors] of cases) {
      const response = method === 'PUT' ? await operator.put(path, body) : await operator.post(path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      for (const [field, message] of Object.entries(errors)) expect(response.json.errors[field], field).toBe(message);
      // Never English, never 'vuoto' for a field that was given.
      for (const [field, message] of Object.entries(response.json.errors as Record<string, string>)) {
        expect(message).not.toMatch(/Invalid|expected|received/);
        if ((body as Record<string, unknown>)[field] !== undefined)
          expect(message, field).not.toBe('Il campo non può essere vuoto!');
      }
    }
  });
});
