import { beforeAll, describe, expect, it } from 'vitest';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { renamedExecutable, tinyPng } from '../support/files.ts';
import { attestationPdf, stageIseeFile } from '../support/isee.ts';
import { romeYear } from '../../functions/domain/period.ts';

type Client = Awaited<ReturnType<typeof as>>;
let citizen: Client, other: Client, operator: Client, delegate: Client;
let userId: string;

const maria = { fullName: 'Maria Rossi', fiscalCode: 'RSSMRA85C52H501N' };
const uploadPdf = async (value = 12345.67, protocol = 'INPS-ISEE-2026-00597381W-00') => {
  const document = await stageIseeFile(
    citizen,
    await attestationPdf({ ...maria, protocol, value: '12.345,67' }),
    'attestazione.pdf',
  );
  return citizen.post('/api/isee', { document, value });
};
const newest = async () => (await citizen.get('/api/me/isee')).json.items[0];
// The lists read a global index, which shows a write a moment later (as DynamoDB's: eventually consistent):
// the test waits for it as the citizen would reload the page.
const listed = (id: string) => expect.poll(async () => (await newest())?.id).toBe(id);
/** How many ISEE the citizen has, from their record in the table (strongly consistent, unlike the list). */
const countMine = async () => (await localTable().item({ pk: `USER#${userId}`, sk: 'USER' }))?.iseeCount as number;

beforeAll(async () => {
  [citizen, other, operator, delegate] = await Promise.all([
    as('citizen'),
    as('newCitizen'),
    as('operator'),
    as('delegate'),
  ]);
  userId = (await citizen.get('/api/me')).json.userId;
});

