import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../functions/domain/roles.ts';
import { indexesCaughtUp, localTable, useLocalTable } from '../support/dynamo.ts';

/**
 * A day's audit entries are write-sharded over gsi1 partitions ("AUDIT#<day>#<shard>"; a partition takes at
 * most 1,000 writes a second: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-sharding.html),
 * and read back by querying every shard and merging them in time order, page after page. Entries written before
 * the shards are moved by the back-fill. Against the local DynamoDB (lagging indexes).
 */
let audit: typeof import('../../functions/adapters/audit-log.ts');
const operator = { sub: 'op', role: 'OPERATOR', fiscalCode: 'BNCLRA79H61F205F', fullName: 'Laura Bianchi' } as Actor;
const day = '2031-05-05';
const at = (time: string) => new Date(`${day}T${time}Z`);

beforeAll(async () => {
  useLocalTable();
  process.env.CURSOR_SECRET ||= 'audit-day-test';
  audit = await import('../../functions/adapters/audit-log.ts');
});

const readAll = async (limit: number) => {
  const pages: { at: string; recordId: string }[][] = [];
  let cursor: string | undefined;
  do {
    const page = await audit.auditOfDay(day, { limit, cursor });
    pages.push(page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 50);
  return pages;
};

describe('a day of audit entries', () => {
  it('reads every shard merged in time order, page by page; entries stored before the shards are read before and after the back-fill moves them', async () => {
    // A generation's batch (one time for 30 records), then single changes at later times, and one the day after.
    await audit.recordAuditBatch(
      Array.from({ length: 30 }, (_, i) => ({
        actor: operator,
        entity: 'position',
        id: `P${i}`,
        action: 'create' as const,
        before: null,
        after: { n: i },
      })),
      at('09:00:00.000'),
    );
    for (const [i, time] of ['09:30:00.000', '10:00:00.000', '10:00:00.001', '23:59:59.999'].entries())
      await audit.recordAudit(
        { actor: operator, entity: 'band', id: `B${i}`, action: 'update', before: { n: 0 }, after: { n: 1 } },
        at(time),
      );
    await audit.recordAudit(
      { actor: operator, entity: 'band', id: 'B-next-day', action: 'update', before: null, after: null },
      new Date('2031-05-06T00:00:00.000Z'),
    );
    // Entries of the same day stored before the shards: gsi1 "AUDIT#<day>", the bare time as sort key.
    for (const time of ['08:00:00.000', '09:45:00.000']) {
      const iso = at(time).toISOString();
      await localTable().putItem({
        pk: 'AUDIT#ticket#7',
        sk: `${iso}#${randomUUID()}`,
        gsi1pk: `AUDIT#${day}`,
        gsi1sk: iso,
        at: iso,
        entity: 'ticket',
        recordId: '7',
        action: 'update',
        who: { sub: 'op' },
        before: null,
        after: null,
      });
    }
    await indexesCaughtUp();

    // While the migration has not moved them (expand), the day's old partition is read too: nothing is missing.
    const pages = await readAll(7);
    const entries = pages.flat();
    expect(entries).toHaveLength(36);
    expect(pages.slice(0, -1).every((page) => page.length === 7)).toBe(true);
    expect(entries.map((e) => e.at)).toEqual([...entries.map((e) => e.at)].sort());
    expect(new Set(entries.map((e) => `${e.at}${e.recordId}`)).size).toBe(36);
    expect(entries[0]).toMatchObject({ recordId: '7', at: at('08:00:00.000').toISOString() });
    expect(entries.map((e) => e.recordId).slice(-5)).toEqual(['B0', '7', 'B1', 'B2', 'B3']);

    expect(await audit.backfillAuditDay(day)).toBe(2);
    await indexesCaughtUp();
    // Moved, each is read once, in its place.
    const all = (await readAll(10)).flat();
    expect(all).toEqual(entries);
    expect(await audit.backfillAuditDay(day)).toBe(0);
  });
});
