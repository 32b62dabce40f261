import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * The TTL back-fill (migration retention-expiry-v1): support messages, debt positions and audit entries stored
 * before the retention settings carry no `expiresAt`, so DynamoDB's TTL would keep them for ever. The migration
 * gives each the one its kind's retention gives a new item (defaults: support messages 2 years from opening,
 * payment records 10 years from the end of their year, audit entries 10 years), page by page, resumable from its
 * cursor. Against the local DynamoDB (which has no TTL: the test reads the attribute DynamoDB would act on).
 */
let catalogue: typeof import('../../functions/entry/migration-catalogue.ts');
const table = () => localTable();
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const now = () => Math.floor(Date.now() / 1000);
const run = randomUUID().slice(0, 8);

beforeAll(async () => {
  useLocalTable();
  process.env.CURSOR_SECRET ||= 'retention-expiry-test';
  catalogue = await import('../../functions/entry/migration-catalogue.ts');
});

const migration = () => catalogue.migrations.find((m) => m.id === 'retention-expiry-v1')!;
/** The migration's steps from `cursor` until done or `maxSteps` are taken: the cursor to resume from, and the steps. */
async function steps(cursor: string | null, maxSteps = Number.POSITIVE_INFINITY) {
  let taken = 0;
  do {
    cursor = (await migration().step(cursor)).cursor;
    taken += 1;
  } while (cursor !== null && taken < maxSteps);
  return { cursor, taken };
}
const itemAt = (pk: string, sk: string) => table().item({ pk, sk });
const expiryOf = async (pk: string, sk: string) => (await itemAt(pk, sk))?.expiresAt as number | undefined;

/** Items as the portal stored them before the retention settings, and two it must leave alone. */
const stored = {
  oldTicket: { pk: `TICKET#old-${run}`, sk: 'TICKET', id: `old-${run}`, dataApertura: '2023-03-01T10:00:00.000Z' },
  recentTicket: { pk: `TICKET#new-${run}`, sk: 'TICKET', id: `new-${run}`, dataApertura: '2026-10-01T08:30:00.000Z' },
  ownExpiry: {
    pk: `TICKET#own-${run}`,
    sk: 'TICKET',
    id: `own-${run}`,
    dataApertura: '2024-01-01T00:00:00.000Z',
    expiresAt: epoch('2031-01-01T00:00:00Z'),
  },
  oldPosition: { pk: `CALL#c-${run}#POSITIONS#2015-01`, sk: `USER#u-${run}`, anno: 2015, mese: 1 },
  position: { pk: `CALL#c-${run}#POSITIONS#2026-03`, sk: `USER#u-${run}`, anno: 2026, mese: 3 },
  audit: { pk: `AUDIT#band#b-${run}`, sk: `2026-05-05T09:00:00.000Z#${run}`, at: '2026-05-05T09:00:00.000Z' },
  user: { pk: `USER#u-${run}`, sk: 'PROFILE', id: `u-${run}`, nome: 'Maria' },
  checkoutOfPosition: { pk: `CALL#c-${run}#CHECKOUTS`, sk: `2026-03#${run}`, until: '2026-03-01T10:00:00Z' },
};

describe('the TTL back-fill of items stored before the retention settings (retention-expiry-v1)', () => {
  it('gives an item past its retention a TTL already passed, one within it the TTL it would have had; keeps an item’s own; touches no other kind', async () => {
    for (const item of Object.values(stored)) await table().putItem(item);
    await steps(null);

    // Opened 1 March 2023, kept 2 years: expired on 1 March 2025, so DynamoDB deletes it within days.
    const oldTicket = await expiryOf(stored.oldTicket.pk, 'TICKET');
    expect(oldTicket).toBe(epoch('2025-03-01T10:00:00.000Z'));
    expect(oldTicket!).toBeLessThan(now());
    expect(await expiryOf(stored.recentTicket.pk, 'TICKET')).toBe(epoch('2028-10-01T08:30:00.000Z'));
    expect(await expiryOf(stored.ownExpiry.pk, 'TICKET')).toBe(epoch('2031-01-01T00:00:00Z'));
    // A 2015 position is an accounting record until the end of 2025; a 2026 one until the end of 2036.
    expect(await expiryOf(stored.oldPosition.pk, stored.oldPosition.sk)).toBe(epoch('2026-01-01T00:00:00Z'));
    expect(await expiryOf(stored.position.pk, stored.position.sk)).toBe(epoch('2037-01-01T00:00:00Z'));
    expect(await expiryOf(stored.audit.pk, stored.audit.sk)).toBe(epoch('2036-05-05T09:00:00.000Z'));
    // Records without a retention kind keep no TTL: nothing expires them.
    expect(await itemAt(stored.user.pk, 'PROFILE')).toEqual(stored.user);
    expect(await itemAt(stored.checkoutOfPosition.pk, stored.checkoutOfPosition.sk)).toEqual(stored.checkoutOfPosition);
    // The rest of each item is as it was.
    expect(await itemAt(stored.oldPosition.pk, stored.oldPosition.sk)).toEqual({
      ...stored.oldPosition,
      expiresAt: epoch('2026-01-01T00:00:00Z'),
    });
  });

  it('goes on from its cursor after a stop half-way, page by page, and a second run changes nothing', async () => {
    // More items than one page evaluates (500), so the walk takes several steps.
    const many = Array.from({ length: 600 }, (_, i) => ({
      pk: `AUDIT#ticket#t${i}-${run}`,
      sk: `2026-06-01T12:00:00.000Z#${i}`,
      at: '2026-06-01T12:00:00.000Z',
    }));
    await table().putItems(many);
    const first = await steps(null, 1);
    expect(first.cursor).not.toBeNull();
    // The stop: the next run starts from the recorded cursor, not from the start.
    const rest = await steps(first.cursor);
    expect(rest.taken).toBeGreaterThanOrEqual(1);
    for (const item of [many[0]!, many[299]!, many[599]!])
      expect(await expiryOf(item.pk, item.sk)).toBe(epoch('2036-06-01T12:00:00.000Z'));
    // Run again from the start (idempotent): an item that has its TTL keeps it, even under other settings.
    process.env.RETENTION_AUDIT_ENTRIES_YEARS = '12';
    try {
      await steps(null);
    } finally {
      delete process.env.RETENTION_AUDIT_ENTRIES_YEARS;
    }
    expect(await expiryOf(many[0]!.pk, many[0]!.sk)).toBe(epoch('2036-06-01T12:00:00.000Z'));
  });
});
