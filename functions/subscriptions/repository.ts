import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EnrolmentSort } from '../domain/enrolment.ts';
import type { SubscriptionState, SubscriptionSummary } from '../domain/subscriptions.ts';
import { laterThan } from '../domain/version-stamp.ts';
import { normaliseSearchText } from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import { BACKFILL_PAGE, batchGet, batchPut, withoutEmpty, decodeCursor, documentClient, encodeCursor, queryAll, queryPage, tableName, unlessConditionFails, type BackfillPage, type CursorList } from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';
import type { KeptFile } from '../domain/files.ts';

/**
 * A subscription is ONE item at pk "CALL#<callId>", sk "SUBSCRIBER#<userId>": a second request of the same
 * citizen for the same call is a failed conditional write, whatever the timing.
 * gsi1 = "USER#<userId>#SUBSCRIPTIONS" / insert time (the citizen's list, newest first);
 * gsi2 = "CALL#<callId>#SUBSCRIPTIONS" / "<FISCALCODE>#<userId>" (the call's subscribers: count, refused delete,
 * fiscal-code prefix of the enrolment table); gsi3–gsi6: the enrolment table's orders (below).
 */
export interface SubscriptionRecord extends SubscriptionSummary {
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  files: KeptFile[];
  /** The user's newest ISEE (any state), copied here for the enrolment table; null when there is none. */
  isee?: EnrolmentIsee | null;
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
  isee: item.isee ?? null,
});

export async function getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null> {
  // Strongly consistent: it is read again after a conditional write lost to another (an eventually consistent
  // GetItem may still return the version that lost).
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.subscription(callId, userId), ConsistentRead: true }));
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

/**
 * How many citizens asked to join a call: a COUNT of the call's own partition (SUBSCRIBER# items), strongly
 * consistent, so a call is never deleted for want of a subscription made a moment ago (gsi2 may not list it yet).
 */
export async function countSubscriptionsOfCall(callId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.call(callId).pk, ':sk': 'SUBSCRIBER#' },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    count += result.Count ?? 0;
    start = result.LastEvaluatedKey;
  } while (start);
  return count;
}

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
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    FilterExpression: '#state = :state',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ':pk': keys.call(callId).pk, ':sk': 'SUBSCRIBER#', ':state': 'VALIDATED' },
    ConsistentRead: true,
  });
  return items.map(toRecord);
}
/** A page of a call's approved subscriptions (the ISEE refresh jobs walk them with the cursor). */
export const pageApprovedSubscriptionsOfCall = (callId: string, page: { limit?: number; cursor?: string }): Promise<Page<SubscriptionRecord>> =>
  // The call's own partition, strongly consistent (as listApprovedSubscriptionsOfCall): a refresh started a
  // moment after an approval asks INPS for that subscriber too, which gsi2 might not show yet.
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      FilterExpression: '#state = :state',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':pk': keys.call(callId).pk, ':sk': 'SUBSCRIBER#', ':state': 'VALIDATED' },
      ConsistentRead: true,
    },
    page,
    toRecord,
    100,
  );

