import fs from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, generateKeyPair, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { API_AUDIENCE } from '../../lib/local/config.ts';
import { as, request } from '../support/api.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';

const band = { name: 'Fascia integrazione', min: 1000, max: 5000, percent: 40, fixedCost: 18.5 };
let operator: Awaited<ReturnType<typeof as>>;
const table = () => localTable();

const allBands = async () =>
  (await request('GET', '/api/bands?limit=100')).json.items as Array<{ id: string; name: string }>;

beforeAll(async () => {
  operator = await as('operator');
});

describe('ISEE bands over HTTP', () => {
  it('lets an operator create, read, edit and delete a band, auditing each change', async () => {
    const created = await operator.post('/api/bands', band);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ...band, hourlyQuota: 7.4 });
    const { id } = created.json;

    expect((await operator.get(`/api/bands/${id}`)).json.name).toBe(band.name);
    const updated = await operator.put(`/api/bands/${id}`, { ...band, name: 'Fascia rinominata', percent: null });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'Fascia rinominata', percent: null, hourlyQuota: 18.5 });
    expect((await operator.delete(`/api/bands/${id}`)).status).toBe(204);
    expect((await operator.get(`/api/bands/${id}`)).status).toBe(404);

    const audit = await table().auditOf('band', id);
    expect(audit.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1]).toMatchObject({
      who: { fullName: 'Laura Bianchi', fiscalCode: 'BNCLRA79H61F205F', role: 'OPERATOR' },
      before: { name: 'Fascia integrazione' },
      after: { name: 'Fascia rinominata' },
    });
    expect(Date.parse(audit[1].at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps the creation time when an operator edits a band', async () => {
    const { id } = (await operator.post('/api/bands', band)).json;
    const created = await table().item(keys.band(id));
    expect(created?.createdAt).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await operator.put(`/api/bands/${id}`, { ...band, name: 'Fascia modificata' })).status).toBe(200);
    const edited = await table().item(keys.band(id));
    expect(edited).toMatchObject({ name: 'Fascia modificata', createdAt: created!.createdAt });
    expect(edited!.updatedAt > created!.updatedAt).toBe(true);
  });

  it('lists bands by their lower bound, 20 per page, with a cursor to the next page', async () => {
    for (let i = 0; i < 22; i++)
      await operator.post('/api/bands', { ...band, name: `Pagina ${i}`, min: 100_000 + i, max: 200_000 });
    await indexesCaughtUp();
    const first = (await request('GET', '/api/bands')).json;
    expect(first.items).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await request('GET', `/api/bands?cursor=${first.nextCursor}`)).json;
    const mins = [...first.items, ...second.items].map((b: { min: number }) => b.min);
    expect(mins).toEqual([...mins].sort((a, b) => a - b));
    expect(new Set([...first.items, ...second.items].map((b: { id: string }) => b.id)).size).toBe(
      first.items.length + second.items.length,
    );
  });

  describe('bad input gets an Italian message and changes nothing', () => {
    const cases: Array<[string, () => Promise<{ status: number; json: any }>, number, string | RegExp]> = [
      [
        'min above max',
        () => operator.post('/api/bands', { ...band, min: 6000, max: 5000 }),
        400,
        'Il valore minimo non può superare il valore massimo.',
      ],
      [
        'percentage above 100',
        () => operator.post('/api/bands', { ...band, percent: 150 }),
        400,
        'La percentuale deve essere compresa tra 0 e 100.',
      ],
      [
        'malformed quota',
        () => operator.post('/api/bands', { ...band, fixedCost: '18,5' }),
        400,
        'Inserisci un importo valido, con al massimo due decimali.',
      ],
      ['empty name', () => operator.post('/api/bands', { ...band, name: '' }), 400, 'Il campo non può essere vuoto!'],
      [
        'malformed JSON',
        () => request('POST', '/api/bands', { token: operator.token, rawBody: '{"name":' }),
        400,
        'Il corpo della richiesta non è un JSON valido.',
      ],
      [
        'body over the 64 KB limit',
        () => operator.post('/api/bands', { ...band, name: 'x'.repeat(80_000) }),
        413,
        /troppo grande/,
      ],
      [
        'body over the gateway’s 10 MB',
        () => request('POST', '/api/bands', { token: operator.token, rawBody: 'x'.repeat(11 * 1024 * 1024) }),
        413,
        /troppo grande/,
      ],
      [
        'unknown id (edit)',
        () => operator.put('/api/bands/non-esiste', band),
        404,
        'La fascia ISEE selezionata non esiste.',
      ],
      [
        'unknown id (delete)',
        () => operator.delete('/api/bands/non-esiste'),
        404,
        'La fascia ISEE selezionata non esiste.',
      ],
      ['no token', () => request('POST', '/api/bands', { body: band }), 401, /login/],
    ];
    for (const [name, send, status, detail] of cases) {
      it(name, async () => {
        // The list reads a global index: compared once it has caught up with every write, before and after.
        await indexesCaughtUp();
        const before = await allBands();
        const response = await send();
        expect(response.status).toBe(status);
        expect(response.json.detail).toMatch(detail);
        await indexesCaughtUp();
        expect(await allBands()).toEqual(before);
      });
    }
  });

  describe('tokens the API must not trust', () => {
    const post = (token: string) => request('POST', '/api/bands', { token, body: band });
    const claims = { role: ['OPERATOR'], given_name: 'Falso', family_name: 'Operatore' };

    it('refuses a token signed by another key (forged)', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer(inject('issuer'))
        .setAudience(API_AUDIENCE)
        .setSubject('intruso')
        .setExpirationTime('1h')
        .sign(privateKey);
      expect((await post(forged)).status).toBe(401);
    });

    /** The provider's own key, so that only the claim under test is wrong. */
    async function signWithProviderKey(build: (jwt: SignJWT) => SignJWT) {
      const { keys } = JSON.parse(await fs.readFile(path.join(inject('dataDir'), 'idp', 'jwks.json'), 'utf8'));
      const key = await importJWK(keys[0], 'RS256');
      return build(
        new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: keys[0].kid }).setSubject('laura.bianchi'),
      ).sign(key);
    }

    it('refuses an expired token', async () => {
      const expired = await signWithProviderKey((jwt) =>
        jwt
          .setIssuer(inject('issuer'))
          .setAudience(API_AUDIENCE)
          .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 3600),
      );
      expect((await post(expired)).status).toBe(401);
    });

    it('refuses a token for another audience or from another issuer', async () => {
      const otherAudience = await signWithProviderKey((jwt) =>
        jwt.setIssuer(inject('issuer')).setAudience('urn:altro').setExpirationTime('1h'),
      );
      const otherIssuer = await signWithProviderKey((jwt) =>
        jwt.setIssuer('http://evil.example').setAudience(API_AUDIENCE).setExpirationTime('1h'),
      );
      expect((await post(otherAudience)).status).toBe(401);
      expect((await post(otherIssuer)).status).toBe(401);
    });

    it('accepts the same key and claims when nothing is wrong (the tests above are not vacuous)', async () => {
      const good = await signWithProviderKey((jwt) =>
        jwt.setIssuer(inject('issuer')).setAudience(API_AUDIENCE).setExpirationTime('1h'),
      );
      const response = await post(good);
      expect(response.status).toBe(201);
      await operator.delete(`/api/bands/${response.json.id}`);
    });
  });

  it('refuses to delete a band that a call uses, with the spec alert', async () => {
    const { id } = (await operator.post('/api/bands', band)).json;
    await table().plantCall('bando-fasce', 'servizio-x', [id]);
    // "Is this band used?" reads gsi2, which shows the call's link a moment later.
    await indexesCaughtUp();
    const response = await operator.delete(`/api/bands/${id}`);
    expect(response.status).toBe(409);
    expect(response.json.detail).toBe('La fascia ISEE selezionata è inclusa in un bando in corso.');
    expect((await operator.get(`/api/bands/${id}`)).status).toBe(200);
  });
});
