import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nameSearchKey } from '../domain/call-rules.ts';
import type { Page } from '../domain/validation.ts';
import {
  decodeCursor,
  documentClient,
  encodeCursor,
  tableName,
  unlessConditionFails,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { FlowRecord } from '../domain/flow-record.ts';

/**
 * Payment flows. pk "FLOW#<id>", sk "FLOW"; gsi1 = "FLOWS" / insert time (the flows page, newest first).
 * The export lock of a call is pk "CALL#<callId>", sk "EXPORT_LOCK" with the flow that holds it and, while it
 * is a lease (domain/flows.ts EXPORT_LEASE_MS), when it expires (`expiresAt`, epoch seconds, the table's TTL
 * attribute: DynamoDB deletes an expired lease within days, and an expired lease is free meanwhile).
 */
const FIELDS = [
  'id',
  'stato',
  'step',
  'dataInsert',
  'dataUpdate',
  'announcement',
  'mese',
  'anno',
  'fiscalCode',
  'num',
  'accepted',
  'rejected',
  'isEmailSent',
  'error',
  'zipKey',
  'zipName',
  'md5',
  'requestToken',
  'uploadedAt',
  'files',
  'iseeKey',
  'iseeCursor',
  'collectCursor',
  'planKey',
  'sendCursor',
  'collectedAt',
  'startedBy',
  'dataIsEmailSent',
  'emailRun',
  'heldBack',
  'attempt',
  'execution',
  'pollingSince',
  'reconcile',
] as const;

const toRecord = (item: StoredItem): FlowRecord =>
  Object.fromEntries(FIELDS.map((field) => [field, item[field] ?? null])) as unknown as FlowRecord;

export async function getFlow(id: string): Promise<FlowRecord | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.flow(id), ConsistentRead: true }),
  );
  return Item ? toRecord(Item) : null;
}

export async function createFlow(flow: FlowRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.flow(flow.id),
        gsi1pk: keys.flowsCollection,
        gsi1sk: `${flow.dataInsert}#${flow.id}`,
        searchText: nameSearchKey(`${flow.announcement.name} ${flow.announcement.service.name}`),
        ...flow,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function unlistFlow(id: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.flow(id),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}

export function updateFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord> {
  return writeFlow(id, fields, now, false);
}

/**
 * Merges fields onto a flow that is still running. A step of an execution that was stopped (or timed out)
 * may finish after the flow was failed for it: its write is refused (FlowStopped), so it cannot move a
 * failed flow back to a running step.
 */
export async function advanceFlow(id: string, fields: Partial<FlowRecord>, now: string): Promise<FlowRecord> {
  try {
    return await writeFlow(id, fields, now, true);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    throw Object.assign(new Error(`Il flusso ${id} non è più in corso.`), { name: 'FlowStopped' });
  }
}

async function writeFlow(
  id: string,
  fields: Partial<FlowRecord>,
  now: string,
  onlyWhileRunning: boolean,
): Promise<FlowRecord> {
  const entries = Object.entries({ ...fields, dataUpdate: now }).filter(([name]) => name !== 'id');
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.flow(id),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ...(onlyWhileRunning ? { '#step': 'step' } : {}),
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value ?? null])),
        ...(onlyWhileRunning ? { ':completed': 'COMPLETATO', ':failed': 'ERRORE', ':suspended': 'SOSPESO' } : {}),
      },
      ConditionExpression: onlyWhileRunning
        ? 'attribute_exists(pk) AND NOT (#step IN (:completed, :failed, :suspended))'
        : 'attribute_exists(pk)',
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toRecord(Attributes!);
}

