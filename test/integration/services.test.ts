import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { as, request } from '../support/api.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';

const service = {
  code: 'SAD_TEST',
  name: 'Assistenza domiciliare (test)',
  description: 'Aiuto a casa per le persone anziane.',
};
let operator: Awaited<ReturnType<typeof as>>;
const allServices = async () => (await request('GET', '/api/services?limit=100')).json.items;

beforeAll(async () => {
  operator = await as('operator');
});

describe('services over HTTP', () => {
  it('lets an operator create, edit and delete a service, visible to everyone, audited', async () => {
    const created = await operator.post('/api/services', service);
    expect(created.status).toBe(201);
    const { id } = created.json;
    expect((await request('GET', `/api/services/${id}`)).json).toEqual({ id, ...service, inpsBenefitCode: null });
    // The list reads a global index: it shows the new service a moment later, as on a reload.
    await expect.poll(async () => (await allServices()).map((s: { id: string }) => s.id)).toContain(id);

    const updated = await operator.put(`/api/services/${id}`, { ...service, description: 'Nuova descrizione.' });
    expect(updated.json.description).toBe('Nuova descrizione.');
    expect((await operator.delete(`/api/services/${id}`)).status).toBe(204);
    expect((await request('GET', `/api/services/${id}`)).status).toBe(404);
    expect((await localTable().auditOf('service', id)).map((e) => e.action)).toEqual(['create', 'update', 'delete']);
  });

  it('stores the service’s INPS benefit code, which an edit without the field keeps', async () => {
    const { id } = (await operator.post('/api/services', { ...service, inpsBenefitCode: 'A3.03' })).json;
    expect((await request('GET', `/api/services/${id}`)).json.inpsBenefitCode).toBe('A3.03');
    expect((await operator.put(`/api/services/${id}`, { ...service, name: 'Asilo nido' })).json.inpsBenefitCode).toBe(
      'A3.03',
    );
    expect(
      (await operator.put(`/api/services/${id}`, { ...service, inpsBenefitCode: 'A2.12' })).json.inpsBenefitCode,
    ).toBe('A2.12');
  });

  it('keeps the creation time when an operator edits a service', async () => {
    const { id } = (await operator.post('/api/services', service)).json;
    const created = await localTable().item(keys.service(id));
    expect(created?.createdAt).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await operator.put(`/api/services/${id}`, { ...service, name: 'Servizio modificato' })).status).toBe(200);
    const edited = await localTable().item(keys.service(id));
    expect(edited).toMatchObject({ name: 'Servizio modificato', createdAt: created!.createdAt });
    expect(edited!.updatedAt > created!.updatedAt).toBe(true);
  });

  it('refuses to delete a service that has calls, with a clear message, and keeps it', async () => {
    const { id } = (await operator.post('/api/services', service)).json;
    await localTable().plantCall('bando-servizio', id, []);
    // "Has this service calls?" reads gsi2, which shows the call a moment later.
    await indexesCaughtUp();
    const response = await operator.delete(`/api/services/${id}`);
    expect(response.status).toBe(409);
    expect(response.json.detail).toBe('Il servizio non può essere eliminato perché ha dei bandi associati.');
    expect((await request('GET', `/api/services/${id}`)).status).toBe(200);
  });

  describe('bad input gets an Italian message and changes nothing', () => {
    const cases: Array<[string, () => Promise<{ status: number; json: any }>, number, string]> = [
      [
        'missing code',
        () => operator.post('/api/services', { ...service, code: '' }),
        400,
        'Il campo non può essere vuoto!',
      ],
      [
        'missing description',
        () => operator.post('/api/services', { code: 'X', name: 'Y' }),
        400,
        'Il campo non può essere vuoto!',
      ],
      [
        'name too long',
        () => operator.post('/api/services', { ...service, name: 'x'.repeat(121) }),
        400,
        'Il campo può contenere al massimo 120 caratteri.',
      ],
      [
        'a JSON array instead of an object',
        () => request('POST', '/api/services', { token: operator.token, rawBody: '[]' }),
        400,
        'Il corpo della richiesta non è un JSON valido.',
      ],
      [
        'unknown id',
        () => operator.put('/api/services/non-esiste', service),
        404,
        'Il servizio selezionato non esiste.',
      ],
      [
        'an INPS benefit code not in INPS’s list',
        () => operator.post('/api/services', { ...service, inpsBenefitCode: 'B9.99' }),
        400,
        'Il codice prestazione INPS deve essere uno dei codici dell’elenco INPS (da A1.01 a Z9.99).',
      ],
    ];
    for (const [name, send, status, detail] of cases) {
      it(name, async () => {
        await indexesCaughtUp();
        const before = await allServices();
        const response = await send();
        expect(response.status).toBe(status);
        expect(response.json.detail).toBe(detail);
        await indexesCaughtUp();
        expect(await allServices()).toEqual(before);
      });
    }
  });

  it('refuses a delegate’s and a citizen’s write with 403', async () => {
    for (const persona of ['delegate', 'citizen'] as const) {
      const response = await (await as(persona)).post('/api/services', service);
      expect(response.status).toBe(403);
      expect(response.json.detail).toBe('Non sei autorizzato a eseguire questa operazione.');
    }
  });
});
