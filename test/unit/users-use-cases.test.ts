import { beforeEach, describe, expect, it } from 'vitest';
import type { NewUserInput } from '../../functions/domain/user-input.ts';
import { actors, portal, recordIsee, type Portal } from '../support/in-memory.ts';

const ettore: NewUserInput = {
  firstName: 'Ettore',
  lastName: 'D’Alessandro',
  fiscalCode: 'DLSTTR70A01H501O',
  birthDate: '1970-01-01',
  email: 'ettore@example.it',
  emailPec: null,
  phoneNumber: '+393339998887',
  address: 'Via Nazionale',
  addressNumber: '10',
  cap: '00184',
  city: 'Roma',
  country: 'RM',
  nation: 'IT',
  municipioId: '1',
};
let app: Portal;
beforeEach(() => {
  app = portal();
});

const validatedIsee = (userId: string) => recordIsee(app, userId, { value: 100 });

describe('operators manage users', () => {
  it('registers a user (audited), and refuses the same fiscal code twice', async () => {
    const user = await app.users.createUser(ettore, actors.operator);
    expect(user).toMatchObject({
      fiscalCode: 'DLSTTR70A01H501O',
      state: 'VALIDATED',
      municipio: 'Municipio 1',
      hasLinkedData: false,
    });
    expect(app.store.audit.entries).toEqual([
      expect.objectContaining({ entity: 'user', id: user.id, action: 'create' }),
    ]);
    await expect(app.users.createUser(ettore, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'Esiste già un utente con questo codice fiscale.',
    });
    expect(app.store.users.all.size).toBe(1);
  });

  it('moves the fiscal code on an edit, refusing one another user has', async () => {
    const user = await app.users.createUser(ettore, actors.operator);
    const other = await app.users.createUser({ ...ettore, fiscalCode: 'RCCMRC60A01H501V' }, actors.operator);
    await expect(
      app.users.updateUser(user.id, { ...ettore, fiscalCode: other.fiscalCode }, actors.operator),
    ).rejects.toMatchObject({ status: 409 });
    const edited = await app.users.updateUser(
      user.id,
      { ...ettore, fiscalCode: 'VRDGPP90P07F839R', city: 'Frascati', email: null },
      actors.operator,
    );
    expect(edited).toMatchObject({ fiscalCode: 'VRDGPP90P07F839R', city: 'Frascati', email: null });
    // The old code is free again, the new one is taken.
    expect((await app.users.createUser(ettore, actors.operator)).fiscalCode).toBe('DLSTTR70A01H501O');
    await expect(
      app.users.createUser({ ...ettore, fiscalCode: 'VRDGPP90P07F839R' }, actors.operator),
    ).rejects.toMatchObject({ status: 409 });
    expect(app.store.audit.entries.find((e) => e.action === 'update')).toMatchObject({
      before: { city: 'Roma' },
      after: { city: 'Frascati' },
    });
  });

  it('suspends and re-enables; a re-enabled user whose newest ISEE waits is LOADED again', async () => {
    const user = await app.users.createUser(ettore, actors.operator);
    expect((await app.users.setUserStatus(user.id, true, actors.operator)).state).toBe('SUSPEND');
    expect((await app.users.setUserStatus(user.id, false, actors.operator)).state).toBe('VALIDATED');
    await recordIsee(app, user.id, { value: 100, verified: false });
    expect((await app.users.getUser(user.id)).state).toBe('LOADED');
    expect((await app.users.setUserStatus(user.id, true, actors.operator)).state).toBe('SUSPEND');
    expect((await app.users.setUserStatus(user.id, false, actors.operator)).state).toBe('LOADED');
    expect(await app.users.countLoadedUsers()).toEqual({ count: 1 });
  });

  it('deletes a user without linked data, and frees the fiscal code', async () => {
    const user = await app.users.createUser(ettore, actors.operator);
    await app.users.deleteUser(user.id, actors.operator);
    await expect(app.users.getUser(user.id)).rejects.toMatchObject({
      status: 404,
      message: 'L’utente selezionato non esiste.',
    });
    expect(app.store.audit.entries.at(-1)).toMatchObject({ action: 'delete', before: { id: user.id }, after: null });
    expect((await app.users.createUser(ettore, actors.operator)).fiscalCode).toBe(ettore.fiscalCode);
  });

  it('keeps a user with an ISEE, even after that ISEE is deleted, while a subscription remains', async () => {
    const user = await app.users.createUser(ettore, actors.operator);
    await validatedIsee(user.id);
    expect((await app.users.getUser(user.id)).hasLinkedData).toBe(true);
    const refusal = { status: 409, message: 'Non è possibile cancellare un utente se ha dati collegati!' };
    await expect(app.users.deleteUser(user.id, actors.operator)).rejects.toMatchObject(refusal);

    // The user signs in and applies; then the operator deletes the ISEE: the subscription still links them.
    const { id: serviceId } = await app.services.createService(
      { code: 'S', name: 'Servizio', description: 'D' },
      actors.operator,
    );
    const input = {
      serviceId,
      name: 'Bando',
      codAccertamento: 'A',
      codCapitolo: 'C',
      nomeMyPay: 'M',
      bandsId: [],
      files: [],
    };
    const call = await app.calls.createCall(input, actors.operator);
    await app.calls.updateCall(call.id, { ...input, year: 2026, state: 1 }, actors.operator);
    const citizen = { ...actors.citizen, fiscalCode: ettore.fiscalCode };
    await app.subscriptions.subscribe(call.id, { files: [] }, citizen);
    const [isee] = (await app.isee.listUserIsees(user.id, {})).items;
    await app.isee.deleteIsee(isee.id, actors.operator);
    expect((await app.users.getUser(user.id)).lastIsee).toBeNull();
    await expect(app.users.deleteUser(user.id, actors.operator)).rejects.toMatchObject(refusal);
    expect((await app.users.getUser(user.id)).id).toBe(user.id);
  });
});

describe('a citizen’s first sign-in', () => {
  it('creates the record once from the token, and finds the one an operator registered', async () => {
    const id = await app.ensureCitizen(actors.otherCitizen);
    expect(await app.ensureCitizen(actors.otherCitizen)).toBe(id);
    expect(await app.users.getUser(id)).toMatchObject({
      firstName: 'Giuseppe',
      lastName: 'Verdi',
      fiscalCode: 'VRDGPP90P07F839R',
      nation: 'IT',
      state: 'VALIDATED',
    });

    const registered = await app.users.createUser({ ...ettore, fiscalCode: 'RSSMRA85C52H501N' }, actors.operator);
    expect(await app.ensureCitizen(actors.citizen)).toBe(registered.id);
  });

  it('refuses a token without a fiscal code', async () => {
    await expect(app.ensureCitizen({ ...actors.citizen, fiscalCode: null })).rejects.toMatchObject({ status: 403 });
  });
});