// ---------------------------------------------------------------------------------------------------
// Enrolment management (issue 7): the operator's table of a call's subscriptions.
//
// What the table filters and sorts on is denormalised onto the subscription item, and each order or
// prefix has its own index, under a partition per call (the generic GSIs are shared with the users
// search: their partition values never collide, so no new index is needed):
// - gsi2 = "CALL#<c>#SUBSCRIPTIONS" / "<FISCALCODE>#<userId>"  (fiscal-code prefix; the count and the approved
//   ones are read from the call's own partition, strongly consistent)
// - gsi3 = "CALL#<c>#ENROL#RANK"  / rankKey: "S#<score + 10^9, 10 digits>#<userId>", "U#<userId>" unscored
// - gsi4 = "CALL#<c>#ENROL#ISEE"  / iseeKey: "S#<cents, 12 digits>#<userId>", "U#<userId>" without ISEE
// - gsi5 = "CALL#<c>#ENROLSEARCH#LAST"  / "<lastname>#<firstname>#<userId>" (normalised: lower case, no accents)
// - gsi6 = "CALL#<c>#ENROLSEARCH#FIRST" / "<firstname>#<lastname>#<userId>"
//   These two key a small search item per subscription (pk "CALL#<c>", sk "ENROLSEARCH#<userId>"), not the
//   subscription: a name prefix must read every match to order it, and a common one ("Ros…") matches
//   hundreds. The search item holds only what the filters and orders read (250 bytes against the
//   subscription's 1,240): dynalite reads 700 of them in less than half the time (p50 44 → 19 ms, measured).
//   The page's rows are then read whole. It is written after the subscription, only when what it holds
//   changed, and never over a newer version (its dataUpdate): a crash between the two writes leaves it a
//   version behind until the subscription's next write.
// Scored (or with-ISEE) rows are one key range and the others another: "unscored last" in both
// directions is two ranges read one after the other (the cursor says which), never a sort in memory.
//
// `total` is kept cheap by a counter item per call (pk "CALL#<c>", sk "ENROLMENT_COUNTS"): every write of
// a subscription ADDs the difference of what the item counts for before and after (all, per state, and
// per 200 € ISEE bucket, all and VALIDATED only). A COUNT over 5,000 items reads them all (≈260 RCU and
// ≈0.5 s on dynalite, measured): the counter is one GetItem. "ISEE above X" adds the buckets above X's
// and counts X's own bucket (≈1/300 of the range). dynalite has no transactions, so the counter write
// follows the subscription's conditional write: a crash between the two leaves it off by one, and the
// next full read of the call (export, import) rewrites it from the items (recountEnrolments).
// ---------------------------------------------------------------------------------------------------

/** The latest ISEE of the user, copied onto the subscription (kept in step by the ISEE use cases). */
export interface EnrolmentIsee {
  valueCents: number;
  year: number;
  state: string;
  /** Its expiry (yyyy-mm-dd): the month's fee counts it only until then (domain/fee.ts). */
  scadenza?: string | null;
}

const ISEE_BUCKET_CENTS = 20_000;
const RANK_OFFSET = 1_000_000_000;
const COUNTS_SK = 'ENROLMENT_COUNTS';
const enrolKeys = {
  rank: (callId: string) => `CALL#${callId}#ENROL#RANK`,
  isee: (callId: string) => `CALL#${callId}#ENROL#ISEE`,
  last: (callId: string) => `CALL#${callId}#ENROLSEARCH#LAST`,
  first: (callId: string) => `CALL#${callId}#ENROLSEARCH#FIRST`,
  search: (callId: string, userId: string) => ({ pk: `CALL#${callId}`, sk: `ENROLSEARCH#${userId}` }),
  counts: (callId: string) => ({ pk: `CALL#${callId}`, sk: COUNTS_SK }),
};

export const rankKey = (score: number | null, userId: string) =>
  score === null ? `U#${userId}` : `S#${String(score + RANK_OFFSET).padStart(10, '0')}#${userId}`;
export const iseeKey = (isee: EnrolmentIsee | null | undefined, userId: string) =>
  isee ? `S#${numericSortKey(isee.valueCents)}#${userId}` : `U#${userId}`;
