import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * The conditional writes that keep the rules true when two people act at once, on the local DynamoDB (not a
 * mock that compares expression strings): each repository call is made as a use case makes it, with a copy
 * read before someone else changed the item, and the test looks at what the table then holds.
 */
let bands: typeof import('../../functions/bands/repository.ts');
let calls: typeof import('../../functions/calls/repository.ts');
let isees: typeof import('../../functions/isee/repository.ts');
let users: typeof import('../../functions/users/repository.ts');
let tickets: typeof import('../../functions/tickets/repository.ts');

beforeAll(async () => {
  // The repositories bind to their table when they load: the integration stack's.
  useLocalTable();
  [bands, calls, isees, users, tickets] = await Promise.all([
    import('../../functions/bands/repository.ts'),
    import('../../functions/calls/repository.ts'),
    import('../../functions/isee/repository.ts'),
    import('../../functions/users/repository.ts'),
    import('../../functions/tickets/repository.ts'),
  ]);
});

const table = () => localTable();
const band = { name: 'Fascia', min: 0, max: 10000, percent: null, fixedCost: 5 };

describe('bands and calls', () => {
  it('a band edited keeps its creation date; editing a band that is gone writes nothing', async () => {
    const created = await bands.createBand(band, randomUUID(), '2026-03-01T09:00:00.000Z');
    const before = await table().item({ pk: `BAND#${created.id}`, sk: 'BAND' });
    expect(await bands.updateBand(created.id, { ...band, fixedCost: 7 }, '2026-03-02T09:00:00.000Z')).toMatchObject({
      id: created.id,
      fixedCost: 7,
    });
    expect(await table().item({ pk: `BAND#${created.id}`, sk: 'BAND' })).toMatchObject({
      createdAt: before!.createdAt,
      fixedCostCents: 700,
    });
    const gone = randomUUID();
    expect(await bands.updateBand(gone, band, '2026-03-02T09:00:00.000Z')).toBeNull();
    expect(await table().item({ pk: `BAND#${gone}`, sk: 'BAND' })).toBeUndefined();
  });

  it('a call saved over a stale copy changes nothing; the open marker follows the state', async () => {
    const id = randomUUID();
    const call = {
      id,
      name: 'Bando',
      year: 2026,
      state: 1,
      serviceId: `s-${id}`,
      serviceName: 'Servizio',
      serviceDescription: 'D',
      dataInsert: '2026-03-01T09:00:00.000Z',
      nomeMyPay: 'M',
      codAccertamento: 'A',
      codCapitolo: 'C',
      bandsId: ['b1'],
      files: [],
      updatedAt: '2026-03-01T09:00:00.000Z',
      version: 1,
    };
    expect(await calls.putCall(call, null)).toBe(true);
    expect(await table().item({ pk: `CALL#${id}`, sk: 'OPEN' })).toMatchObject({ name: 'Bando' });
    // Two operators read version 1: the first saves (version 2), the second's save is refused.
    expect(await calls.putCall({ ...call, name: 'Prima modifica', version: 2 }, call)).toBe(true);
    expect(
      await calls.putCall({ ...call, name: 'Seconda modifica', bandsId: ['b2'], state: 2, version: 2 }, call),
    ).toBe(false);
    expect(await calls.getCall(id)).toMatchObject({ name: 'Prima modifica', bandsId: ['b1'], state: 1, version: 2 });
    expect(await table().item({ pk: `CALL#${id}`, sk: 'OPEN' })).toBeDefined();
    // Closed over the current copy: off the open calls.
    const current = (await calls.getCall(id))!;
    expect(await calls.putCall({ ...current, state: 2, version: 3 }, current)).toBe(true);
    expect(await table().item({ pk: `CALL#${id}`, sk: 'OPEN' })).toBeUndefined();
  });
});

