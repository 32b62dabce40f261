import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  batchPut,
  documentClient,
  mergedCursor,
  mergedQueryPage,
  queryAll,
  queryPage,
  readMergedCursor,
  tableName,
  type CursorList,
} from './dynamo.ts';
import type { AuditEntry, AuditHistory, AuditLog, StoredAuditEntry } from './ports/audit.ts';
import { AUDIT_DAY_SHARDS, keys, shardOf } from './table.ts';
import { expiresAfter, retentionYears } from '../domain/retention.ts';

export type { AuditEntry };

/** The stored item of an audit entry. */
function auditItem(entry: AuditEntry, at: string) {
  const sk = `${at}#${randomUUID()}`;
  return {
    pk: keys.auditOf(entry.entity, entry.id),
    sk,
    ...auditDayKeys(entry.entity, entry.id, sk),
    at,
    entity: entry.entity,
    recordId: entry.id,
    action: entry.action,
    who: {
      sub: entry.actor.sub,
      fiscalCode: entry.actor.fiscalCode,
      fullName: entry.actor.fullName,
      role: entry.actor.role,
    },
    before: entry.before ?? null,
    after: entry.after ?? null,
    // DynamoDB's TTL deletes it once its retention is over (functions/domain/retention.ts).
    expiresAt: expiresAfter(new Date(at), retentionYears('auditEntries')),
  };
}

/** An entry's place in its day (gsi1): the record's shard of the day, in time order ("<ISO time>#<uuid>", unique). */
const auditDayKeys = (entity: string, id: string, sk: string) => ({
  gsi1pk: keys.auditDay(sk, shardOf(`${entity}#${id}`, AUDIT_DAY_SHARDS)),
  gsi1sk: sk,
});

/** Records who changed which record, when, and how it looked before and after. */
export async function recordAudit(entry: AuditEntry, now = new Date()): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: tableName, Item: auditItem(entry, now.toISOString()) }));
}

export const dynamoAuditLog: AuditLog = { record: recordAudit };

/** Many entries at once (BatchWriteItem, 25 a request, unprocessed items retried): a month of debt positions. */
export async function recordAuditBatch(entries: readonly AuditEntry[], now = new Date()): Promise<void> {
  const at = now.toISOString();
  const items = entries.map((entry) => auditItem(entry, at));
  await batchPut(items);
}

/** A record's audit entries, oldest first (one Query on its own partition), e.g. the ticket history. */
export const dynamoAuditHistory: AuditHistory = {
  historyOf: (entity, id, page) =>
    queryPage(
      { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.auditOf(entity, id) } },
      page,
      (item): StoredAuditEntry => ({
        at: item.at,
        action: item.action,
        who: item.who,
        before: item.before,
        after: item.after,
      }),
      50,
    ),
};

/** What a cursor of a day's audit is bound to (never sent: the shards are read one by one). */
const dayList = (day: string): CursorList => ({
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = AUDIT#<day>#<shard>',
  ExpressionAttributeValues: { ':day': day },
});

/**
 * Every audit entry of a day (yyyy-mm-dd, UTC), oldest first, a page at a time: the day's shards merged in time
 * order (the read fan-out of its write sharding). Operations (npm run audit:day, npm run gdpr:export) read it,
 * not the web.
 *
 * Expand, then contract: until the migration audit-day-shards-v1 has moved every entry written before the
 * shards (gsi1 "AUDIT#<day>", a bare time as sort key), the day's unsharded partition is read as one more
 * stream, so no entry goes missing while it runs (an entry is on one partition or the other, never both).
 * Drop that stream in a release after every deployment records the migration APPLIED.
 */
export async function auditOfDay(day: string, page: { limit?: number; cursor?: string } = {}) {
  const list = dayList(day);
  const partitions = [
    ...Array.from({ length: AUDIT_DAY_SHARDS }, (_, shard) => keys.auditDay(day, shard)),
    keys.auditDayUnsharded(day),
  ];
  const shards = partitions.map((pk) => ({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
  }));
  const { items, positions } = await mergedQueryPage(shards, readMergedCursor(page.cursor, list, shards.length), {
    order: (item) => String(item.gsi1sk),
    forward: true,
    limit: page.limit ?? 100,
    keyOf: (item) => ({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
  });
  return {
    items: items.map((item) => ({
      at: item.at as string,
      entity: item.entity as string,
      recordId: item.recordId as string,
      action: item.action,
      who: item.who,
      before: item.before,
      after: item.after,
    })),
    nextCursor: mergedCursor(positions, list),
  };
}

/**
 * Moves a day's entries written before the shards (gsi1 "AUDIT#<day>", sort key the bare time) to their shard:
 * the same items put again with their sharded gsi1 keys (an audit entry never changes otherwise). Idempotent;
 * returns how many it moved. npm run backfill:audit-days, once after the deploy that brings the shards.
 */
export async function backfillAuditDay(day: string): Promise<number> {
  const legacy = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.auditDayUnsharded(day) },
  });
  await batchPut(legacy.map((item) => ({ ...item, ...auditDayKeys(item.entity, item.recordId, item.sk) })));
  return legacy.length;
}

/** backfillAuditDay for every day from `from` (yyyy-mm-dd) to today (UTC): one Query a day. */
export async function backfillAuditDays(from: string, to = new Date()): Promise<number> {
  let moved = 0;
  for (const day = new Date(`${from}T00:00:00Z`); day <= to; day.setUTCDate(day.getUTCDate() + 1))
    moved += await backfillAuditDay(day.toISOString().slice(0, 10));
  return moved;
}
