import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SubscriptionState, SubscriptionSummary } from '../domain/subscriptions.ts';
import type { Page } from '../domain/validation.ts';
import { countUnder, decodeCursor, documentClient, encodeCursor, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { KeptFile } from '../calls/files.ts';

/**
 * A subscription is ONE item at pk "CALL#<callId>", sk "SUBSCRIBER#<userId>": a second request of the same
 * citizen for the same call is a failed conditional write, whatever the timing.
 * gsi1 = "USER#<userId>#SUBSCRIPTIONS" / insert time (the citizen's list, newest first);
 * gsi2 = "CALL#<callId>#SUBSCRIPTIONS" / "SUBSCRIBER#<userId>" (the call's subscribers: count, refused delete).
 */
export interface SubscriptionRecord extends SubscriptionSummary {
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  files: KeptFile[];
}

const toRecord = (item: Record<string, any>): SubscriptionRecord => ({
  id: item.id,
  state: item.state,
  announcementId: item.announcementId,
  announcement: item.announcement,
  rankingScore: item.rankingScore ?? null,
  weeklyHour: item.weeklyHour ?? null,
  cost: item.cost ?? null,
  dataInsert: item.dataInsert,
  dataUpdate: item.dataUpdate,
  userId: item.userId,
  fiscalCode: item.fiscalCode,
  firstName: item.firstName,
  lastName: item.lastName,
  files: item.files ?? [],
});

export async function getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.subscription(callId, userId) }));
  return Item ? toRecord(Item) : null;
}

/** Writes a new subscription; false when the citizen already has one for that call (nothing written). */
export async function createSubscription(record: SubscriptionRecord): Promise<boolean> {
  const { id, ...rest } = record;
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.subscription(record.announcementId, record.userId),
          gsi1pk: keys.subscriptionsOfUser(record.userId),
          gsi1sk: `${record.dataInsert}#${record.announcementId}`,
          gsi2pk: keys.subscriptionsOfCall(record.announcementId),
          gsi2sk: `SUBSCRIBER#${record.userId}`,
          id,
          ...rest,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return written !== null;
}


/**
 * The citizen's subscriptions, newest first, optionally of one state. With a state filter a DynamoDB page
 * may hold fewer matches than asked, so pages are read until `limit` matches are found: every page but the
 * last is full, and the cursor points just after the last item returned.
 */
export async function listSubscriptionsOfUser(
  userId: string,
  query: { state?: SubscriptionState; limit?: number; cursor?: string },
  pageSize: number,
): Promise<Page<SubscriptionRecord>> {
  const limit = query.limit ?? pageSize;
  const found: Record<string, any>[] = [];
  const list = { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.subscriptionsOfUser(userId) } };
  let start = decodeCursor(query.cursor, list);
  let more = true;
  while (found.length < limit && more) {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...list,
        ExpressionAttributeValues: { ...list.ExpressionAttributeValues, ...(query.state ? { ':state': query.state } : {}) },
        ...(query.state ? { FilterExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } } : {}),
        ScanIndexForward: false,
        Limit: limit - found.length + (query.state ? 10 : 0),
        ExclusiveStartKey: start,
      }),
    );
    for (const item of result.Items ?? []) {
      if (found.length < limit) found.push(item);
    }
    start = result.LastEvaluatedKey;
    more = Boolean(start);
  }
  // A full page may have more after it: the next page starts just after the last item returned.
  const last = found.at(-1);
  const nextCursor = last && found.length === limit ? encodeCursor({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }, list) : null;
  return { items: found.map(toRecord), nextCursor };
}

/** How many citizens asked to join a call (COUNT on gsi2). */
export const countSubscriptionsOfCall = (callId: string) => countUnder('gsi2', 'gsi2pk', keys.subscriptionsOfCall(callId));

/** True when the user has at least one subscription (one Query on gsi1, Limit 1). */
export async function userHasSubscriptions(userId: string): Promise<boolean> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.subscriptionsOfUser(userId) },
      Limit: 1,
    }),
  );
  return Items.length > 0;
}

/**
 * Every approved (VALIDATED) subscription of a call, for the debt positions: a Query on gsi2
 * "CALL#<id>#SUBSCRIPTIONS" with a state filter, read page after page to the end.
 */
export async function listApprovedSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]> {
  const found: SubscriptionRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        FilterExpression: '#state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pk': keys.subscriptionsOfCall(callId), ':state': 'VALIDATED' },
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(result.Items ?? []).map(toRecord));
    start = result.LastEvaluatedKey;
  } while (start);
  return found;
}
