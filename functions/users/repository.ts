import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type BatchGetCommandOutput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  interleaveNames,
  normaliseEmail,
  normalisePhone,
  normaliseSearchText,
  type LastIsee,
  type User,
  type UserSearch,
  type UserState,
  toUser,
} from '../domain/users.ts';
import type { NewUserInput } from '../domain/user-input.ts';
import type { Page } from '../domain/validation.ts';
import { batchPut, countUnder, decodeCursor, documentClient, encodeCursor, queryAll, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

export const USERS_PAGE_SIZE = 15;

/** The stored fields of a user (besides keys and search attributes). */
export interface UserRecord {
  id: string;
  firstName: string;
  lastName: string;
  fiscalCode: string;
  birthDate?: string | null;
  email?: string | null;
  emailPec?: string | null;
  phoneNumber?: string | null;
  address?: string | null;
  addressNumber?: string | null;
  cap?: string | null;
  city?: string | null;
  country?: string | null;
  nation?: string | null;
  municipioId?: string | null;
  state: UserState;
  dataInsert: string;
  subject?: string | null;
  lastIsee?: LastIsee | null;
  iseeCount?: number;
}

/** A user as stored (search attributes aside). */
export type StoredUser = UserRecord & { updatedAt?: string; createdAt?: string };

/** What an update may change: everything but the id and the insert date. */
export type UserChanges = Partial<Omit<UserRecord, 'id' | 'dataInsert'>>;

/**
 * The search attributes of a user, derived from its fields (README, "DynamoDB keys"): one sparse
 * prefix index per searchable field, the sort key starting with the normalised value, and the
 * normalised values again as plain attributes for the filters that combine with the chosen index.
 * null means "remove the attribute" (the user leaves that index).
 */
export function searchAttributes(user: Pick<UserRecord, 'id' | 'firstName' | 'lastName' | 'fiscalCode' | 'email' | 'phoneNumber' | 'state'>) {
  const last = normaliseSearchText(user.lastName);
  const first = normaliseSearchText(user.firstName);
  const email = normaliseEmail(user.email);
  const phone = normalisePhone(user.phoneNumber);
  const byName = `${last}#${first}#${user.id}`;
  return {
    gsi1pk: keys.usersByLastName,
    gsi1sk: byName,
    gsi2pk: user.state === 'LOADED' ? keys.usersLoaded : null,
    gsi2sk: user.state === 'LOADED' ? byName : null,
    gsi3pk: keys.usersByFirstName,
    gsi3sk: `${first}#${last}#${user.id}`,
    gsi4pk: keys.usersByFiscalCode,
    gsi4sk: `${user.fiscalCode.toUpperCase()}#${user.id}`,
    gsi5pk: email ? keys.usersByEmail : null,
    gsi5sk: email ? `${email}#${user.id}` : null,
    gsi6pk: phone ? keys.usersByPhone : null,
    gsi6sk: phone ? `${phone}#${user.id}` : null,
    nLast: last,
    nFirst: first,
    nEmail: email || null,
    nPhone: phone || null,
  };
}

/**
 * The names item of a user (pk USER#<id>, sk NAMES): the search by last and first name together, on gsi1
 * under USERS#NAMES with the two names interleaved (domain/users.ts interleaveNames), so that combination
 * reads only its page. Written with the user (insertUser), rewritten when a name changes, deleted with it;
 * backfillUserNames writes it for users stored before it existed.
 */
export function nameItem(user: Pick<UserRecord, 'id' | 'firstName' | 'lastName'>) {
  const last = normaliseSearchText(user.lastName);
  const first = normaliseSearchText(user.firstName);
  return { ...keys.userNames(user.id), gsi1pk: keys.usersByNames, gsi1sk: `${interleaveNames(last, first)}#${user.id}`, userId: user.id, nLast: last, nFirst: first };
}

/** Every item a new user is stored as: the user and its names item (the seed, the benchmarks, insertUser). */
export const userItems = (user: UserRecord) => [userItem(user), nameItem(user)];

/** The whole item of a user, for a first write (null attributes dropped). */
export function userItem(user: UserRecord) {
  const item: Record<string, unknown> = { ...keys.user(user.id), ...user, ...searchAttributes(user) };
  for (const [key, value] of Object.entries(item)) if (value === null || value === undefined) delete item[key];
  return item;
}

export async function getUserItem(id: string): Promise<StoredUser | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }));
  return (Item as StoredUser | undefined) ?? null;
}

