import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../functions/domain/messages.ts';
import { as } from '../support/api.ts';
import { attestationPdf, stageIseeFile } from '../support/isee.ts';

type Client = Awaited<ReturnType<typeof as>>;
let citizen: Client, other: Client, operator: Client;
/** The cursor of the second page of the citizen's own ISEE list. */
let cursor: string;

const maria = { fullName: 'Maria Rossi', fiscalCode: 'RSSMRA85C52H501N' };

beforeAll(async () => {
  [citizen, other, operator] = await Promise.all([as('citizen'), as('newCitizen'), as('operator')]);
  for (const protocol of ['INPS-ISEE-2026-00000001A-00', 'INPS-ISEE-2026-00000002B-00']) {
    const document = await stageIseeFile(
      citizen,
      await attestationPdf({ ...maria, protocol, value: '9.000,00' }),
      'attestazione.pdf',
    );
    expect((await citizen.post('/api/isee', { document, value: 9000 })).status).toBe(201);
  }
  const first = (await citizen.get('/api/me/isee?limit=1')).json;
  expect(first.nextCursor).toEqual(expect.any(String));
  cursor = first.nextCursor;
});

const expectRefused = (response: { status: number; json: any }) => {
  expect(response.status).toBe(400);
  expect(response.json.detail).toBe(messages.invalidCursor);
};

describe('list cursors are signed and bound to their list', () => {
  it('pages with the genuine cursor', async () => {
    const first = (await citizen.get('/api/me/isee?limit=1')).json.items[0];
    const second = await citizen.get(`/api/me/isee?limit=1&cursor=${cursor}`);
    expect(second.status).toBe(200);
    expect(second.json.items).toHaveLength(1);
    expect(second.json.items[0].id).not.toBe(first.id);
  });

  it('refuses a cursor of another citizen’s list with a 400, not a 500', async () => {
    expectRefused(await other.get(`/api/me/isee?limit=1&cursor=${cursor}`));
  });

  it('refuses a cursor of another list', async () => {
    expectRefused(await citizen.get(`/api/subscriptions?cursor=${cursor}`));
    expectRefused(await operator.get(`/api/isee?cursor=${cursor}`));
  });

  it('refuses an altered or forged cursor', async () => {
    const [payload, mac] = cursor.split('.');
    const key = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...key, sk: `${key.sk}X` })).toString('base64url');
    expectRefused(await citizen.get(`/api/me/isee?limit=1&cursor=${altered}.${mac}`));
    expectRefused(await citizen.get(`/api/me/isee?limit=1&cursor=${payload}`));
    expectRefused(await citizen.get(`/api/me/isee?limit=1&cursor=${payload}.${mac.slice(1)}A`));
  });
});
