import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CallState } from '../domain/call-limits.ts';
import { nameSearchKey } from '../domain/call-rules.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { CallSummary } from '../domain/calls.ts';
import type { Page } from '../domain/validation.ts';
import {
  documentClient,
  hasChildren,
  queryAll,
  queryPage,
  tableName,
  unlessConditionFails,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * Calls (bandi). Items under pk "CALL#<id>":
 * - sk "CALL": the call. gsi1 = "CALLS" / searchable name (operators' list, by name, prefix search);
 *   gsi2 = "SERVICE#<sid>#CALLS" / name (the calls of a service: also what refuses a service's delete).
 * - sk "BAND#<bandId>": one link per band, gsi2 = "BAND#<bandId>#CALLS" (refuses the band's delete).
 * - sk "OPEN": present only while the call is OPEN, with the public summary. gsi1 = "OPEN_CALLS" and
 *   gsi2 = "SERVICE#<sid>#OPEN_CALLS", both by insert time: the board and a service's open calls.
 * - sk "SUBSCRIBER#<userId>": the subscriptions (functions/subscriptions/repository.ts, not read here).
 */
const toSummary = (item: StoredItem): CallSummary => ({
  id: item.id,
  name: item.name,
  year: item.year,
  state: item.state,
  serviceId: item.serviceId,
  serviceName: item.serviceName,
  dataInsert: item.dataInsert,
});

const toRecord = (item: StoredItem): CallRecord => ({
  ...toSummary(item),
  nomeMyPay: item.nomeMyPay,
  codAccertamento: item.codAccertamento,
  codCapitolo: item.codCapitolo,
  bandsId: item.bandsId ?? [],
  files: item.files ?? [],
  serviceDescription: item.serviceDescription ?? '',
  version: item.version ?? 0,
  updatedAt: item.updatedAt,
});

const sortName = (record: Pick<CallRecord, 'name' | 'id'>) => `${nameSearchKey(record.name)}#${record.id}`;

export async function getCall(id: string): Promise<CallRecord | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.call(id) }));
  return Item ? toRecord(Item) : null;
}

/** Operators' list: by name; `name` keeps the calls whose name starts with it (case and accents ignored). */
export function listCalls(
  query: { name?: string; limit?: number; cursor?: string },
  pageSize: number,
): Promise<Page<CallSummary>> {
  const prefix = query.name ? nameSearchKey(query.name) : '';
  return queryPage(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: prefix ? 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.callsCollection, ...(prefix ? { ':prefix': prefix } : {}) },
    },
    query,
    toSummary,
    pageSize,
  );
}

/** The ids of the calls not archived (an archived call is never billed): the ISEE jobs walk their subscribers. */
export async function listActiveCallIds(): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ProjectionExpression: 'id, #state',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': keys.callsCollection },
  });
  return items.filter((item) => item.state !== CallState.ARCHIVED).map((item) => item.id as string);
}

/** Every call (archived too: its positions may still be paid) with the day it was created: the daily reporting walks them. */
export async function listCallStarts(): Promise<{ id: string; dataInsert: string | null }[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ProjectionExpression: 'id, dataInsert',
    ExpressionAttributeValues: { ':pk': keys.callsCollection },
  });
  return items.map((item) => ({ id: item.id as string, dataInsert: (item.dataInsert as string | undefined) ?? null }));
}

/** All the calls of a service, by name. */
export const listCallsOfService = (
  serviceId: string,
  page: { limit?: number; cursor?: string },
  pageSize: number,
): Promise<Page<CallSummary>> =>
  queryPage(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.callsOfService(serviceId) },
    },
    page,
    toSummary,
    pageSize,
  );

/** OPEN calls, newest first: all of them (the board) or those of one service. */
export const listOpenCalls = (
  query: { serviceId?: string; limit?: number; cursor?: string },
  pageSize: number,
): Promise<Page<CallSummary>> =>
  queryPage(
    query.serviceId
      ? {
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.openCallsOfService(query.serviceId) },
          ScanIndexForward: false,
        }
      : {
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.openCallsCollection },
          ScanIndexForward: false,
        },
    query,
    toSummary,
    pageSize,
  );

function callItem(record: CallRecord) {
  return {
    ...keys.call(record.id),
    gsi1pk: keys.callsCollection,
    gsi1sk: sortName(record),
    gsi2pk: keys.callsOfService(record.serviceId),
    gsi2sk: sortName(record),
    ...record,
  };
}

/**
 * Writes the call and keeps its band links and its open marker in step with it. False, and nothing
 * written, when the stored call is no longer `previous` (someone else saved in between).
 */
export async function putCall(record: CallRecord, previous: CallRecord | null): Promise<boolean> {
  const condition = previous
    ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': previous.version } }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  const written = await unlessConditionFails(
    documentClient.send(new PutCommand({ TableName: tableName, Item: callItem(record), ...condition })),
  );
  if (!written) return false;

  const before = new Set(previous?.bandsId ?? []);
  const after = new Set(record.bandsId);
  for (const bandId of after) {
    if (before.has(bandId)) continue;
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.callBandLink(record.id, bandId),
          gsi2pk: keys.callsUsingBand(bandId),
          gsi2sk: `CALL#${record.id}`,
          callId: record.id,
          bandId,
        },
      }),
    );
  }
  for (const bandId of before) {
    if (!after.has(bandId))
      await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.callBandLink(record.id, bandId) }));
  }

  if (record.state === CallState.OPEN) {
    const order = `${record.dataInsert}#${record.id}`;
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.openCallMarker(record.id),
          gsi1pk: keys.openCallsCollection,
          gsi1sk: order,
          gsi2pk: keys.openCallsOfService(record.serviceId),
          gsi2sk: order,
          ...toSummary(record),
        },
      }),
    );
  } else if (previous?.state === CallState.OPEN) {
    await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.openCallMarker(record.id) }));
  }
  return true;
}

export async function deleteCall(record: CallRecord): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.openCallMarker(record.id) }));
  for (const bandId of record.bandsId) {
    await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.callBandLink(record.id, bandId) }));
  }
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.call(record.id) }));
}

/** "Is this band used by a call?": one Query on the band's links (gsi2), Limit 1. */
export const bandIsUsedByCalls = (bandId: string) => hasChildren(keys.callsUsingBand(bandId));

/** "Has this service calls?": one Query on the service's calls (gsi2), Limit 1. */
export const serviceHasCalls = (serviceId: string) => hasChildren(keys.callsOfService(serviceId));