export async function getUser(id: string): Promise<User | null> {
  const item = await getUserItem(id);
  return item ? toUser(item) : null;
}

/**
 * The user record of a fiscal code: the same person may have been registered by an operator before
 * signing in with SPID/CIE. The record's id is opaque, so fiscal codes stay out of URLs.
 */
export async function findUserIdByFiscalCode(fiscalCode: string): Promise<string | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.userByFiscalCode(fiscalCode) }));
  return (Item?.userId as string | undefined) ?? null;
}

/** Claims a fiscal code for a user id (the fiscal-code lookup item); false when another user has it. */
export async function claimFiscalCode(fiscalCode: string, userId: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.userByFiscalCode(fiscalCode), userId }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  return written !== null;
}

/** Frees a fiscal code, only if it still points at that user. */
export async function releaseFiscalCode(fiscalCode: string, userId: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({ TableName: tableName, Key: keys.userByFiscalCode(fiscalCode), ConditionExpression: 'userId = :id', ExpressionAttributeValues: { ':id': userId } }),
    ),
  );
}

/** Writes a new user record with its search attributes; false when the id already exists (nothing written). */
export async function insertUser(record: UserRecord, now: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({ TableName: tableName, Item: { ...userItem(record), updatedAt: now, createdAt: now }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  if (written !== null) await putNameItem(record);
  return written !== null;
}

/** Writes (or rewrites) a user's names item; the search checks each hit against the user itself. */
async function putNameItem(user: Pick<UserRecord, 'id' | 'firstName' | 'lastName'>): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: tableName, Item: nameItem(user) }));
}

/**
 * Writes the names item of every user stored before it existed (a one-off after the deploy that brought
 * it; locally at each start, lib/local/runtime.ts): the users of gsi1 (queryAll), their names items in
 * batches of 25, through nameItem, the same function the seed and insertUser use. Idempotent. Returns
 * how many users it went through.
 */
export async function backfillUserNames(): Promise<number> {
  const users = (await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.usersByLastName },
    ProjectionExpression: 'id, firstName, lastName',
  })) as Pick<UserRecord, 'id' | 'firstName' | 'lastName'>[];
  await batchPut(users.map(nameItem));
  return users.length;
}

/**
 * A user registered with a fiscal code of their own: the lookup item is claimed first, then the record
 * written. null when the fiscal code is taken (nothing written). The id and time default to new ones for
 * the demo data (lib/local); the use case passes its own.
 */
export async function createUser(input: NewUserInput, id: string = randomUUID(), now: string = new Date().toISOString()): Promise<User | null> {
  if (!(await claimFiscalCode(input.fiscalCode, id))) return null;
  const record: UserRecord = { id, ...input, state: 'VALIDATED', dataInsert: now };
  await insertUser(record, now);
  return toUser(record);
}

/**
 * Changes some fields of a user with one UpdateItem (so fields it does not name are never overwritten),
 * recomputing the search attributes. null removes a field. Returns the user before and after; null when
 * the user does not exist.
 */
export async function updateUserFields(id: string, changes: UserChanges, now: string): Promise<{ before: StoredUser; after: StoredUser } | null> {
  const before = await getUserItem(id);
  if (!before) return null;
  const merged = { ...before, ...changes } as UserRecord;
  const fields: Record<string, unknown> = { ...changes, ...searchAttributes(merged), updatedAt: now };
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  Object.entries(fields).forEach(([key, value], index) => {
    names[`#f${index}`] = key;
    if (value === null || value === undefined || value === '') remove.push(`#f${index}`);
    else {
      set.push(`#f${index} = :v${index}`);
      values[`:v${index}`] = value;
    }
  });
  const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].join(' ').trim();
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(id),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!written) return null;
  const after = written.Attributes as StoredUser;
  if (changes.firstName !== undefined || changes.lastName !== undefined) await putNameItem(after);
  return { before, after };
}

/**
 * Deletes a user record, only if its ISEE count is still the one the caller read (an ISEE recorded in
 * between keeps the user). False when nothing was deleted.
 */