describe('a citizen uploads an ISEE and an operator reviews it', () => {
  it('stores the upload as LOADED, waiting for review, with the reading pending and the user LOADED', async () => {
    const response = await uploadPdf();
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({
      userId,
      value: 12345.67,
      state: 'LOADED',
      hasFile: true,
      uploadedBy: 'CITIZEN',
      year: romeYear(new Date()),
    });
    expect(['PENDING', 'DONE', 'FAILED']).toContain(response.json.extractionStatus);
    // The user's record follows at once (never read back through an index).
    const user = (await operator.get(`/api/users/${userId}`)).json;
    expect(user.state).toBe('LOADED');
    expect(user.lastIsee).toMatchObject({ id: response.json.id, state: 'LOADED', hasFile: true });
    await listed(response.json.id);
    await expect
      .poll(async () => (await operator.get('/api/isee?limit=100')).json.items.map((i: { id: string }) => i.id))
      .toContain(response.json.id);
    expect((await operator.get('/api/isee/to-verify/count')).json.count).toBeGreaterThanOrEqual(1);
    expect((await delegate.get('/api/isee/to-verify/count')).status).toBe(200);
  });

  it('lets the citizen read their own ISEE with a 5-minute link, and nobody else’s', async () => {
    const { id } = await newest();
    const own = await citizen.get(`/api/isee/${id}`);
    expect(own.status).toBe(200);
    // A presigned link that expires within five minutes.
    const expires = Number(new URL(own.json.fileUrl).searchParams.get('X-Amz-Expires'));
    expect(expires).toBeGreaterThan(0);
    expect(expires).toBeLessThanOrEqual(300);
    const pdf = new Uint8Array(await (await fetch(own.json.fileUrl)).arrayBuffer());
    expect(Buffer.from(pdf.slice(0, 5)).toString()).toBe('%PDF-');
    const stranger = await other.get(`/api/isee/${id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.json.detail).toBe('L’ISEE selezionato non esiste.');
    expect(JSON.stringify(stranger.json)).not.toContain('X-Amz');
    expect((await delegate.get(`/api/isee/${id}`)).status).toBe(403); // the record lists the ISEE; the document is the operators’
    expect((await other.get(`/api/users/${userId}/isee`)).status).toBe(403);
  });

  it('lets a delegate read but not decide, and requires the declared value', async () => {
    const { id } = await newest();
    expect((await delegate.put(`/api/isee/${id}/decision`, { state: 1, value: 100 })).status).toBe(403);
    const empty = await operator.put(`/api/isee/${id}/decision`, { state: 1 });
    expect(empty.status).toBe(400);
    expect(empty.json.detail).toBe('Il campo non può essere vuoto!');
    const badState = await operator.put(`/api/isee/${id}/decision`, { state: 3, value: 100 });
    expect(badState.status).toBe(400);
    expect((await citizen.get(`/api/isee/${id}`)).json.state).toBe('LOADED');
  });

  it('confirms with state 1 once: a second decision is refused and changes nothing', async () => {
    const { id } = await newest();
    const [first, second] = await Promise.all([
      operator.put(`/api/isee/${id}/decision`, {
        state: 1,
        value: 12345.67,
        protocollo: 'INPS-ISEE-2026-00597381W-00',
      }),
      operator.put(`/api/isee/${id}/decision`, { state: 2, value: 1 }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = first.status === 200 ? first : second;
    const loser = first.status === 200 ? second : first;
    expect(loser.json.detail).toBe('L’ISEE non è più in attesa di verifica: è già stato confermato o rifiutato.');
    expect((await citizen.get(`/api/isee/${id}`)).json.state).toBe(winner.json.state);
    const again = await operator.put(`/api/isee/${id}/decision`, { state: 1, value: 5 });
    expect(again.status).toBe(409);
    expect((await operator.get(`/api/isee/${id}`)).json.value).toBe(winner.json.value);
    await expect.poll(async () => (await newest()).value).toBe(winner.json.value);
    await expect
      .poll(async () => (await operator.get('/api/isee?limit=100')).json.items.map((i: { id: string }) => i.id))
      .not.toContain(id);
  });

  it('invalidates the previous ISEE at a new upload; a refusal (state 2) leaves the user without a valid ISEE', async () => {
    const previous = await newest();
    const response = await uploadPdf(9000);
    expect(response.status).toBe(201);
    expect((await citizen.get(`/api/isee/${previous.id}`)).json.state).toBe(
      previous.state === 'REFUSED' ? 'REFUSED' : 'INVALIDATED',
    );
    await listed(response.json.id);
    const refused = await operator.put(`/api/isee/${response.json.id}/decision`, { state: 2, value: 9000 });
    expect(refused.status).toBe(200);
    expect(refused.json.state).toBe('REFUSED');
    const user = (await operator.get(`/api/users/${userId}`)).json;
    expect(user.state).toBe('VALIDATED');
    expect(user.lastIsee.state).toBe('REFUSED');
  });
});

describe('bad input gets a clear Italian error and changes nothing', () => {
  it('refuses a renamed executable', async () => {
    const before = await countMine();
    const document = await stageIseeFile(citizen, renamedExecutable(), 'isee.pdf');
    const response = await citizen.post('/api/isee', { document, value: 100 });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Carica un file con un formato supportato');
    expect(await countMine()).toBe(before);
  });

  it('refuses a file larger than 10 MB even when the browser declared less', async () => {
    const before = await countMine();
    const big = new Uint8Array(11 * 1024 * 1024);
    big.set(tinyPng());
    const document = await stageIseeFile(citizen, big, 'foto.png', 'image/png', 1000);
    const response = await citizen.post('/api/isee', { document, value: 100 });
    expect(response.status).toBe(400);
    expect(response.json.detail).toBe('Il file supera la dimensione massima di 10 MB.');
    expect(await countMine()).toBe(before);
  });

  it('requires the document and the value, and refuses malformed values', async () => {
    const before = await countMine();
    const noDocument = await citizen.post('/api/isee', { value: 100 });
    expect(noDocument.status).toBe(400);
    expect(noDocument.json.detail).toBe('Non è stato caricato nessun documento');
    const document = await stageIseeFile(
      citizen,
      await attestationPdf({ ...maria, protocol: 'INPS-ISEE-2026-00000001A-00', value: '1,00' }),
    );
    for (const value of [undefined, 'abc', 12.345, -5]) {
      const response = await citizen.post('/api/isee', { document, value });
      expect(response.status, String(value)).toBe(400);
      expect(response.json.errors.value).toMatch(/Il campo non può essere vuoto!|Inserisci un valore valido/);
    }
    expect(await countMine()).toBe(before);
  });

  it('operator upload: a document is required unless "Escludi verifica ISEE"; year and value are checked', async () => {
    const base = {
      value: 5000,
      year: 2026,
      date: new Date().toISOString(),
      protocollo: 'INPS-ISEE-2026-00000002B-00',
      scadenza: '2026-12-31',
    };
    const before = await countMine();
    const missing = await operator.post(`/api/users/${userId}/isee`, { ...base, excludeVerification: false });
    expect(missing.status).toBe(400);
    expect(missing.json.detail).toBe('Non è stato caricato nessun documento');
    const badYear = await operator.post(`/api/users/${userId}/isee`, { ...base, year: 26, excludeVerification: true });
    expect(badYear.status).toBe(400);
    expect(badYear.json.errors.year).toBe('Inserisci un anno valido (quattro cifre).');
    const noProtocol = await operator.post(`/api/users/${userId}/isee`, {
      ...base,
      protocollo: '',
      excludeVerification: true,
    });
    expect(noProtocol.json.errors.protocollo).toBe('Il campo non può essere vuoto!');
    expect(await countMine()).toBe(before);
    expect((await delegate.post(`/api/users/${userId}/isee`, { ...base, excludeVerification: true })).status).toBe(403);

    const excluded = await operator.post(`/api/users/${userId}/isee`, { ...base, excludeVerification: true });
    expect(excluded.status).toBe(201);
    expect(excluded.json).toMatchObject({
      state: 'VALIDATED',
      hasFile: false,
      extractionStatus: 'NONE',
      uploadedBy: 'OPERATOR',
    });
    expect((await operator.get(`/api/isee/${excluded.json.id}`)).json.fileUrl).toBeNull();

    const document = await stageIseeFile(
      operator,
      await attestationPdf({ ...maria, protocol: base.protocollo, value: '5.000,00' }),
    );
    const withFile = await operator.post(`/api/users/${userId}/isee`, {
      ...base,
      document,
      excludeVerification: false,
    });
    expect(withFile.status).toBe(201);
    expect(withFile.json).toMatchObject({ state: 'LOADED', hasFile: true });
  });

  it('a deleted ISEE cannot be decided or read', async () => {
    const { id } = await newest();
    expect((await delegate.delete(`/api/isee/${id}`)).status).toBe(403);
    expect((await operator.delete(`/api/isee/${id}`)).status).toBe(204);
    const decision = await operator.put(`/api/isee/${id}/decision`, { state: 1, value: 1 });
    expect(decision.status).toBe(404);
    expect(decision.json.detail).toBe('L’ISEE selezionato non esiste.');
    expect((await operator.get(`/api/isee/${id}`)).status).toBe(404);
  });
});

describe('an operator deletes an ISEE from the user record', () => {
  const uploadForMaria = async (protocollo: string) => {
    const document = await stageIseeFile(
      operator,
      await attestationPdf({ ...maria, protocol: protocollo, value: '7.000,00' }),
    );
    const base = {
      value: 7000,
      year: 2026,
      date: new Date().toISOString(),
      protocollo,
      scadenza: '2026-12-31',
      excludeVerification: false,
    };
    const created = await operator.post(`/api/users/${userId}/isee`, { ...base, document });
    expect(created.status).toBe(201);
    return created.json as { id: string };
  };
  const stillThere = async (id: string) => {
    expect((await operator.get(`/api/isee/${id}`)).status).toBe(200);
    expect((await operator.get(`/api/users/${userId}`)).json.lastIsee.id).toBe(id);
    await expect
      .poll(async () =>
        (await operator.get(`/api/users/${userId}/isee?limit=100`)).json.items.map((i: { id: string }) => i.id),
      )
      .toContain(id);
    expect((await localTable().auditOf('isee', id)).map((e) => e.action)).toEqual(['create']);
  };

  it('refuses an unknown id (404), a delegate (403), a citizen (403) and an ISEE used for a fee (409): nothing changes', async () => {
    const { id } = await uploadForMaria('INPS-ISEE-2026-00000003C-00');
    const unknown = await operator.delete('/api/isee/non-esiste');
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe('L’ISEE selezionato non esiste.');
    const byDelegate = await delegate.delete(`/api/isee/${id}`);
    expect(byDelegate.status).toBe(403);
    expect(byDelegate.json.detail).toBe('Non sei autorizzato a eseguire questa operazione.');
    // Even the citizen whose ISEE it is cannot delete it.
    const byOwner = await citizen.delete(`/api/isee/${id}`);
    expect(byOwner.status).toBe(403);
    expect(byOwner.json.detail).toBe('Non sei autorizzato a eseguire questa operazione.');
    expect((await other.delete(`/api/isee/${id}`)).status).toBe(403);
    await stillThere(id);

    await localTable().markIseeUsedForFee(id, '2026-03-02T10:00:00.000Z');
    const used = await operator.delete(`/api/isee/${id}`);
    expect(used.status).toBe(409);
    expect(used.json.detail).toBe('Non è possibile eliminare un ISEE già usato per calcolare una quota.');
    await stillThere(id);
    const link = (await operator.get(`/api/isee/${id}`)).json.fileUrl;
    expect((await fetch(link)).status).toBe(200);
    await localTable().markIseeUsedForFee(id, null);
  });

  it('deletes the record and its document, audited; the user’s summary falls back to the newest remaining ISEE', async () => {
    const older = await uploadForMaria('INPS-ISEE-2026-00000004D-00');
    const { id } = await uploadForMaria('INPS-ISEE-2026-00000005E-00');
    const link = (await operator.get(`/api/isee/${id}`)).json.fileUrl;
    expect((await operator.get(`/api/users/${userId}`)).json.state).toBe('LOADED');

    const deleted = await operator.delete(`/api/isee/${id}`);
    expect(deleted.status).toBe(204);
    expect((await operator.get(`/api/isee/${id}`)).status).toBe(404);
    // The user's summary falls back at once, even while the index still lists the deleted one.
    const user = (await operator.get(`/api/users/${userId}`)).json;
    expect(user.lastIsee.id).toBe(older.id);
    expect(user.state).toBe('VALIDATED');
    await expect
      .poll(async () =>
        (await operator.get(`/api/users/${userId}/isee?limit=100`)).json.items.map((i: { id: string }) => i.id),
      )
      .not.toContain(id);
    // The document is gone from the bucket: even a link signed before the delete finds nothing (S3's 403 to a
    // role without s3:ListBucket, as the portal's are).
    expect((await fetch(link)).status).toBe(403);
    const audit = await localTable().auditOf('isee', id);
    expect(audit.map((e) => e.action)).toEqual(['create', 'delete']);
    expect(audit[1]).toMatchObject({
      who: { sub: expect.any(String), role: 'OPERATOR' },
      before: { id, protocollo: 'INPS-ISEE-2026-00000005E-00' },
      after: null,
    });
    // Deleted twice: the second answers 404.
    expect((await operator.delete(`/api/isee/${id}`)).status).toBe(404);
  });
});
