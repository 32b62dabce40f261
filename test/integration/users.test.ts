import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { userItems } from '../../functions/users/repository.ts';
import { as } from '../support/api.ts';
import { indexesCaughtUp, localTable, useLocalTable } from '../support/dynamo.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { attestationPdf, randomFiscalCode, stageIseeFile } from '../support/isee.ts';

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
    for (const field of [
      'firstName',
      'lastName',
      'birthDate',
      'fiscalCode',
      'address',
      'addressNumber',
      'cap',
      'city',
      'country',
      'nation',
      'municipioId',
    ]) {
      expect(empty.json.errors[field], field).toBe('Il campo non può essere vuoto!');
    }
    expect(empty.json.errors.email).toBeUndefined();
    const wrong = await operator.post('/api/users', {
      ...valid,
      email: 'ettore.example.it',
      fiscalCode: 'DLSTTR70A01H501Y',
      birthDate: '1970-02-30',
      country: 'XX',
    });
    expect(wrong.json.errors).toMatchObject({
      email: "Il formato dell'email non è corretto!",
      fiscalCode: 'Il codice fiscale è errato!',
      birthDate: 'Inserisci una data di nascita valida.',
      country: 'Seleziona una provincia dall’elenco.',
    });
    expect((await operator.post('/api/users', { ...valid, fiscalCode: 'DLSTTR70A01' })).json.errors.fiscalCode).toBe(
      'Il codice fiscale è errato!',
    );
    expect((await delegate.post('/api/users', valid)).status).toBe(403);
  });

  it('creates a user (audited), refuses the same fiscal code twice', async () => {
    const created = await operator.post('/api/users', valid);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      fiscalCode: 'DLSTTR70A01H501O',
      state: 'VALIDATED',
      phoneNumber: '+393339998887',
      emailPec: null,
      municipio: 'Municipio 1',
      hasLinkedData: false,
    });
    id = created.json.id;
    expect((await localTable().auditOf('user', id)).map((a) => a.action)).toEqual(['create']);
    const twice = await operator.post('/api/users', valid);
    expect(twice.status).toBe(409);
    expect(twice.json.detail).toBe('Esiste già un utente con questo codice fiscale.');
  });

  it('finds the user by the start of each field, ignoring case and accents, combined filters too', async () => {
    // The search reads global indexes, which list a new user a moment later (as DynamoDB's, eventually consistent).
    await indexesCaughtUp();
    const search = async (q: string) =>
      (await operator.get(`/api/users?${q}`)).json.items.map((u: { id: string }) => u.id);
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
    expect(bad.json.errors).toMatchObject({
      address: 'Il campo non può essere vuoto!',
      birthDate: 'Inserisci una data di nascita valida.',
    });
    const edited = await operator.put(`/api/users/${id}`, {
      ...valid,
      email: null,
      phoneNumber: null,
      municipioId: null,
      city: 'Frascati',
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ city: 'Frascati', email: null, phoneNumber: null, municipio: null });
    await indexesCaughtUp();
    expect((await operator.get('/api/users?email=ettore')).json.items.map((u: { id: string }) => u.id)).not.toContain(
      id,
    );
    expect((await delegate.put(`/api/users/${id}/status`, { suspended: true })).status).toBe(403);
    expect((await operator.put(`/api/users/${id}/status`, { suspended: true })).json.state).toBe('SUSPEND');
    expect((await operator.put(`/api/users/${id}/status`, { suspended: false })).json.state).toBe('VALIDATED');
  });

  it('deletes a user without ISEE (204) but not one with an ISEE', async () => {
    const withIsee = await operator.post('/api/users', { ...valid, fiscalCode: 'RCCMRC60A01H501V' });
    const isee = await operator.post(`/api/users/${withIsee.json.id}/isee`, {
      value: 100,
      year: 2026,
      date: new Date().toISOString(),
      protocollo: 'P',
      scadenza: '2026-12-31',
      excludeVerification: true,
    });
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
      const created = await operator.post('/api/users', {
        ...valid,
        lastName,
        firstName: `Utente ${String(i).padStart(2, '0')}`,
        fiscalCode: randomFiscalCode(),
      });
      expect(created.status).toBe(201);
      made.push(created.json.id);
    }
    await indexesCaughtUp();
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

  it('every combination of filters: each filter applied (a user failing only that one is left out), none over-applied, pages followed to the end', async () => {
    const t = Date.now().toString(36);
    const digits = () => String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
    const base = {
      lastName: `Lx${t}`,
      firstName: `Fx${t}`,
      email: `ex${t}@example.it`,
      phoneNumber: `+39 3${digits()}`,
    };
    // The target passes every filter; each decoy fails exactly one (the 'loaded' decoy is not 'Da validare').
    const variants: Record<string, Partial<typeof base>> = {
      target: {},
      lastName: { lastName: `Ly${t}` },
      firstName: { firstName: `Fy${t}` },
      email: { email: `ey${t}@example.it` },
      phoneNumber: { phoneNumber: `+39 3${digits()}` },
      fiscalCode: {},
      loaded: {},
    };
    // Every fiscal code starts with the same six letters, but the 'fiscalCode' decoy's.
    const shared = randomFiscalCode().slice(0, 6);
    const codeStarting = (start: string) => {
      const first15 = start + randomFiscalCode().slice(6, 15);
      return first15 + fiscalCodeCheckCharacter(first15);
    };
    const made: Record<string, { id: string; fiscalCode: string }> = {};
    for (const [name, change] of Object.entries(variants)) {
      const fiscalCode = name === 'fiscalCode' ? randomFiscalCode() : codeStarting(shared);
      const created = await operator.post('/api/users', { ...valid, ...base, ...change, fiscalCode });
      expect(created.status).toBe(201);
      made[name] = { id: created.json.id, fiscalCode };
    }
    // 'Da validare': an ISEE with its document waiting for review (the state change path).
    for (const name of Object.keys(variants).filter((n) => n !== 'loaded')) {
      const document = await stageIseeFile(
        operator,
        await attestationPdf({
          fullName: `${base.firstName} ${base.lastName}`,
          fiscalCode: made[name].fiscalCode,
          protocol: 'INPS-ISEE-2026-00000009Z-00',
          value: '5.000,00',
        }),
      );
      const isee = await operator.post(`/api/users/${made[name].id}/isee`, {
        value: 5000,
        year: 2026,
        date: new Date().toISOString(),
        protocollo: 'INPS-ISEE-2026-00000009Z-00',
        scadenza: '2026-12-31',
        document,
        excludeVerification: false,
      });
      expect(isee.status).toBe(201);
    }
    await indexesCaughtUp();
    const target = made.target;
    const digitsOf = (phone: string) => phone.replace(/\D/g, '');
    // Short prefixes (a name's first two letters, an e-mail's two: other users match too) and whole values.
    const short = {
      lastName: 'LX',
      firstName: 'fx',
      email: 'ex',
      phoneNumber: digitsOf(base.phoneNumber).slice(0, 10),
      fiscalCode: shared,
      loaded: 'true',
    };
    const whole = {
      lastName: base.lastName,
      firstName: base.firstName,
      email: base.email,
      phoneNumber: digitsOf(base.phoneNumber),
      fiscalCode: shared,
      loaded: 'true',
    };
    const mixed = { ...whole, firstName: 'fX', email: `ex${t}`.slice(0, 4) };
    const reverse = { ...whole, lastName: 'lx', email: `ex${t}` };
    const fields = ['lastName', 'firstName', 'email', 'phoneNumber', 'fiscalCode', 'loaded'] as const;
    const all = async (query: Record<string, string>) => {
      const found: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 60; page++) {
        const response = await operator.get(
          `/api/users?${new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) })}`,
        );
        expect(response.status, JSON.stringify(query)).toBe(200);
        found.push(...response.json.items.map((u: { id: string }) => u.id));
        cursor = response.json.nextCursor;
        if (!cursor) return found;
      }
      throw new Error(`more than 60 pages for ${JSON.stringify(query)}`);
    };
    let checked = 0;
    for (let mask = 1; mask < 1 << fields.length; mask++) {
      const used = fields.filter((_, i) => mask & (1 << i));
      if (used.length < 2) continue;
      for (const values of [short, whole, mixed, reverse]) {
        const query = Object.fromEntries(used.map((field) => [field, values[field]]));
        const found = new Set(await all(query));
        const expected = Object.keys(made).filter(
          (name) => name === 'target' || !used.includes(name as (typeof fields)[number]),
        );
        expect(
          Object.keys(made)
            .filter((name) => found.has(made[name].id))
            .sort(),
          JSON.stringify(query),
        ).toEqual(expected.sort());
        checked += 1;
      }
    }
    expect(checked).toBe(57 * 4);

    // Every write path keeps the search item: an e-mail change, a state change, a phone change.
    const ids = async (query: Record<string, string>) => new Set(await all(query));
    expect(
      (
        await operator.put(`/api/users/${target.id}`, {
          ...valid,
          ...base,
          email: `ez${t}@example.it`,
          fiscalCode: target.fiscalCode,
        })
      ).status,
    ).toBe(200);
    await indexesCaughtUp();
    expect((await ids({ lastName: 'lx', email: `ex${t}` })).has(target.id)).toBe(false);
    expect((await ids({ lastName: 'lx', email: `ez${t}` })).has(target.id)).toBe(true);
    expect((await operator.put(`/api/users/${target.id}/status`, { suspended: true })).json.state).toBe('SUSPEND');
    await indexesCaughtUp();
    expect((await ids({ loaded: 'true', firstName: base.firstName })).has(target.id)).toBe(false);
    expect((await ids({ firstName: base.firstName, email: `ez${t}` })).has(target.id)).toBe(true);
  });

  it('last and first name together: their own key, paged, kept through renames and deletes, back-filled for older users', async () => {
    const lastName = `Coppia${Date.now().toString(36)}`;
    const made: string[] = [];
    for (let i = 0; i < 17; i++) {
      const created = await operator.post('/api/users', {
        ...valid,
        lastName,
        firstName: `Gianmaria ${String(i).padStart(2, '0')}`,
        fiscalCode: randomFiscalCode(),
      });
      made.push(created.json.id);
    }
    const otherCode = randomFiscalCode();
    const other = (
      await operator.post('/api/users', { ...valid, lastName, firstName: 'Ottavio', fiscalCode: otherCode })
    ).json.id;
    await indexesCaughtUp();
    const ids = async (q: string) =>
      (await operator.get(`/api/users?${q}`)).json.items.map((u: { id: string }) => u.id);
    // Short prefixes of both, the whole last name with a short first name, and the reverse.
    const first = (await operator.get(`/api/users?lastName=${lastName.slice(0, 9)}&firstName=gi`)).json;
    expect(first.items).toHaveLength(15);
    const second = (
      await operator.get(`/api/users?lastName=${lastName.slice(0, 9)}&firstName=gi&cursor=${first.nextCursor}`)
    ).json;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((u: { id: string }) => u.id).sort()).toEqual([...made].sort());
    expect(await ids(`lastName=${lastName}&firstName=OTT`)).toEqual([other]);
    expect(await ids(`lastName=c&firstName=ottavio`)).toContain(other);
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 16`)).toEqual([made[16]]);
    // A cursor of the names list is refused on another list.
    expect((await operator.get(`/api/users?lastName=${lastName}&cursor=${first.nextCursor}`)).status).toBe(400);

    // Renamed: found by the new names only. Deleted: gone.
    expect(
      (await operator.put(`/api/users/${other}`, { ...valid, lastName, firstName: 'Ugo', fiscalCode: otherCode }))
        .status,
    ).toBe(200);
    await indexesCaughtUp();
    expect(await ids(`lastName=${lastName}&firstName=ott`)).toEqual([]);
    expect(await ids(`lastName=${lastName}&firstName=ugo`)).toEqual([other]);
    expect((await operator.delete(`/api/users/${other}`)).status).toBe(204);
    await indexesCaughtUp();
    expect(await ids(`lastName=${lastName}&firstName=ugo`)).toEqual([]);
    expect(await localTable().item(keys.userNames(other))).toBeUndefined();

    // A user stored before the names items existed: found once the back-fill (run at each local start) wrote it.
    await localTable().deleteItem(keys.userNames(made[3]));
    await indexesCaughtUp();
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 03`)).toEqual([]);
    useLocalTable();
    const { runMigrationSteps } = await import('../../functions/entry/migration-catalogue.ts');
    expect(await runMigrationSteps('users-search-item-v1')).toBeGreaterThanOrEqual(17);
    await indexesCaughtUp();
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 03`)).toEqual([made[3]]);
    // The back-filled search item carries the e-mail too (the e-mail key, the names filtered on it).
    expect(await ids(`lastName=${lastName}&firstName=gianmaria 03&email=ettore@`)).toEqual([made[3]]);
  });
});

describe('users: searches at the same time', () => {
  it('answers each of two searches run at once the page it answers alone: each reads within its own budget', async () => {
    // 400 users whose last names start alike (a prefix no other test uses), first names alike in their first
    // letters, one in 20 ending in 'Rosa': the search by the last names' prefix and a longer first name reads the
    // names' key (which holds the last name and as many letters of the first) in last-name order, filters the
    // rest, and stops at its budget of items read.
    const lastName = `Contemporaneo${Date.now().toString(36)}`;
    const common = 'Mariagrazia'.padEnd(lastName.length + 4, 'a');
    const letters = (i: number) => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
    const users = Array.from({ length: 400 }, (_, i) =>
      userItems({
        id: `${lastName}-${String(i).padStart(3, '0')}`,
        firstName: `${common}${i % 20 === 0 ? 'Rosa' : 'Luce'}`,
        lastName: `${lastName}${letters(i)}`,
        fiscalCode: randomFiscalCode(),
        state: 'VALIDATED',
        dataInsert: '2026-01-01T00:00:00.000Z',
      }),
    );
    await localTable().putItems(users.flat());
    await indexesCaughtUp();
    const rosaQuery = `/api/users?lastName=${lastName}&firstName=${common}Rosa`;
    const othersQuery = `/api/users?lastName=${lastName}&firstName=${common}Luce`;
    const page = (answer: { json: { items: { id: string }[]; nextCursor: string | null } }) => ({
      ids: answer.json.items.map((u) => u.id),
      more: answer.json.nextCursor !== null,
    });
    const alone = page(await operator.get(rosaQuery));
    const otherAlone = page(await operator.get(othersQuery));
    // The budget stops the first search before the end of the last name: a short page, and more to read.
    expect(alone.ids.length).toBeGreaterThan(0);
    expect(alone.ids.length).toBeLessThan(15);
    expect(alone.more).toBe(true);
    for (let round = 0; round < 3; round++) {
      const [first, second, other] = await Promise.all([
        operator.get(rosaQuery),
        operator.get(rosaQuery),
        operator.get(othersQuery),
      ]);
      expect(page(first)).toEqual(alone);
      expect(page(second)).toEqual(alone);
      expect(page(other)).toEqual(otherAlone);
    }
  });
});

describe('first sign-in and the citizen profile', () => {
  it('creates the record at the first sign-in and says the profile is incomplete until it is completed', async () => {
    const giuseppe = await as('newCitizen');
    const me = (await giuseppe.get('/api/me')).json;
    expect(me).toMatchObject({ role: 'CITIZEN', fiscalCode: 'VRDGPP90P07F839R' });
    expect(typeof me.userId).toBe('string');
    const profile = (await giuseppe.get('/api/profile')).json;
    expect(profile).toMatchObject({
      id: me.userId,
      firstName: 'Giuseppe',
      lastName: 'Verdi',
      fiscalCode: 'VRDGPP90P07F839R',
      nation: 'IT',
    });
    await indexesCaughtUp();
    expect((await operator.get('/api/users?fiscalCode=VRDGPP90P07F839R')).json.items[0].id).toBe(me.userId);
    // Whether or not another test completed it already, the rules hold.
    const bad = await giuseppe.put('/api/profile', {
      email: '',
      birthDate: '1990-09-07',
      address: 'Via Po',
      addressNumber: '1',
      cap: '8012',
      city: 'Napoli',
      country: 'NA',
      nation: 'IT',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toMatchObject({
      email: 'Il campo non può essere vuoto!',
      cap: 'Il CAP è formato da cinque cifre.',
    });
    const saved = await giuseppe.put('/api/profile', {
      email: 'giuseppe.verdi@example.it',
      birthDate: '1990-09-07',
      address: 'Via Po',
      addressNumber: '1',
      cap: '80121',
      city: 'Napoli',
      country: 'NA',
      nation: 'IT',
      firstName: 'Altro',
      fiscalCode: 'RSSMRA85C52H501N',
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({
      firstName: 'Giuseppe',
      fiscalCode: 'VRDGPP90P07F839R',
      city: 'Napoli',
      profileComplete: true,
    });
    expect((await giuseppe.get('/api/me')).json).toMatchObject({ profileComplete: true, missingFields: [] });
  });

  it('operators are not citizens: no record, complete by definition', async () => {
    expect((await operator.get('/api/me')).json).toMatchObject({ userId: null, profileComplete: true });
    expect((await operator.get('/api/profile')).status).toBe(403);
  });
});