export async function deleteUser(id: string, expected: { iseeCount: number }): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.user(id),
        ConditionExpression: expected.iseeCount === 0 ? 'attribute_exists(pk) AND (attribute_not_exists(iseeCount) OR iseeCount = :count)' : 'iseeCount = :count',
        ExpressionAttributeValues: { ':count': expected.iseeCount },
      }),
    ),
  );
  if (deleted !== null) await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.userNames(id) }));
  return deleted !== null;
}

// ---------------------------------------------------------------------------------------------------
// Search

interface IndexChoice {
  index: string;
  pkName: string;
  skName: string;
  pk: string;
  prefix: string | null;
}

/** Read cost of the last search, for the metrics and the benchmark. */
export const searchStats = { consumedCapacity: 0, queries: 0, evaluated: 0 };

const MAX_ROUNDS = 10;
const ROUND_LIMIT = 200;
/** An e-mail prefix this long picks the e-mail index even when a name is given too. */
const SELECTIVE_EMAIL = 5;


/**
 * Users matching every filter, fifteen per page, without a scan: the most selective filter picks the
 * index (fiscal code, phone, e-mail, 'Da validare', last and first name together, last name, first name;
 * none → all users by last name), queried with begins_with on its sort key; the other filters are a
 * FilterExpression on the normalised attributes. Filtered pages are filled by a few bounded rounds of Query.
 * Last and first name together read the names items (nameItem), whose key holds both names, then get the
 * page's users in one BatchGetItem; a hit whose user no longer matches (a rename in between) is dropped.
 */
export async function searchUsers(search: UserSearch): Promise<Page<User>> {
  const limit = search.limit ?? USERS_PAGE_SIZE;
  const fiscalCode = (search.fiscalCode ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  const phone = normalisePhone(search.phoneNumber);
  const email = normaliseEmail(search.email);
  const last = normaliseSearchText(search.lastName);
  const first = normaliseSearchText(search.firstName);
  const loaded = search.loaded;
  // Both names and nothing more selective: the names items, keyed by the two names interleaved.
  const byNames = !fiscalCode && !phone && !email && !loaded && !!last && !!first;
  const shared = Math.min(last.length, first.length);

  let choice: IndexChoice;
  if (fiscalCode) choice = { index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: keys.usersByFiscalCode, prefix: fiscalCode };
  else if (phone) choice = { index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pk: keys.usersByPhone, prefix: phone };
  // A short e-mail prefix (the start of a first name, usually) selects less than a name prefix: the name's index reads instead.
  else if (email && (email.length >= SELECTIVE_EMAIL || (!last && !first))) choice = { index: 'gsi5', pkName: 'gsi5pk', skName: 'gsi5sk', pk: keys.usersByEmail, prefix: email };
  else if (loaded) choice = { index: 'gsi2', pkName: 'gsi2pk', skName: 'gsi2sk', pk: keys.usersLoaded, prefix: last ? `${last}` : null };
  else if (byNames) choice = { index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: keys.usersByNames, prefix: interleaveNames(last.slice(0, shared), first.slice(0, shared)) };
  else if (last) choice = { index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: keys.usersByLastName, prefix: last };
  else if (first) choice = { index: 'gsi3', pkName: 'gsi3pk', skName: 'gsi3sk', pk: keys.usersByFirstName, prefix: first };
  else choice = { index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: keys.usersByLastName, prefix: null };

  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':pk': choice.pk };
  const names: Record<string, string> = { '#pk': choice.pkName };
  if (choice.prefix) {
    names['#sk'] = choice.skName;
    values[':prefix'] = choice.prefix;
  }
  const addFilter = (attr: string, value: string, index: string) => {
    if (!value || choice.index === index) return;
    names[`#${attr}`] = attr;
    values[`:${attr}`] = value;
    conditions.push(`begins_with(#${attr}, :${attr})`);
  };
  if (byNames) {
    // The key holds the first `shared` letters of each name: the longer prefix's rest is a filter.
    if (last.length > shared) addFilter('nLast', last, '');
    if (first.length > shared) addFilter('nFirst', first, '');
  } else {
    addFilter('fiscalCode', fiscalCode, 'gsi4');
    addFilter('nPhone', phone, 'gsi6');
    addFilter('nEmail', email, 'gsi5');
    // The loaded index is sorted by last name, so its prefix already applies the last name.
    if (!(choice.index === 'gsi2' && last)) addFilter('nLast', last, 'gsi1');
    addFilter('nFirst', first, 'gsi3');
  }
  if (loaded && choice.index !== 'gsi2') {
    names['#state'] = 'state';
    values[':loaded'] = 'LOADED';
    conditions.push('#state = :loaded');
  }

  const input: Omit<QueryCommandInput, 'TableName'> = {
    IndexName: choice.index,
    KeyConditionExpression: choice.prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    FilterExpression: conditions.length ? conditions.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnConsumedCapacity: 'TOTAL',
  };

  const found: Record<string, any>[] = [];
  let startKey = decodeCursor(search.cursor, input);
  let nextKey: Record<string, unknown> | null = null;
  searchStats.consumedCapacity = 0;
  searchStats.queries = 0;
  searchStats.evaluated = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...input,
        // Without filters a page is exactly one Query; with filters, growing rounds fill the page (DynamoDB
        // reads Limit items whatever the filter keeps, so a first round of a page's size wastes nothing when
        // the filter keeps most of them, as on the names items).
        Limit: conditions.length ? Math.min(ROUND_LIMIT, (limit - found.length) * (byNames ? 2 ** round : 4 ** (round + 1))) : limit - found.length,
        ExclusiveStartKey: startKey,
      }),
    );
    searchStats.queries += 1;
    searchStats.evaluated += result.ScannedCount ?? 0;
    searchStats.consumedCapacity += result.ConsumedCapacity?.CapacityUnits ?? 0;
    const items = result.Items ?? [];
    let stoppedEarly = false;
    for (const item of items) {
      found.push(item);
      if (found.length === limit) {
        stoppedEarly = item !== items[items.length - 1] || !!result.LastEvaluatedKey;
        nextKey = stoppedEarly ? { pk: item.pk, sk: item.sk, [choice.pkName]: item[choice.pkName], [choice.skName]: item[choice.skName] } : null;
        break;
      }
    }
    if (found.length === limit) break;
    startKey = result.LastEvaluatedKey;
    if (!startKey) break;
    // Bounded work per request: a very unselective combination returns a short page and a cursor.
    if (round === MAX_ROUNDS - 1) nextKey = startKey;
  }
  const users = byNames ? await usersOfNameItems(found, last, first) : found;
  return { items: users.map(toUser), nextCursor: encodeCursor(nextKey, input) };
}

