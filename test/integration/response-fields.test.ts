import { beforeAll, describe, expect, it } from 'vitest';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { responseSchema, servedDocument, undeclaredFields } from '../support/openapi-fields.ts';
import { exportMonth, mariaWithPosition, mypayConfiguration } from '../support/positions.ts';
import { billedMonth } from '../support/months.ts';

/**
 * Responses carry only the fields of their schema (issue 21). The route × role test checks every route's
 * success this way; here, the answers that once carried stored items' keys or storage paths, with the data
 * that makes those fields appear: a ticket, and a position exported to MyPay with its notice ZIP (the
 * payment return answered it with the ZIP's storage key).
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let citizen: Client;
let mariaId: string;

/** The fields of an answer that the served OpenAPI document does not declare for its route ('/api/tickets/{id}'). */
async function undeclared(method: string, template: string, response: { status: number; json: unknown }) {
  const document = await servedDocument();
  const schema = responseSchema(document, method, template, response.status);
  expect(schema, `${method} ${template} declares its answer`).toBeDefined();
  return undeclaredFields(schema!, response.json, document);
}

beforeAll(async () => {
  [operator, citizen] = await Promise.all([as('operator'), as('citizen')]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  mariaId = (await citizen.get('/api/me')).json.userId;
});

describe('a response carries only what its schema declares', () => {
  it('a ticket, read and edited, has no table keys (pk, sk, gsi1pk…gsi5sk)', async () => {
    const created = await operator.post('/api/tickets', {
      userId: mariaId,
      categoria: 'Altro',
      dettagli: 'Richiesta di informazioni.',
    });
    expect(created.status).toBe(201);
    const path = `/api/tickets/${created.json.id}`;
    for (const [method, response] of [
      ['GET', await operator.get(path)],
      ['GET', await citizen.get(path)],
      [
        'PUT',
        await operator.put(`${path}/modifica`, {
          stato: 1,
          categoria: 'Altro',
          dettagli: 'Presa in carico.',
          assegnatoA: 'Ufficio',
        }),
      ],
    ] as const) {
      expect(response.status).toBe(200);
      expect(
        await undeclared(method, method === 'PUT' ? '/api/tickets/{id}/modifica' : '/api/tickets/{id}', response),
      ).toEqual([]);
      expect(Object.keys(response.json).filter((key) => /^(pk|sk|gsi\d(pk|sk))$/.test(key))).toEqual([]);
    }
  });

  it('a citizen’s position exported to MyPay has no notice ZIP key, for her or for the operators', async () => {
    const { call } = await openCall(operator);
    await mariaWithPosition(operator, call.id, mariaId, billedMonth().period);
    await exportMonth(operator, call.id, billedMonth().period);

    // Her list reads a global index, which trails the export's write-back: reload until it shows the export.
    await expect
      .poll(async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items?.[0]?.noticeUrl ?? null, {
        timeout: 10_000,
      })
      .not.toBeNull();
    const mine = await citizen.get(`/api/me/positions?callId=${call.id}`);
    expect(mine.status).toBe(200);
    const [position] = mine.json.items;
    // Exported with its notice: the PDF link is there, the storage key it was made from is not.
    expect(position).toMatchObject({ badge: 'Da pagare', noticeUrl: expect.stringContaining('http') });
    expect(await undeclared('GET', '/api/me/positions', mine)).toEqual([]);
    expect(JSON.stringify(mine.json)).not.toMatch(/noticeZip|\.zip/);

    const fiscalCode = position.fiscalCode as string;
    for (const [template, path] of [
      ['/api/users/{id}/positions', `/api/users/${mariaId}/positions`],
      ['/api/positions', `/api/positions?fiscalCode=${fiscalCode}`],
    ] as const) {
      const read = await operator.get(path);
      expect(read.status).toBe(200);
      expect(read.json.items.length).toBeGreaterThan(0);
      expect(await undeclared('GET', template, read)).toEqual([]);
    }

    // Back from MyPay's checkout (cancelled there): the answer holds the position as the citizen sees it.
    const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, {
      returnPath: `/iscrizioni/visualizza_servizio?id=${call.id}`,
    });
    expect(paid.status).toBe(200);
    // MyPay's landing, then its checkout page: the citizen cancels there.
    const checkoutPage = (await fetch(paid.json.url, { redirect: 'manual' })).headers.get('location')!;
    const cancelled = await fetch(checkoutPage, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ esito: 'cancel' }),
      redirect: 'manual',
    });
    const idSession = new URL(cancelled.headers.get('location')!).searchParams.get('idSession');
    const back = await citizen.post('/api/me/payments/return', { idSession });
    expect(back.status).toBe(200);
    // With pagoPA's modello unico MyPay learns nothing of a cancelled checkout (no receipt): 'Pagamento in verifica'.
    expect(back.json).toMatchObject({ esito: 'PENDING', position: { iud: position.iud, badge: 'Da pagare' } });
    expect(await undeclared('POST', '/api/me/payments/return', back)).toEqual([]);
    expect(JSON.stringify(back.json)).not.toMatch(/noticeZip|\.zip/);
  });
});