/** The lease's end as the table's TTL attribute wants it (epoch seconds: DynamoDB's TTL ignores a string). */
const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Takes the call's export lock for the flow until `lease.until` (free, already the flow's, or an expired lease). */
export async function takeExportLock(
  callId: string,
  flowId: string,
  lease: { now: string; until: string },
): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.exportLock(callId), flowId, expiresAt: epochSeconds(lease.until) },
        ConditionExpression: 'attribute_not_exists(pk) OR flowId = :flow OR expiresAt < :now',
        ExpressionAttributeValues: { ':flow': flowId, ':now': epochSeconds(lease.now) },
      }),
    ),
  );
  return written !== null;
}

/** The flow's lease goes on until `until` (false when the flow does not hold the lock). */
export async function renewExportLock(callId: string, flowId: string, until: string): Promise<boolean> {
  return (await setLockExpiry(callId, flowId, until)) !== null;
}

/** The flow keeps the lock with no expiry (MyPay may hold its file: only 'Rielabora' or its end frees it). */
export async function keepExportLock(callId: string, flowId: string): Promise<void> {
  await setLockExpiry(callId, flowId, null);
}

const setLockExpiry = (callId: string, flowId: string, until: string | null) =>
  unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.exportLock(callId),
        UpdateExpression: until ? 'SET expiresAt = :until' : 'REMOVE expiresAt',
        ConditionExpression: 'flowId = :flow',
        ExpressionAttributeValues: { ':flow': flowId, ...(until ? { ':until': epochSeconds(until) } : {}) },
      }),
    ),
  );

export async function releaseExportLock(callId: string, flowId: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.exportLock(callId),
        ConditionExpression: 'flowId = :flow',
        ExpressionAttributeValues: { ':flow': flowId },
      }),
    ),
  );
}

/** The flow that holds the call's export lock, if any: an expired lease holds nothing. */
export async function runningExportOf(callId: string, now: string = new Date().toISOString()): Promise<string | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.exportLock(callId), ConsistentRead: true }),
  );
  if (!Item || (typeof Item.expiresAt === 'number' && Item.expiresAt < epochSeconds(now))) return null;
  return (Item.flowId as string | undefined) ?? null;
}

/**
 * Migration export-lock-expiry-v1: a lease written before the lock kept its end in epoch seconds has it as an
 * ISO string, which DynamoDB's TTL ignores and the lock's conditions no longer compare (until then such a lease
 * is held, never wrongly free). Rewritten in seconds, unless it changed meanwhile.
 */
export async function lockExpiryInSeconds(callId: string): Promise<number> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.exportLock(callId), ConsistentRead: true }),
  );
  if (typeof Item?.expiresAt !== 'string') return 0;
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.exportLock(callId),
        UpdateExpression: 'SET expiresAt = :seconds',
        ConditionExpression: 'expiresAt = :iso',
        ExpressionAttributeValues: { ':seconds': epochSeconds(Item.expiresAt), ':iso': Item.expiresAt },
      }),
    ),
  );
  return written === null ? 0 : 1;
}

/**
 * The flows page: newest first; `descrizione` keeps the flows whose call or service name contains it. With
 * a filter a DynamoDB page may hold fewer matches, so pages are read until the page is full or the list ends.
 */
export async function listFlows(
  query: { descrizione?: string; cursor?: string },
  pageSize: number,
): Promise<Page<FlowRecord>> {
  const list = {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.flowsCollection },
  };
  const text = query.descrizione ? nameSearchKey(query.descrizione) : '';
  const found: StoredItem[] = [];
  let start = decodeCursor(query.cursor, list);
  do {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...list,
        ...(text
          ? {
              FilterExpression: 'contains(searchText, :text)',
              ExpressionAttributeValues: { ...list.ExpressionAttributeValues, ':text': text },
            }
          : {}),
        ScanIndexForward: false,
        Limit: pageSize - found.length,
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(result.Items ?? []));
    start = result.LastEvaluatedKey;
  } while (found.length < pageSize && start);
  const last = found.at(-1);
  const nextCursor =
    last && found.length === pageSize && start
      ? encodeCursor({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }, list)
      : null;
  return { items: found.map(toRecord), nextCursor };
}