/**
 * The users of a page of names items, in the page's order (one eventually consistent BatchGetItem, its
 * read capacity counted in searchStats); a user gone or renamed since is left out.
 */
async function usersOfNameItems(hits: Record<string, any>[], last: string, first: string): Promise<Record<string, any>[]> {
  if (!hits.length) return [];
  const byId = new Map<string, Record<string, any>>();
  let request: Record<string, any> | undefined = { [tableName]: { Keys: hits.map((hit) => keys.user(hit.userId)) } };
  for (let attempt = 0; request && Object.keys(request).length; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
    const result: BatchGetCommandOutput = await documentClient.send(new BatchGetCommand({ RequestItems: request, ReturnConsumedCapacity: 'TOTAL' }));
    searchStats.queries += 1;
    searchStats.consumedCapacity += (result.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    for (const item of result.Responses?.[tableName] ?? []) byId.set(item.id, item);
    request = result.UnprocessedKeys;
  }
  return hits
    .map((hit) => byId.get(hit.userId))
    .filter((user): user is Record<string, any> => !!user && normaliseSearchText(user.lastName).startsWith(last) && normaliseSearchText(user.firstName).startsWith(first));
}

/** How many users wait for their ISEE to be validated (the dashboard badge): a COUNT on the sparse index. */
export const countLoadedUsers = () => countUnder('gsi2', 'gsi2pk', keys.usersLoaded);

/** Many users by id (BatchGetItem, 100 keys a request, unprocessed keys retried); missing ids are absent from the map. */
export async function getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> {
  const found = new Map<string, StoredUser>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    let request: Record<string, any> | undefined = { [tableName]: { Keys: unique.slice(i, i + 100).map((id) => keys.user(id)), ConsistentRead: true } };
    for (let attempt = 0; request && Object.keys(request).length; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const result: BatchGetCommandOutput = await documentClient.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of result.Responses?.[tableName] ?? []) found.set(item.id, item as StoredUser);
      request = result.UnprocessedKeys;
    }
  }
  return found;
}
