import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SubscriptionState } from '../domain/subscriptions.ts';
import { laterThan } from '../domain/version-stamp.ts';
import type { Page } from '../domain/validation.ts';
import {
  BACKFILL_PAGE,
  batchPut,
  decodeCursor,
  documentClient,
  encodeCursor,
  queryAll,
  queryCount,
  queryPage,
  tableName,
  unlessConditionFails,
  type BackfillPage,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import {
  countDeltas,
  enrolKeys,
  enrolmentSearchItem,
  searchedChanged,
  subscriptionItem,
  toRecord,
} from './repository-items.ts';
import type { EnrolmentIsee, SubscriptionRecord } from '../domain/subscription-record.ts';

/**
 * The subscriptions' reads and writes, the enrolment counters and the user data copied onto them. The items
 * and their keys: repository-items.ts; the operator's enrolment table: repository-enrolment-query.ts.
 */

export async function getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null> {
  // Strongly consistent: it is read again after a conditional write lost to another (an eventually consistent
  // GetItem may still return the version that lost).
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.subscription(callId, userId), ConsistentRead: true }),
  );
  return Item ? toRecord(Item) : null;
}

/** Writes a new subscription; false when the citizen already has one for that call (nothing written). */
export const createSubscription = (record: SubscriptionRecord): Promise<boolean> => putSubscription(record, null);

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
  const found: StoredItem[] = [];
  const list = {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.subscriptionsOfUser(userId) },
  };
  let start = decodeCursor(query.cursor, list);
  let more = true;
  while (found.length < limit && more) {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...list,
        ExpressionAttributeValues: {
          ...list.ExpressionAttributeValues,
          ...(query.state ? { ':state': query.state } : {}),
        },
        ...(query.state
          ? { FilterExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } }
          : {}),
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
  const nextCursor =
    last && found.length === limit
      ? encodeCursor({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }, list)
      : null;
  return { items: found.map(toRecord), nextCursor };
}

/**
 * A call's subscriptions as the Query reads them: the call's own partition (SUBSCRIBER# items), strongly
 * consistent, so a subscription made or changed a moment ago is there (gsi2 may not show it yet).
 */
const subscribersOfCall = (callId: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
  ExpressionAttributeValues: { ':pk': keys.call(callId).pk, ':sk': 'SUBSCRIBER#' } as Record<string, unknown>,
  ConsistentRead: true,
});
/** Its approved (VALIDATED) ones: the same Query with a state filter. */
const approvedOfCall = (callId: string) => {
  const all = subscribersOfCall(callId);
  return {
    ...all,
    FilterExpression: '#state = :state',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ...all.ExpressionAttributeValues, ':state': 'VALIDATED' },
  };
};

/**
 * How many citizens asked to join a call: a COUNT of the call's own partition (SUBSCRIBER# items), strongly
 * consistent, so a call is never deleted for want of a subscription made a moment ago (gsi2 may not list it yet).
 */
export const countSubscriptionsOfCall = (callId: string): Promise<number> => queryCount(subscribersOfCall(callId));

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
 * Every approved (VALIDATED) subscription of a call, for the debt positions: a Query of the call's partition
 * (SUBSCRIBER# items) with a state filter, read page after page to the end.
 */
export async function listApprovedSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]> {
  // The call's own partition, strongly consistent: the month is billed on the approvals and hours as they are
  // now, not as gsi2 (eventually consistent) may still show them a moment after an operator changed them.
  return (await queryAll(approvedOfCall(callId))).map(toRecord);
}
/** A page of a call's approved subscriptions (the ISEE refresh jobs walk them with the cursor). */
export const pageApprovedSubscriptionsOfCall = (
  callId: string,
  page: { limit?: number; cursor?: string },
): Promise<Page<SubscriptionRecord>> =>
  // The call's own partition, strongly consistent (as listApprovedSubscriptionsOfCall): a refresh started a
  // moment after an approval asks INPS for that subscriber too, which gsi2 might not show yet.
  queryPage(approvedOfCall(callId), page, toRecord, 100);

