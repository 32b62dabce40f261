import { beforeEach, describe, expect, it } from 'vitest';
import { makeIseeUseCases } from '../../functions/isee/use-cases.ts';
import { actors, portal, recordIsee, sequentialIds, tickingClock, type Portal } from '../support/in-memory.ts';

let app: Portal;
let userId: string;

const citizenUpload = (value = 12345.67) =>
  app.isee.uploadMyIsee(
    { document: app.store.files.stage(actors.citizen.sub, 'attestazione.pdf'), value },
    actors.citizen,
  );
const operatorUpload = (verified: boolean) =>
  recordIsee(app, userId, { value: 5000, verified, protocollo: 'INPS-ISEE-2026-00000002B-00' });
const user = () => app.users.getUser(userId);

beforeEach(async () => {
  app = portal();
  userId = await app.ensureCitizen(actors.citizen);
});

describe('a citizen uploads an ISEE and an operator reviews it', () => {
  it('stores the upload as LOADED, waiting for review, and the user becomes LOADED', async () => {
    const isee = await citizenUpload();
    expect(isee).toMatchObject({
      userId,
      value: 12345.67,
      state: 'LOADED',
      hasFile: true,
      uploadedBy: 'CITIZEN',
      extractionStatus: 'PENDING',
      year: 2026,
    });
    expect(await user()).toMatchObject({
      state: 'LOADED',
      lastIsee: { id: isee.id, state: 'LOADED', hasFile: true },
      hasLinkedData: true,
    });
    expect((await app.isee.listIseesToVerify({})).items.map((i) => i.id)).toEqual([isee.id]);
    expect(await app.isee.countIseesToVerify()).toEqual({ count: 1 });
    expect(app.store.files.stored.has(`isee/${isee.id}/document`)).toBe(true);
  });

  it('confirms (1) once: the user is VALIDATED, a second decision is refused and changes nothing', async () => {
    const { id } = await citizenUpload();
    const confirmed = await app.isee.decideIsee(id, { state: 1, value: 12000, protocollo: 'INPS-1' }, actors.operator);
    expect(confirmed).toMatchObject({ state: 'VALIDATED', value: 12000, protocollo: 'INPS-1' });
    expect(await user()).toMatchObject({ state: 'VALIDATED', lastIsee: { state: 'VALIDATED' } });
    await expect(app.isee.decideIsee(id, { state: 2, value: 1 }, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'L’ISEE non è più in attesa di verifica: è già stato confermato o rifiutato.',
    });
    expect((await app.isee.getIsee(id, actors.operator)).state).toBe('VALIDATED');
    expect(app.store.audit.entries.filter((e) => e.entity === 'isee').map((e) => e.action)).toEqual(['update']);
    expect(await app.isee.countIseesToVerify()).toEqual({ count: 0 });
  });

  it('refuses (2): the user is VALIDATED again, with a refused newest ISEE', async () => {
    const { id } = await citizenUpload();
    expect((await app.isee.decideIsee(id, { state: 2, value: 9000 }, actors.operator)).state).toBe('REFUSED');
    expect(await user()).toMatchObject({ state: 'VALIDATED', lastIsee: { state: 'REFUSED' } });
  });

  it('invalidates the previous ISEE at a new upload, but not a refused one', async () => {
    const first = await citizenUpload();
    await app.isee.decideIsee(first.id, { state: 1, value: 1 }, actors.operator);
    const second = await citizenUpload(9000);
    await app.isee.decideIsee(second.id, { state: 2, value: 9000 }, actors.operator);
    const third = await citizenUpload(8000);
    const states = Object.fromEntries(
      (await app.isee.listMyIsees({}, actors.citizen)).items.map((i) => [i.id, i.state]),
    );
    expect(states).toEqual({ [first.id]: 'INVALIDATED', [second.id]: 'REFUSED', [third.id]: 'LOADED' });
  });

  it('keeps a suspended user suspended whatever their ISEE does', async () => {
    await app.users.setUserStatus(userId, true, actors.operator);
    const { id } = await citizenUpload();
    expect((await user()).state).toBe('SUSPEND');
    await app.isee.decideIsee(id, { state: 1, value: 1 }, actors.operator);
    expect((await user()).state).toBe('SUSPEND');
  });

  it('lets the citizen read their own ISEE with a link, and nobody else’s', async () => {
    const { id } = await citizenUpload();
    expect((await app.isee.getIsee(id, actors.citizen)).fileUrl).toBe(`memory://isee/${id}/document`);
    await app.ensureCitizen(actors.otherCitizen);
    await expect(app.isee.getIsee(id, actors.otherCitizen)).rejects.toMatchObject({
      status: 404,
      message: 'L’ISEE selezionato non esiste.',
    });
  });

  it('refuses a document of the wrong type and records nothing', async () => {
    const document = app.store.files.stage(actors.citizen.sub, 'isee.pdf', 'application/x-msdownload');
    await expect(app.isee.uploadMyIsee({ document, value: 100 }, actors.citizen)).rejects.toMatchObject({
      status: 400,
      message: 'Carica un file con un formato supportato',
    });
    expect(app.store.isees.all.size).toBe(0);
    expect((await user()).lastIsee).toBeNull();
  });
});

