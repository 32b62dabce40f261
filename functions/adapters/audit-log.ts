import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchPut, documentClient, queryPage, tableName } from './dynamo.ts';
import type { AuditEntry, AuditHistory, AuditLog, StoredAuditEntry } from './ports.ts';
import { keys } from './table.ts';

export type { AuditEntry };

/** The stored item of an audit entry. */
function auditItem(entry: AuditEntry, at: string) {
  return {
    pk: keys.auditOf(entry.entity, entry.id),
    sk: `${at}#${randomUUID()}`,
    gsi1pk: keys.auditDay(at),
    gsi1sk: at,
    at,
    entity: entry.entity,
    recordId: entry.id,
    action: entry.action,
    who: { sub: entry.actor.sub, fiscalCode: entry.actor.fiscalCode, fullName: entry.actor.fullName, role: entry.actor.role },
    before: entry.before ?? null,
    after: entry.after ?? null,
  };
}

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
      (item): StoredAuditEntry => ({ at: item.at, action: item.action, who: item.who, before: item.before, after: item.after }),
      50,
    ),
};