export async function applyCountDeltas(callId: string, deltas: Record<string, number>): Promise<void> {
  const entries = Object.entries(deltas);
  if (!entries.length) return;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds = entries.map(([key, delta], index) => {
    names[`#c${index}`] = key;
    values[`:c${index}`] = delta;
    return `#c${index} :c${index}`;
  });
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: enrolKeys.counts(callId),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

export async function readCounts(callId: string): Promise<Record<string, number>> {
  const result = await documentClient.send(new GetCommand({ TableName: tableName, Key: enrolKeys.counts(callId) }));
  return (result.Item ?? {}) as Record<string, number>;
}

/** How many approved subscriptions the call has (its counters: no read of the items). */
export const countApprovedSubscriptions = async (callId: string): Promise<number> =>
  (await readCounts(callId)).c_VALIDATED ?? 0;

/** Rewrites the counters from the items (after a full read of the call). */
export async function recountEnrolments(callId: string, records: SubscriptionRecord[]): Promise<void> {
  const counts = countDeltas(records.map((after) => ({ before: null, after })));
  await documentClient.send(new PutCommand({ TableName: tableName, Item: { ...enrolKeys.counts(callId), ...counts } }));
}

/**
 * One page of a call's subscriptions from `start`, their search items written (data stored before the search
 * items existed): idempotent. The data migration 'enrolment-search-item-v1' (functions/migrations) walks
 * every call with it, a page a step.
 */
export async function backfillEnrolmentSearchPage(
  callId: string,
  start?: Record<string, unknown>,
  limit = BACKFILL_PAGE,
): Promise<BackfillPage> {
  const page = await subscriptionsOfCallPage(callId, start, limit);
  await batchPut(page.records.map(enrolmentSearchItem));
  return { written: page.records.length, next: page.next };
}

/**
 * One page of a call's subscriptions: the call's partition, SUBSCRIBER# items only, strongly consistent (the
 * import's recount reads it right after its own writes).
 */
async function subscriptionsOfCallPage(callId: string, start?: Record<string, unknown>, limit?: number) {
  const result = await documentClient.send(
    new QueryCommand({ TableName: tableName, ...subscribersOfCall(callId), ExclusiveStartKey: start, Limit: limit }),
  );
  return { records: (result.Items ?? []).map(toRecord), next: result.LastEvaluatedKey };
}

/** Every subscription of a call (export, import, reset), strongly consistent. */
export const listAllSubscriptionsOfCall = async (callId: string): Promise<SubscriptionRecord[]> =>
  (await queryAll(subscribersOfCall(callId))).map(toRecord);

/**
 * Writes a subscription whose stored version is `expected` (its dataUpdate and state), or a new one when
 * `expected` is null. False, and nothing written, when someone else changed (or created) it meanwhile.
 */
export async function putSubscription(
  record: SubscriptionRecord,
  previous: SubscriptionRecord | null,
  counters = true,
): Promise<boolean> {
  const condition = previous
    ? {
        ConditionExpression: 'dataUpdate = :du AND #state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':du': previous.dataUpdate, ':state': previous.state },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  const written = await unlessConditionFails(
    documentClient.send(new PutCommand({ TableName: tableName, Item: subscriptionItem(record), ...condition })),
  );
  if (!written) return false;
  if (searchedChanged(previous, record)) {
    await unlessConditionFails(
      documentClient.send(
        new PutCommand({
          TableName: tableName,
          Item: enrolmentSearchItem(record),
          ConditionExpression: 'attribute_not_exists(pk) OR dataUpdate < :du',
          ExpressionAttributeValues: { ':du': record.dataUpdate },
        }),
      ),
    );
  }
  if (counters) await applyCountDeltas(record.announcementId, countDeltas([{ before: previous, after: record }]));
  return true;
}

/** Deletes a subscription still at `previous`'s version; false (nothing deleted) otherwise. */
export async function deleteSubscription(previous: SubscriptionRecord, counters = true): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.subscription(previous.announcementId, previous.userId),
        ConditionExpression: 'dataUpdate = :du AND #state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':du': previous.dataUpdate, ':state': previous.state },
      }),
    ),
  );
  if (!deleted) return false;
  // Not a search item written since by a new subscription of the same user.
  await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: enrolKeys.search(previous.announcementId, previous.userId),
        ConditionExpression: 'attribute_not_exists(pk) OR dataUpdate <= :du',
        ExpressionAttributeValues: { ':du': previous.dataUpdate },
      }),
    ),
  );
  if (counters) await applyCountDeltas(previous.announcementId, countDeltas([{ before: previous, after: null }]));
  return true;
}

/** All the subscriptions of a user (a citizen has a few): the ISEE use cases keep their ISEE copy in step. */
async function subscriptionsOfUser(userId: string): Promise<SubscriptionRecord[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.subscriptionsOfUser(userId) },
  });
  return items.map(toRecord);
}

const sameIsee = (a: EnrolmentIsee | null | undefined, b: EnrolmentIsee | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (!!a &&
    !!b &&
    a.valueCents === b.valueCents &&
    a.year === b.year &&
    a.state === b.state &&
    (a.scadenza ?? null) === (b.scadenza ?? null));

/**
 * Rewrites each subscription of a user whose copy of the user differs (`differs`) with `copy` applied,
 * through putSubscription (so every key derived from the copy moves with it). A subscription changed
 * meanwhile is read again (a few tries). Returns how many were rewritten.
 */
async function syncUserCopies(
  userId: string,
  differs: (record: SubscriptionRecord) => boolean,
  copy: (record: SubscriptionRecord) => Partial<SubscriptionRecord>,
  now: string,
): Promise<number> {
  let changed = 0;
  for (const current of await subscriptionsOfUser(userId)) {
    let record: SubscriptionRecord | null = current;
    for (let attempt = 0; record && attempt < 5; attempt++) {
      if (!differs(record)) break;
      if (
        await putSubscription({ ...record, ...copy(record), dataUpdate: laterThan(record.dataUpdate, now) }, record)
      ) {
        changed += 1;
        break;
      }
      record = await getSubscription(record.announcementId, record.userId);
    }
  }
  return changed;
}

/**
 * Copies the user's newest ISEE onto each of their subscriptions (value, year, state: the table's ISEE
 * column, filter, sort and fee).
 */
export const syncUserIsee = (userId: string, isee: EnrolmentIsee | null, now: string): Promise<number> =>
  syncUserCopies(
    userId,
    (record) => !sameIsee(record.isee, isee),
    () => ({
      isee: isee
        ? { valueCents: isee.valueCents, year: isee.year, state: isee.state, scadenza: isee.scadenza ?? null }
        : null,
    }),
    now,
  );

/** The names and fiscal code a subscription copies from its user (the enrolment table's columns and filters). */
export interface SubscribedPerson {
  fiscalCode: string;
  firstName: string;
  lastName: string;
}

/**
 * Copies a user's edited names and fiscal code onto each of their subscriptions: the table shows them,
 * and the surname, first-name and fiscal-code filters read the keys made from them.
 */
export const syncUserNames = (userId: string, person: SubscribedPerson, now: string): Promise<number> =>
  syncUserCopies(
    userId,
    (record) =>
      record.fiscalCode !== person.fiscalCode ||
      record.firstName !== person.firstName ||
      record.lastName !== person.lastName,
    () => ({ fiscalCode: person.fiscalCode, firstName: person.firstName, lastName: person.lastName }),
    now,
  );