describe('operators record and delete ISEE', () => {
  it('records a validated ISEE without a document with "Escludi verifica ISEE", audited', async () => {
    const isee = await operatorUpload(true);
    expect(isee).toMatchObject({
      state: 'VALIDATED',
      hasFile: false,
      extractionStatus: 'NONE',
      uploadedBy: 'OPERATOR',
      excludeVerification: true,
    });
    expect((await app.isee.getIsee(isee.id, actors.operator)).fileUrl).toBeNull();
    expect(app.store.audit.entries.at(-1)).toMatchObject({ entity: 'isee', id: isee.id, action: 'create' });
    expect((await user()).state).toBe('VALIDATED');
  });

  it('deletes an ISEE and its document; the user falls back to the newest remaining one', async () => {
    const older = await operatorUpload(true);
    const newer = await operatorUpload(false);
    expect((await user()).state).toBe('LOADED');
    await app.isee.deleteIsee(newer.id, actors.operator);
    expect(app.store.files.stored.has(`isee/${newer.id}/document`)).toBe(false);
    expect(await user()).toMatchObject({ state: 'VALIDATED', lastIsee: { id: older.id, state: 'INVALIDATED' } });
    await expect(app.isee.decideIsee(newer.id, { state: 1, value: 1 }, actors.operator)).rejects.toMatchObject({
      status: 404,
    });
    await expect(app.isee.deleteIsee(newer.id, actors.operator)).rejects.toMatchObject({
      status: 404,
      message: 'L’ISEE selezionato non esiste.',
    });
  });

  it('audits a delete: who, which ISEE, what it was', async () => {
    const isee = await operatorUpload(false);
    await app.isee.deleteIsee(isee.id, actors.operator);
    expect(app.store.audit.entries.at(-1)).toMatchObject({
      actor: { sub: actors.operator.sub },
      entity: 'isee',
      id: isee.id,
      action: 'delete',
      before: { id: isee.id, value: 5000, year: 2026, protocollo: 'INPS-ISEE-2026-00000002B-00' },
      after: null,
    });
  });

  it('refuses (409) to delete an ISEE already used to compute a fee, and changes nothing', async () => {
    const isee = await operatorUpload(false);
    // What the debt-position use case (a later issue) writes when it computes a fee from this ISEE.
    app.store.isees.all.get(isee.id)!.feeComputedAt = '2026-03-02T10:00:00.000Z';
    const auditBefore = app.store.audit.entries.length;
    await expect(app.isee.deleteIsee(isee.id, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'Non è possibile eliminare un ISEE già usato per calcolare una quota.',
    });
    expect(app.store.isees.all.has(isee.id)).toBe(true);
    expect(app.store.files.stored.has(`isee/${isee.id}/document`)).toBe(true);
    expect(await user()).toMatchObject({ lastIsee: { id: isee.id } });
    expect(app.store.audit.entries.length).toBe(auditBefore);
  });

  it('refuses (409) also when the fee is computed between the read and the delete', async () => {
    const isee = await operatorUpload(false);
    const read = app.store.isees.getIseeItem;
    let reads = 0;
    // The first read sees the ISEE unused; the fee is computed right after it.
    app.store.isees.getIseeItem = async (id) => {
      const item = await read(id);
      if (++reads === 1) app.store.isees.all.get(id)!.feeComputedAt = '2026-03-02T10:00:00.000Z';
      return item;
    };
    const useCases = makeIseeUseCases({
      isees: app.store.isees,
      users: app.store.users,
      ensureCitizen: app.ensureCitizen,
      files: app.store.files,
      audit: app.store.audit,
      clock: tickingClock(),
      ids: sequentialIds('x'),
    });
    await expect(useCases.deleteIsee(isee.id, actors.operator)).rejects.toMatchObject({ status: 409 });
    expect(app.store.isees.all.has(isee.id)).toBe(true);
    expect(app.store.files.stored.has(`isee/${isee.id}/document`)).toBe(true);
  });

  it('answers an unknown user with 404', async () => {
    await expect(app.isee.listUserIsees('nope', {})).rejects.toMatchObject({
      status: 404,
      message: 'L’utente selezionato non esiste.',
    });
    await expect(recordIsee(app, 'nope', { value: 1 })).rejects.toMatchObject({ status: 404 });
  });
});
