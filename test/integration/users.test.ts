import { beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { as } from '../support/api.ts';
import { localTable } from '../support/dynamo.ts';
import { randomFiscalCode } from '../support/isee.ts';

type Client = Awaited<ReturnType<typeof as>>;
let operator: Client, delegate: Client, citizen: Client;

const valid = {
  firstName: 'Ettore',
  lastName: 'D’Àlessandro',
  fiscalCode: 'DLSTTR70A01H501O',
  birthDate: '1970-01-01',
  email: 'ettore@example.it',
  emailPec: '',
  phoneNumber: '+39 333 9998887',
  address: 'Via Nazionale',
  addressNumber: '10',
  cap: '00184',
  city: 'Roma',
  country: 'RM',
  nation: 'IT',
  municipioId: '1',
};

beforeAll(async () => {
  [operator, delegate, citizen] = await Promise.all([as('operator'), as('delegate'), as('citizen')]);
});

describe('users: new, search, edit, status, delete', () => {
  let id: string;

  it('checks every rule of the new-user form', async () => {
    const empty = await operator.post('/api/users', {});
    expect(empty.status).toBe(400);
    for (const field of ['firstName', 'lastName', 'birthDate', 'fiscalCode', 'address', 'addressNumber', 'cap', 'city', 'country', 'nation', 'municipioId']) {
      expect(empty.json.errors[field], field).toBe('Il campo non può essere vuoto!');
    }
    expect(empty.json.errors.email).toBeUndefined();
    const wrong = await operator.post('/api/users', { ...valid, email: 'ettore.example.it', fiscalCode: 'DLSTTR70A01H501Y', birthDate: '1970-02-30', country: 'XX' });
    expect(wrong.json.errors).toMatchObject({
      email: "Il formato dell'email non è corretto!",
      fiscalCode: 'Il codice fiscale è errato!',
      birthDate: 'Inserisci una data di nascita valida.',
      country: 'Seleziona una provincia dall’elenco.',
    });
    expect((await operator.post('/api/users', { ...valid, fiscalCode: 'DLSTTR70A01' })).json.errors.fiscalCode).toBe('Il codice fiscale è errato!');
    expect((await delegate.post('/api/users', valid)).status).toBe(403);
  });

  it('creates a user (audited), refuses the same fiscal code twice', async () => {
    const created = await operator.post('/api/users', valid);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ fiscalCode: 'DLSTTR70A01H501O', state: 'VALIDATED', phoneNumber: '+393339998887', emailPec: null, municipio: 'Municipio 1', hasLinkedData: false });
    id = created.json.id;
    expect((await localTable().auditOf('user', id)).map((a) => a.action)).toEqual(['create']);
    const twice = await operator.post('/api/users', valid);
    expect(twice.status).toBe(409);
    expect(twice.json.detail).toBe('Esiste già un utente con questo codice fiscale.');
  });

  it('finds the user by the start of each field, ignoring case and accents, combined filters too', async () => {
    const search = async (q: string) => (await operator.get(`/api/users?${q}`)).json.items.map((u: { id: string }) => u.id);
    expect(await search('lastName=dalESS')).toContain(id);
    expect(await search('firstName=ett')).toContain(id);
    expect(await search('fiscalCode=dlsttr70')).toContain(id);
    expect(await search('email=ETTORE@')).toContain(id);
    expect(await search('phoneNumber=39333999')).toContain(id);
    expect(await search('lastName=dal&firstName=ett&email=ettore')).toContain(id);
    expect(await search('lastName=dal&firstName=zzz')).not.toContain(id);
    expect(await search('loaded=true&lastName=dal')).not.toContain(id);
    expect((await delegate.get('/api/users?lastName=dal')).status).toBe(200);
    expect((await citizen.get('/api/users')).status).toBe(403);
  });

  it('edits the user with the edit rules, suspends and re-enables', async () => {
    const bad = await operator.put(`/api/users/${id}`, { ...valid, address: '', birthDate: 'ieri' });
    expect(bad.json.errors).toMatchObject({ address: 'Il campo non può essere vuoto!', birthDate: 'Inserisci una data di nascita valida.' });
    const edited = await operator.put(`/api/users/${id}`, { ...valid, email: null, phoneNumber: null, municipioId: null, city: 'Frascati' });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ city: 'Frascati', email: null, phoneNumber: null, municipio: null });
    expect((await operator.get('/api/users?email=ettore')).json.items.map((u: { id: string }) => u.id)).not.toContain(id);
    expect((await delegate.put(`/api/users/${id}/status`, { suspended: true })).status).toBe(403);
    expect((await operator.put(`/api/users/${id}/status`, { suspended: true })).json.state).toBe('SUSPEND');
    expect((await operator.put(`/api/users/${id}/status`, { suspended: false })).json.state).toBe('VALIDATED');
  });

  it('deletes a user without ISEE (204) but not one with an ISEE', async () => {
    const withIsee = await operator.post('/api/users', { ...valid, fiscalCode: 'RCCMRC60A01H501V' });
    const isee = await operator.post(`/api/users/${withIsee.json.id}/isee`, { value: 100, year: 2026, date: new Date().toISOString(), protocollo: 'P', scadenza: '2026-12-31', excludeVerification: true });
    expect(isee.status).toBe(201);
    expect((await operator.get(`/api/users/${withIsee.json.id}`)).json.hasLinkedData).toBe(true);
    const refused = await operator.delete(`/api/users/${withIsee.json.id}`);
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe('Non è possibile cancellare un utente se ha dati collegati!');
    expect((await delegate.delete(`/api/users/${id}`)).status).toBe(403);
    expect((await operator.delete(`/api/users/${id}`)).status).toBe(204);
    expect((await operator.get(`/api/users/${id}`)).status).toBe(404);
    // The fiscal code is free again.
    expect((await operator.post('/api/users', valid)).status).toBe(201);
  });

  it('pages fifteen at a time: page 1 is full, the cursor leads to the rest, nothing twice', async () => {
    // A last name no other test uses, so the filter matches exactly the users made here.
    const lastName = `Sfoglia${Date.now().toString(36)}`;
    const made: string[] = [];
    for (let i = 0; i < 17; i++) {
      const created = await operator.post('/api/users', { ...valid, lastName, firstName: `Utente ${String(i).padStart(2, '0')}`, fiscalCode: randomFiscalCode() });
      expect(created.status).toBe(201);
      made.push(created.json.id);
    }
    const first = (await operator.get(`/api/users?lastName=${lastName}`)).json;
    expect(first.items).toHaveLength(15);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await operator.get(`/api/users?lastName=${lastName}&cursor=${first.nextCursor}`)).json;
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.items, ...second.items].map((u: { id: string }) => u.id);
    expect(new Set(seen).size).toBe(17);
    expect([...seen].sort()).toEqual([...made].sort());
    expect((await operator.get('/api/users?cursor=garbage')).status).toBe(400);
  });

  it('last and first name together: their own key, paged, kept through renames and deletes, back-filled for older users', async () => {
    const lastName = `Coppia${Date.now().toString(36)}`;
    const made: string[] = [];
    for (let i = 0; i < 17; i++) {
      const created = await operator.post('/api/users', { ...valid, lastName, firstName: `Gianmaria ${String(i).padStart(2, '0')}`, fiscalCode: randomFiscalCode() });
      made.push(created.json.id);
    }
    const otherCode = randomFiscalCode();
    const other = (await operator.post('/api/users', { ...valid, lastName, firstName: 'Ottavio', fiscalCode: otherCode })).json.id;
    const ids = async (q: string) => (await operator.get(`/api/users?${q}`)).json.items.map((u: { id: string }) => u.id);
    // Short prefixes of both, the whole last name with a short first name, and the reverse.
    const first = (await operator.get(`/api/users?lastName=${lastName.slice(0, 9)}&firstName=gi`)).json;
    expect(first.items).toHaveLength(15);
    const second = (await operator.get(`/api/users?lastName=${lastName.slice(0, 9)}&firstName=gi&cursor=${first.nextCursor}`)).json;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((u: { id: string }) => u.id).sort()).toEqual([...made].sort());
    expect(await ids(`lastName=${lastName}&firstName=OTT`)).toEqual([other]);
    expect(await ids(`lastName=c&firstName=ottavio`)).toContain(other);
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 16`)).toEqual([made[16]]);
    // A cursor of the names list is refused on another list.
    expect((await operator.get(`/api/users?lastName=${lastName}&cursor=${first.nextCursor}`)).status).toBe(400);

    // Renamed: found by the new names only. Deleted: gone.
    expect((await operator.put(`/api/users/${other}`, { ...valid, lastName, firstName: 'Ugo', fiscalCode: otherCode })).status).toBe(200);
    expect(await ids(`lastName=${lastName}&firstName=ott`)).toEqual([]);
    expect(await ids(`lastName=${lastName}&firstName=ugo`)).toEqual([other]);
    expect((await operator.delete(`/api/users/${other}`)).status).toBe(204);
    expect(await ids(`lastName=${lastName}&firstName=ugo`)).toEqual([]);
    expect(await localTable().item(keys.userNames(other))).toBeUndefined();

    // A user stored before the names items existed: found once the back-fill (run at each local start) wrote it.
    await localTable().deleteItem(keys.userNames(made[3]));
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 03`)).toEqual([]);
    Object.assign(process.env, { TABLE_NAME, DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), AWS_REGION: 'eu-south-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
    const { backfillUserNames } = await import('../../functions/users/repository.ts');
    expect(await backfillUserNames()).toBeGreaterThanOrEqual(17);
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 03`)).toEqual([made[3]]);
  });
});

describe('first sign-in and the citizen profile', () => {
  it('creates the record at the first sign-in and says the profile is incomplete until it is completed', async () => {
    const giuseppe = await as('newCitizen');
    const me = (await giuseppe.get('/api/me')).json;
    expect(me).toMatchObject({ role: 'CITIZEN', fiscalCode: 'VRDGPP90P07F839R' });
    expect(typeof me.userId).toBe('string');
    const profile = (await giuseppe.get('/api/profile')).json;
    expect(profile).toMatchObject({ id: me.userId, firstName: 'Giuseppe', lastName: 'Verdi', fiscalCode: 'VRDGPP90P07F839R', nation: 'IT' });
    expect((await operator.get('/api/users?fiscalCode=VRDGPP90P07F839R')).json.items[0].id).toBe(me.userId);
    // Whether or not another test completed it already, the rules hold.
    const bad = await giuseppe.put('/api/profile', { email: '', birthDate: '1990-09-07', address: 'Via Po', addressNumber: '1', cap: '8012', city: 'Napoli', country: 'NA', nation: 'IT' });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toMatchObject({ email: 'Il campo non può essere vuoto!', cap: 'Il CAP è formato da cinque cifre.' });
    const saved = await giuseppe.put('/api/profile', {
      email: 'giuseppe.verdi@example.it', birthDate: '1990-09-07', address: 'Via Po', addressNumber: '1', cap: '80121', city: 'Napoli', country: 'NA', nation: 'IT',
      firstName: 'Altro', fiscalCode: 'RSSMRA85C52H501N',
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ firstName: 'Giuseppe', fiscalCode: 'VRDGPP90P07F839R', city: 'Napoli', profileComplete: true });
    expect((await giuseppe.get('/api/me')).json).toMatchObject({ profileComplete: true, missingFields: [] });
  });

  it('operators are not citizens: no record, complete by definition', async () => {
    expect((await operator.get('/api/me')).json).toMatchObject({ userId: null, profileComplete: true });
    expect((await operator.get('/api/profile')).status).toBe(403);
  });
});