describe('ISEE and users', () => {
  const newIsee = (userId: string) => ({
    id: randomUUID(),
    userId,
    user: { firstName: 'Maria', lastName: 'Rossi', fiscalCode: 'RSSMRA85C52H501N', email: null },
    value: 8000,
    year: 2026,
    date: '2026-03-01T09:00:00.000Z',
    state: 'LOADED' as const,
    file: null,
    uploadedBy: 'OPERATOR' as const,
    uploadedBySub: 'op',
  });

  it('two operators deciding one ISEE: the first decision stands, the second writes nothing', async () => {
    const isee = await isees.createIsee(newIsee(randomUUID()), '2026-03-01T09:00:00.000Z');
    expect(await isees.changeIseeState(isee.id, 'LOADED', 'VALIDATED', '2026-03-01T10:00:00.000Z')).toMatchObject({
      state: 'VALIDATED',
    });
    expect(await isees.changeIseeState(isee.id, 'LOADED', 'REFUSED', '2026-03-01T10:00:01.000Z')).toBeNull();
    expect(await isees.getIseeItem(isee.id)).toMatchObject({
      state: 'VALIDATED',
      updatedAt: '2026-03-01T10:00:00.000Z',
    });
  });

  it('an ISEE a fee was computed with is never deleted; one never used is', async () => {
    const userId = randomUUID();
    const used = await isees.createIsee(newIsee(userId), '2026-03-01T09:00:00.000Z');
    expect(await isees.markIseesUsedForFee([used.id], '2026-03-02T09:00:00.000Z')).toBe(1);
    expect(await isees.deleteIsee(used.id)).toBe(false);
    expect(await isees.getIseeItem(used.id)).not.toBeNull();
    const unused = await isees.createIsee(newIsee(userId), '2026-03-01T09:00:01.000Z');
    expect(await isees.deleteIsee(unused.id)).toBe(true);
    expect(await isees.getIseeItem(unused.id)).toBeNull();
  });

  it('a user is deleted only with the ISEE count the operator saw: an ISEE arriving meanwhile keeps the user', async () => {
    const id = randomUUID();
    const fiscalCode = `RSSMRA85C52H${String(Math.floor(Math.random() * 900) + 100)}N`;
    expect(
      await users.createUser(
        { firstName: 'Maria', lastName: 'Rossi', fiscalCode, email: null, municipioId: '1' } as never,
        id,
      ),
    ).not.toBeNull();
    const seen = { iseeCount: 0 };
    const stored = (await table().item({ pk: `USER#${id}`, sk: 'USER' }))!;
    await table().putItem({ ...stored, iseeCount: 1 });
    expect(await users.deleteUser(id, seen)).toBe(false);
    expect(await table().item({ pk: `USER#${id}`, sk: 'USER' })).toBeDefined();
    expect(await users.deleteUser(id, { iseeCount: 1 })).toBe(true);
    expect(await table().item({ pk: `USER#${id}`, sk: 'USER' })).toBeUndefined();
  });
});

describe('tickets', () => {
  const newTicket = () => ({
    dataApertura: new Date().toISOString(),
    richiedente: 'Maria Rossi',
    richiedenteCognome: 'Rossi',
    categoria: 'Altro',
    dettagli: 'x',
    assegnatoA: null,
    userId: randomUUID(),
    fiscalCode: 'RSSMRA85C52H501N',
    emailUser: 'm@x.it',
    origin: 'SUPPORT' as const,
  });
  const openIds = async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await tickets.listOpenTickets({ limit: 100, cursor });
      ids.push(...page.items.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  };

  it('an edit over a stale copy, or of a resolved ticket, writes nothing; resolving takes the ticket off the open list', async () => {
    const ticket = await tickets.createTicket(newTicket(), `T-${randomUUID()}`);
    await expect.poll(openIds, { timeout: 10_000 }).toContain(ticket.id);
    const taken = await tickets.updateTicket(
      ticket,
      { stato: 1, categoria: 'Altro', dettagli: 'preso in carico', assegnatoA: 'Laura' },
      '2026-03-01T10:00:00.000Z',
    );
    expect(taken).toMatchObject({ stato: 1, assegnatoA: 'Laura' });
    // A second operator still holds the copy read before: refused.
    expect(
      await tickets.updateTicket(
        ticket,
        { stato: 2, categoria: 'Altro', dettagli: 'chiuso', assegnatoA: 'Paolo' },
        '2026-03-01T10:00:01.000Z',
      ),
    ).toBeNull();
    expect(await tickets.getTicketItem(ticket.id)).toMatchObject({
      stato: 1,
      assegnatoA: 'Laura',
      dettagli: 'preso in carico',
    });
    const resolved = (await tickets.updateTicket(
      taken!,
      { stato: 2, categoria: 'Altro', dettagli: 'risolto', assegnatoA: 'Laura' },
      '2026-03-01T11:00:00.000Z',
    ))!;
    expect(resolved).toMatchObject({ stato: 2 });
    await expect.poll(openIds, { timeout: 10_000 }).not.toContain(ticket.id);
    expect(
      await tickets.updateTicket(
        resolved,
        { stato: 1, categoria: 'Altro', dettagli: 'riaperto', assegnatoA: null },
        '2026-03-01T12:00:00.000Z',
      ),
    ).toBeNull();
    expect(await tickets.getTicketItem(ticket.id)).toMatchObject({ stato: 2, dettagli: 'risolto' });
  });

  it('counts a support message only while its window is under the maximum', async () => {
    const userId = randomUUID();
    const expires = Math.floor(Date.now() / 1000) + 3600;
    expect(await tickets.countSupportMessage(userId, 'hour', '2026-03-01T10', 2, expires)).toBe(true);
    expect(await tickets.countSupportMessage(userId, 'hour', '2026-03-01T10', 2, expires)).toBe(true);
    expect(await tickets.countSupportMessage(userId, 'hour', '2026-03-01T10', 2, expires)).toBe(false);
    expect(await table().item({ pk: `SUPPORTRATE#${userId}`, sk: 'hour#2026-03-01T10' })).toMatchObject({ count: 2 });
    expect(await tickets.countSupportMessage(userId, 'hour', '2026-03-01T11', 2, expires)).toBe(true);
  });
});
