import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/adapters/table.ts';
import { localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * The export lock's lease end is the table's TTL attribute (`expiresAt`): DynamoDB's TTL acts only on a number of
 * epoch seconds and ignores a string, so an ISO lease would never be deleted. Against the local DynamoDB (which has
 * no TTL: the test reads the attribute DynamoDB would act on), with the flows repository and the migration
 * export-lock-expiry-v1 that rewrites the leases written before.
 */
let flows: typeof import('../../functions/flows/repository.ts');
let catalogue: typeof import('../../functions/entry/migration-catalogue.ts');
const table = () => localTable();
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const run = randomUUID().slice(0, 8);

beforeAll(async () => {
  useLocalTable();
  process.env.CURSOR_SECRET ||= 'export-lock-expiry-test';
  flows = await import('../../functions/flows/repository.ts');
  catalogue = await import('../../functions/entry/migration-catalogue.ts');
});

const lockOf = (callId: string) => table().item(keys.exportLock(callId));
/** A call as the calls list finds it (the migration walks the calls). */
const storeCall = (callId: string) =>
  table().putItem({ ...keys.call(callId), id: callId, gsi1pk: keys.callsCollection, gsi1sk: `${run}#${callId}` });
async function migrate() {
  const migration = catalogue.migrations.find((m) => m.id === 'export-lock-expiry-v1')!;
  let cursor: string | null = null;
  let processed = 0;
  do {
    const step = await migration.step(cursor);
    processed += step.processed;
    cursor = step.cursor;
  } while (cursor !== null);
  return processed;
}

describe('the export lock’s lease end, as DynamoDB’s TTL reads it', () => {
  it('is written, renewed and compared in epoch seconds; an expired lease is free, a live one is not', async () => {
    const callId = `lock-${run}`;
    const now = new Date();
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

    expect(await flows.takeExportLock(callId, 'flow-a', { now: at(0), until: at(30) })).toBe(true);
    expect((await lockOf(callId))?.expiresAt).toBe(epoch(at(30)));
    // Held: another flow is refused, and the lock names its holder.
    expect(await flows.takeExportLock(callId, 'flow-b', { now: at(1), until: at(31) })).toBe(false);
    expect(await flows.runningExportOf(callId, at(1))).toBe('flow-a');

    expect(await flows.renewExportLock(callId, 'flow-a', at(45))).toBe(true);
    expect((await lockOf(callId))?.expiresAt).toBe(epoch(at(45)));
    // Past its end the lease holds nothing, and another flow takes it.
    expect(await flows.runningExportOf(callId, at(46))).toBeNull();
    expect(await flows.takeExportLock(callId, 'flow-b', { now: at(46), until: at(76) })).toBe(true);
    expect(await lockOf(callId)).toMatchObject({ flowId: 'flow-b', expiresAt: epoch(at(76)) });

    // Kept with no end (MyPay holds the file): no TTL, so DynamoDB never deletes it.
    await flows.keepExportLock(callId, 'flow-b');
    expect((await lockOf(callId))?.expiresAt).toBeUndefined();
    expect(await flows.runningExportOf(callId, at(600))).toBe('flow-b');
  });

  it('migration export-lock-expiry-v1 rewrites a lease stored as an ISO string in seconds; until then it is held, and a second run changes nothing', async () => {
    const expired = `old-${run}`;
    const held = `held-${run}`;
    const released = `free-${run}`;
    for (const callId of [expired, held, released]) await storeCall(callId);
    const past = '2026-01-10T08:00:00.000Z';
    await table().putItem({ ...keys.exportLock(expired), flowId: 'flow-old', expiresAt: past });
    await table().putItem({ ...keys.exportLock(held), flowId: 'flow-mypay' });

    // Before the migration an ISO lease is not compared with the seconds: it stays held (never two exports at once).
    expect(await flows.runningExportOf(expired)).toBe('flow-old');
    expect(await flows.takeExportLock(expired, 'flow-new', { now: new Date().toISOString(), until: past })).toBe(false);

    await migrate();
    expect(await lockOf(expired)).toEqual({ ...keys.exportLock(expired), flowId: 'flow-old', expiresAt: epoch(past) });
    // A lock with no end and a call with no lock are left as they are.
    expect(await lockOf(held)).toEqual({ ...keys.exportLock(held), flowId: 'flow-mypay' });
    expect(await lockOf(released)).toBeUndefined();

    // Now the expired lease is free, as it was meant to be.
    expect(await flows.runningExportOf(expired)).toBeNull();
    const now = new Date();
    const until = new Date(now.getTime() + 30 * 60_000).toISOString();
    expect(await flows.takeExportLock(expired, 'flow-new', { now: now.toISOString(), until })).toBe(true);

    expect(await migrate()).toBe(0);
    expect(await lockOf(expired)).toMatchObject({ flowId: 'flow-new', expiresAt: epoch(until) });
  });
});