const normaliseFiscalCode = (text: string | null | undefined) => (text ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The whole item of a subscription: its fields and every key and filter attribute derived from them. */
export function subscriptionItem(record: SubscriptionRecord): Record<string, unknown> {
  const { announcementId: callId, userId } = record;
  const nLast = normaliseSearchText(record.lastName);
  const nFirst = normaliseSearchText(record.firstName);
  const nFiscal = normaliseFiscalCode(record.fiscalCode);
  const item: Record<string, unknown> = {
    ...keys.subscription(callId, userId),
    gsi1pk: keys.subscriptionsOfUser(userId),
    gsi1sk: `${record.dataInsert}#${callId}`,
    gsi2pk: keys.subscriptionsOfCall(callId),
    gsi2sk: `${nFiscal}#${userId}`,
    gsi3pk: enrolKeys.rank(callId),
    gsi3sk: rankKey(record.rankingScore, userId),
    gsi4pk: enrolKeys.isee(callId),
    gsi4sk: iseeKey(record.isee, userId),
    nLast,
    nFirst,
    nFiscal,
    ...(record.isee ? { iseeCents: record.isee.valueCents } : {}),
    ...record,
  };
  return withoutEmpty(item);
}

/** The search item of a subscription (see above): what the name filters and the orders read. */
export function enrolmentSearchItem(record: SubscriptionRecord): Record<string, unknown> {
  const { announcementId: callId, userId } = record;
  const nLast = normaliseSearchText(record.lastName);
  const nFirst = normaliseSearchText(record.firstName);
  const item: Record<string, unknown> = {
    ...enrolKeys.search(callId, userId),
    gsi5pk: enrolKeys.last(callId),
    gsi5sk: `${nLast}#${nFirst}#${userId}`,
    gsi6pk: enrolKeys.first(callId),
    gsi6sk: `${nFirst}#${nLast}#${userId}`,
    userId,
    state: record.state,
    nLast,
    nFirst,
    rankingScore: record.rankingScore,
    iseeCents: record.isee?.valueCents,
    dataUpdate: record.dataUpdate,
  };
  return withoutEmpty(item);
}

const searchedChanged = (before: SubscriptionRecord | null, after: SubscriptionRecord) =>
  !before ||
  before.state !== after.state ||
  before.rankingScore !== after.rankingScore ||
  (before.isee?.valueCents ?? null) !== (after.isee?.valueCents ?? null) ||
  before.firstName !== after.firstName ||
  before.lastName !== after.lastName;

/** The counters an item counts for (see above). */
export function countKeys(record: Pick<SubscriptionRecord, 'state' | 'isee'> | null): string[] {
  if (!record) return [];
  const counted = ['c_all', `c_${record.state}`];
  if (record.isee) {
    const bucket = Math.floor(record.isee.valueCents / ISEE_BUCKET_CENTS);
    counted.push(`b_${bucket}`);
    if (record.state === 'VALIDATED') counted.push(`v_${bucket}`);
  }
  return counted;
}

/** What to ADD to each counter when items go from `before` to `after`. */
export function countDeltas(changes: { before: Pick<SubscriptionRecord, 'state' | 'isee'> | null; after: Pick<SubscriptionRecord, 'state' | 'isee'> | null }[]) {
  const deltas: Record<string, number> = {};
  for (const { before, after } of changes) {
    for (const key of countKeys(before)) deltas[key] = (deltas[key] ?? 0) - 1;
    for (const key of countKeys(after)) deltas[key] = (deltas[key] ?? 0) + 1;
  }
  for (const key of Object.keys(deltas)) if (deltas[key] === 0) delete deltas[key];
  return deltas;
}

export const enrolmentStats = { consumedCapacity: 0, requests: 0 };
const track = <T extends { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }>(result: T): T => {
  enrolmentStats.requests += 1;
  const capacity = result.ConsumedCapacity;
  for (const entry of Array.isArray(capacity) ? capacity : capacity ? [capacity] : []) enrolmentStats.consumedCapacity += entry.CapacityUnits ?? 0;
  return result;
};

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
    new UpdateCommand({ TableName: tableName, Key: enrolKeys.counts(callId), UpdateExpression: `ADD ${adds.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values }),
  );
}

async function readCounts(callId: string): Promise<Record<string, number>> {
  const result = track(await documentClient.send(new GetCommand({ TableName: tableName, Key: enrolKeys.counts(callId), ReturnConsumedCapacity: 'TOTAL' })));
  return (result.Item ?? {}) as Record<string, number>;
}

/** How many approved subscriptions the call has (its counters: no read of the items). */
export const countApprovedSubscriptions = async (callId: string): Promise<number> => (await readCounts(callId)).c_VALIDATED ?? 0;

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
export async function backfillEnrolmentSearchPage(callId: string, start?: Record<string, unknown>, limit = BACKFILL_PAGE): Promise<BackfillPage> {
  const page = await subscriptionsOfCallPage(callId, start, limit);
  await batchPut(page.records.map(enrolmentSearchItem));
  return { written: page.records.length, next: page.next };
}


/**
 * One page of a call's subscriptions: the call's partition, SUBSCRIBER# items only, strongly consistent (the
 * import's recount reads it right after its own writes).
 */
async function subscriptionsOfCallPage(callId: string, start?: Record<string, unknown>, limit?: number) {
  const result = track(
    await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.call(callId).pk, ':sk': 'SUBSCRIBER#' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
        Limit: limit,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    ),
  );
  return { records: (result.Items ?? []).map(toRecord), next: result.LastEvaluatedKey };
}

/** Every subscription of a call (export, import, reset), strongly consistent. */
export async function listAllSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]> {
  const found: SubscriptionRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await subscriptionsOfCallPage(callId, start);
    found.push(...page.records);
    start = page.next;
  } while (start);
  return found;
}

/**
 * Writes a subscription whose stored version is `expected` (its dataUpdate and state), or a new one when
 * `expected` is null. False, and nothing written, when someone else changed (or created) it meanwhile.
 */
export async function putSubscription(record: SubscriptionRecord, previous: SubscriptionRecord | null, counters = true): Promise<boolean> {
  const condition = previous
    ? {
        ConditionExpression: 'dataUpdate = :du AND #state = :state',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':du': previous.dataUpdate, ':state': previous.state },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
  const written = await unlessConditionFails(documentClient.send(new PutCommand({ TableName: tableName, Item: subscriptionItem(record), ...condition })));
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
  const found: SubscriptionRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({ TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.subscriptionsOfUser(userId) }, ExclusiveStartKey: startKey }),
    );
    for (const item of result.Items ?? []) found.push(toRecord(item));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return found;
}

const sameIsee = (a: EnrolmentIsee | null | undefined, b: EnrolmentIsee | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.valueCents === b.valueCents && a.year === b.year && a.state === b.state && (a.scadenza ?? null) === (b.scadenza ?? null));

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
      if (await putSubscription({ ...record, ...copy(record), dataUpdate: laterThan(record.dataUpdate, now) }, record)) {
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
    () => ({ isee: isee ? { valueCents: isee.valueCents, year: isee.year, state: isee.state, scadenza: isee.scadenza ?? null } : null }),
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
    (record) => record.fiscalCode !== person.fiscalCode || record.firstName !== person.firstName || record.lastName !== person.lastName,
    () => ({ fiscalCode: person.fiscalCode, firstName: person.firstName, lastName: person.lastName }),
    now,
  );

// --- the table's pages -----------------------------------------------------------------------------

export interface EnrolmentFilters {
  fiscalCode?: string;
  firstName?: string;
  lastName?: string;
  /** Cents: rows whose ISEE is greater than this. */
  iseeAbove?: number;
  confirmed?: boolean;
  sort: EnrolmentSort;
  limit: number;
  cursor?: string;
}

/** What a row of the table needs of a subscription: the list reads only these attributes (ProjectionExpression). */
export type EnrolmentListRecord = Pick<
  SubscriptionRecord,
  'id' | 'userId' | 'announcementId' | 'state' | 'rankingScore' | 'weeklyHour' | 'fiscalCode' | 'firstName' | 'lastName' | 'isee' | 'dataUpdate'
>;
export type EnrolmentRecordPage = Page<EnrolmentListRecord> & { total: number };

const LIST_FIELDS = ['id', 'userId', 'announcementId', 'state', 'rankingScore', 'weeklyHour', 'fiscalCode', 'firstName', 'lastName', 'isee', 'dataUpdate'] as const;
/** The list's ProjectionExpression: a row's attributes, a third of the item (the call's copy, the files and the keys stay). */
const listProjection = {
  ProjectionExpression: LIST_FIELDS.map((_, i) => `#p${i}`).join(', '),
  names: Object.fromEntries(LIST_FIELDS.map((field, i) => [`#p${i}`, field])),
};
/** A row of the table out of its projected item (LIST_FIELDS), read as a whole subscription is. */
const toListRecord = (item: Record<string, any>): EnrolmentListRecord => {
  const record = toRecord(item);
  return Object.fromEntries(LIST_FIELDS.map((field) => [field, record[field]])) as EnrolmentListRecord;
};

const MAX_ROUNDS = 8;

/** What a prefix filter reads of every match: enough to put it in the table's order. */
interface SortFields {
  userId: string;
  rankingScore: number | null;
  iseeCents: number | null;
}
const SORT_FIELDS = ['userId', 'rankingScore', 'iseeCents'] as const;
const sortProjection = {
  ProjectionExpression: SORT_FIELDS.map((_, i) => `#s${i}`).join(', '),
  names: Object.fromEntries(SORT_FIELDS.map((field, i) => [`#s${i}`, field])),
};

const compareBySort = (sort: EnrolmentSort) => {
  const descending = sort.startsWith('-');
  const valueOf = sort.endsWith('ranking') ? (r: SortFields) => r.rankingScore : (r: SortFields) => r.iseeCents;
  return (a: SortFields, b: SortFields) => {
    const [x, y] = [valueOf(a), valueOf(b)];
    if (x === null || y === null) return x === y ? a.userId.localeCompare(b.userId) : x === null ? 1 : -1;
    return (descending ? y - x : x - y) || a.userId.localeCompare(b.userId);
  };
};

/** The rows matching the filters, one page in the requested order, and how many match in all. */
export async function listEnrolments(callId: string, filters: EnrolmentFilters): Promise<EnrolmentRecordPage> {
  const fiscal = normaliseFiscalCode(filters.fiscalCode);
  const last = normaliseSearchText(filters.lastName);
  const first = normaliseSearchText(filters.firstName);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  const addCondition = (condition: string, name: string, attribute: string, value: unknown) => {
    names[`#${name}`] = attribute;
    values[`:${name}`] = value;
    conditions.push(condition);
  };
  // The cursor is bound to the call, the filters and the order: it cannot be replayed on another list.
  const list: CursorList = {
    IndexName: `enrolments:${filters.sort}`,
    KeyConditionExpression: 'call = :call AND filters = :filters',
    ExpressionAttributeValues: { ':call': callId, ':filters': JSON.stringify([fiscal, last, first, filters.iseeAbove ?? null, !!filters.confirmed]) },
  };
  const position = decodeCursor(filters.cursor, list) as { ph?: number; k?: Record<string, unknown> | null; o?: number } | undefined;
  enrolmentStats.consumedCapacity = 0;
  enrolmentStats.requests = 0;

  // 1. A prefix filter: its own index reads exactly the matches (the fiscal code's on the subscriptions, the
  // names' on the search items), ordered in memory; then only the page's rows are read whole.
  const prefix = fiscal
    ? { index: 'gsi2', pk: keys.subscriptionsOfCall(callId), value: fiscal }
    : last
      ? { index: 'gsi5', pk: enrolKeys.last(callId), value: last }
      : first
        ? { index: 'gsi6', pk: enrolKeys.first(callId), value: first }
        : null;
  if (fiscal && prefix?.index !== 'gsi2') addCondition('begins_with(#fc, :fc)', 'fc', 'nFiscal', fiscal);
  if (last && prefix?.index !== 'gsi5') addCondition('begins_with(#ln, :ln)', 'ln', 'nLast', last);
  if (first && prefix?.index !== 'gsi6') addCondition('begins_with(#fn, :fn)', 'fn', 'nFirst', first);
  if (filters.confirmed) addCondition('#st = :st', 'st', 'state', 'VALIDATED');
  if (filters.iseeAbove !== undefined) addCondition('#ic > :ic', 'ic', 'iseeCents', filters.iseeAbove);
  const filter = conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names } : {};

  if (prefix) {
    const matches: SortFields[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = track(
        await documentClient.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: prefix.index,
            KeyConditionExpression: `#pk = :pk AND begins_with(#sk, :prefix)`,
            ...filter,
            ProjectionExpression: sortProjection.ProjectionExpression,
            ExpressionAttributeNames: { ...names, ...sortProjection.names, '#pk': `${prefix.index}pk`, '#sk': `${prefix.index}sk` },
            ExpressionAttributeValues: { ...values, ':pk': prefix.pk, ':prefix': prefix.value },
            ExclusiveStartKey: startKey,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        ),
      );
      for (const item of result.Items ?? []) matches.push({ userId: item.userId, rankingScore: item.rankingScore ?? null, iseeCents: item.iseeCents ?? null });
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    const offset = position?.o ?? 0;
    const page = matches.sort(compareBySort(filters.sort)).slice(offset, offset + filters.limit);
    const rows = await batchGet(
      page.map((match) => keys.subscription(callId, match.userId)),
      { projection: listProjection.ProjectionExpression, names: listProjection.names, onConsumed: (units) => track({ ConsumedCapacity: { CapacityUnits: units } }) },
    );
    const byUser = new Map(rows.map((item) => [item.userId as string, toListRecord(item)]));
    // A row deleted since its search item was read is left out.
    const items = page.flatMap((match) => byUser.get(match.userId) ?? []);
    return { items, nextCursor: offset + filters.limit < matches.length ? encodeCursor({ o: offset + filters.limit }, list) : null, total: matches.length };
  }

  // 2. No prefix: the index of the order, scored (with ISEE) range first, then the others.
  const counts = readCounts(callId);
  const byIsee = filters.sort.endsWith('isee');
  const descending = filters.sort.startsWith('-');
  const index = byIsee ? 'gsi4' : 'gsi3';
  const pk = byIsee ? enrolKeys.isee(callId) : enrolKeys.rank(callId);
  const total = enrolmentTotal(callId, filters, counts);

  // "ISEE above" on the ISEE order is a key range: no filter needed for it.
  const iseeRange = byIsee && filters.iseeAbove !== undefined;
  if (iseeRange) {
    conditions.splice(conditions.indexOf('#ic > :ic'), 1);
    delete names['#ic'];
    delete values[':ic'];
  }
  const phaseFilter = conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names } : { ExpressionAttributeNames: {} };
  const phases = [
    iseeRange
      ? { condition: '#pk = :pk AND #sk BETWEEN :from AND :to', values: { ':from': `S#${numericSortKey(filters.iseeAbove! + 1)}`, ':to': 'S#~' }, forward: !descending }
      : { condition: '#pk = :pk AND begins_with(#sk, :range)', values: { ':range': 'S#' }, forward: !descending },
    // The ISEE index's "U#" rows have no ISEE, so none is above X; the ranking index's are the unscored
    // rows, whatever their ISEE: the filter keeps those above X.
    ...(iseeRange ? [] : [{ condition: '#pk = :pk AND begins_with(#sk, :range)', values: { ':range': 'U#' }, forward: true }]),
  ];
  // Rounds large enough for the share of the rows read that the filters keep (estimated from the
  // counters alone, so the page is read while the exact total is counted), with a quarter more, so a
  // filtered page is one Query; without a filter the page is read while the counters are.
  let share = 1;
  if (conditions.length) {
    const counted = await counts;
    const kept = estimateTotal(counted, filters);
    const read = iseeRange ? estimateTotal(counted, { iseeAbove: filters.iseeAbove }) : (counted.c_all ?? 0);
    share = Math.max(0.02, Math.min(1, kept / Math.max(1, read)) / 1.25);
  }

  const found: EnrolmentListRecord[] = [];
  let phase = position?.ph ?? 0;
  let startKey = position?.k ?? undefined;
  let next: { ph: number; k: Record<string, unknown> | null } | null = null;
  for (let round = 0; phase < phases.length && round < MAX_ROUNDS; round++) {
    const need = filters.limit - found.length;
    const current = phases[phase];
    const result = track(
      await documentClient.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: current.condition,
          ...phaseFilter,
          ProjectionExpression: listProjection.ProjectionExpression,
          ExpressionAttributeNames: { ...phaseFilter.ExpressionAttributeNames, ...listProjection.names, '#pk': `${index}pk`, '#sk': `${index}sk` },
          ExpressionAttributeValues: { ...values, ':pk': pk, ...current.values },
          ScanIndexForward: current.forward,
          // One more than needed: a page that ends a range knows it did.
          Limit: Math.min(500, Math.ceil((need + 1) / share)),
          ExclusiveStartKey: startKey,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      ),
    );
    const items = result.Items ?? [];
    let stopped = false;
    for (const item of items) {
      if (found.length === filters.limit) {
        // One more match than the page: the next page starts after the last one returned.
        const lastItem = found.at(-1)!;
        next = { ph: phase, k: { pk: keys.subscription(lastItem.announcementId, lastItem.userId).pk, sk: keys.subscription(lastItem.announcementId, lastItem.userId).sk, [`${index}pk`]: pk, [`${index}sk`]: byIsee ? iseeKey(lastItem.isee, lastItem.userId) : rankKey(lastItem.rankingScore, lastItem.userId) } };
        stopped = true;
        break;
      }
      found.push(toListRecord(item));
    }
    if (stopped) break;
    if (result.LastEvaluatedKey) {
      startKey = result.LastEvaluatedKey;
      if (round === MAX_ROUNDS - 1) next = { ph: phase, k: startKey };
      continue;
    }
    phase += 1;
    startKey = undefined;
    if (found.length === filters.limit && phase < phases.length) {
      next = { ph: phase, k: null };
      break;
    }
  }
  return { items: found, nextCursor: next ? encodeCursor(next, list) : null, total: await total };
}

/** How many rows match the state and "ISEE above" filters, from the counters alone: X's own bucket counts half. */
function estimateTotal(counted: Record<string, number>, filters: Pick<EnrolmentFilters, 'iseeAbove' | 'confirmed'>): number {
  if (filters.iseeAbove === undefined) return (filters.confirmed ? counted.c_VALIDATED : counted.c_all) ?? 0;
  const bucket = Math.floor(filters.iseeAbove / ISEE_BUCKET_CENTS);
  const prefix = filters.confirmed ? 'v_' : 'b_';
  let total = 0;
  for (const [key, value] of Object.entries(counted)) {
    if (!key.startsWith(prefix)) continue;
    const n = Number(key.slice(2));
    if (n > bucket) total += Number(value);
    else if (n === bucket) total += Number(value) / 2;
  }
  return total;
}

/** How many rows match filters without a prefix: from the counters, plus one bucket counted for "ISEE above". */
async function enrolmentTotal(callId: string, filters: EnrolmentFilters, counts: Promise<Record<string, number>>): Promise<number> {
  const counted = await counts;
  if (filters.iseeAbove === undefined) return (filters.confirmed ? counted.c_VALIDATED : counted.c_all) ?? 0;
  const bucket = Math.floor(filters.iseeAbove / ISEE_BUCKET_CENTS);
  const prefix = filters.confirmed ? 'v_' : 'b_';
  let total = 0;
  for (const [key, value] of Object.entries(counted)) {
    if (key.startsWith(prefix) && Number(key.slice(2)) > bucket) total += Number(value);
  }
  // Within X's own bucket: the rows above X, a short key range of the ISEE index.
  const bucketEnd = (bucket + 1) * ISEE_BUCKET_CENTS - 1;
  if (filters.iseeAbove < bucketEnd) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = track(
        await documentClient.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi4',
            KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk BETWEEN :from AND :to',
            ...(filters.confirmed ? { FilterExpression: '#st = :st', ExpressionAttributeNames: { '#st': 'state' } } : {}),
            ExpressionAttributeValues: { ':pk': enrolKeys.isee(callId), ':from': `S#${numericSortKey(filters.iseeAbove + 1)}`, ':to': `S#${numericSortKey(bucketEnd)}#~`, ...(filters.confirmed ? { ':st': 'VALIDATED' } : {}) },
            Select: 'COUNT',
            ExclusiveStartKey: startKey,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        ),
      );
      total += result.Count ?? 0;
      startKey = result.LastEvaluatedKey;
    } while (startKey);
  }
  return total;
}
