import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { interleaveNames, normaliseEmail, normalisePhone, normaliseSearchText, toUser } from '../domain/user-rules.ts';
import type { StoredUser, UserChanges, UserRecord } from '../domain/user-record.ts';
import type { User } from '../domain/users.ts';
import type { NewUserInput } from '../domain/user-input.ts';
import {
  BACKFILL_PAGE,
  batchGet,
  batchPut,
  countUnder,
  withoutEmpty,
  documentClient,
  tableName,
  unlessConditionFails,
  type BackfillPage,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

export const USERS_PAGE_SIZE = 15;

/**
 * The search attributes of a user, derived from its fields (README, "DynamoDB keys"): one sparse
 * prefix index per searchable field, the sort key starting with the normalised value, and the
 * normalised values again as plain attributes for the filters that combine with the chosen index.
 * null means "remove the attribute" (the user leaves that index).
 */
export function searchAttributes(
  user: Pick<UserRecord, 'id' | 'firstName' | 'lastName' | 'fiscalCode' | 'email' | 'phoneNumber' | 'state'>,
) {
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

/** The fields a user's search item is derived from. */
type Searchable = Pick<UserRecord, 'id' | 'firstName' | 'lastName' | 'fiscalCode' | 'email' | 'phoneNumber' | 'state'>;

/**
 * The search item of a user (pk USER#<id>, sk NAMES): a small item carrying what every filter needs (the
 * normalised names, e-mail and phone, the fiscal code and the state), keyed for the combined filters, so
 * a combination reads small items under its most selective key and filters the rest on them (README,
 * "DynamoDB keys"): gsi1 the two names interleaved (domain/users.ts interleaveNames), gsi2 'Da validare'
 * by first name (sparse), gsi3 first name, gsi4 last name, gsi5 e-mail and gsi6 last name and e-mail interleaved
 * (when there is one). Written with
 * the user (insertUser), rewritten when a searched field changes (updateUserFields), deleted with it;
 * backfillUserNames writes it for users stored before it (or before its latest fields).
 */
export function searchItem(user: Searchable) {
  const last = normaliseSearchText(user.lastName);
  const first = normaliseSearchText(user.firstName);
  const email = normaliseEmail(user.email);
  const phone = normalisePhone(user.phoneNumber);
  const loaded = user.state === 'LOADED';
  return {
    ...keys.userNames(user.id),
    userId: user.id,
    nLast: last,
    nFirst: first,
    fiscalCode: user.fiscalCode.toUpperCase(),
    state: user.state,
    ...(email
      ? {
          nEmail: email,
          gsi5pk: keys.usersSearchByEmail,
          gsi5sk: `${email}#${user.id}`,
          gsi6pk: keys.usersSearchByLastEmail,
          gsi6sk: `${interleaveNames(last, email)}#${user.id}`,
        }
      : {}),
    ...(phone ? { nPhone: phone } : {}),
    gsi1pk: keys.usersByNames,
    gsi1sk: `${interleaveNames(last, first)}#${user.id}`,
    ...(loaded ? { gsi2pk: keys.usersLoadedByFirst, gsi2sk: `${first}#${last}#${user.id}` } : {}),
    gsi3pk: keys.usersSearchByFirst,
    gsi3sk: `${first}#${last}#${user.id}`,
    gsi4pk: keys.usersSearchByLast,
    gsi4sk: `${last}#${first}#${user.id}`,
  };
}

/** Every item a new user is stored as: the user and its search item (the seed, the benchmarks, insertUser). */
export const userItems = (user: UserRecord) => [userItem(user), searchItem(user)];

/** The whole item of a user, for a first write (null attributes dropped). */
export function userItem(user: UserRecord) {
  return withoutEmpty({ ...keys.user(user.id), ...user, ...searchAttributes(user) });
}

export async function getUserItem(id: string): Promise<StoredUser | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }),
  );
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
  // Strongly consistent: after losing the claim to a concurrent first sign-in, ensureCitizen reads the winner's
  // id here at once (an eventually consistent GetItem may not see a write just made: DynamoDB Developer Guide,
  // "Read consistency").
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.userByFiscalCode(fiscalCode), ConsistentRead: true }),
  );
  return (Item?.userId as string | undefined) ?? null;
}

/** Claims a fiscal code for a user id (the fiscal-code lookup item); false when another user has it. */
export async function claimFiscalCode(fiscalCode: string, userId: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.userByFiscalCode(fiscalCode), userId },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  return written !== null;
}

/** Frees a fiscal code, only if it still points at that user. */
export async function releaseFiscalCode(fiscalCode: string, userId: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: keys.userByFiscalCode(fiscalCode),
        ConditionExpression: 'userId = :id',
        ExpressionAttributeValues: { ':id': userId },
      }),
    ),
  );
}

/**
 * Records that a Cognito user (its `sub`) signed in with this fiscal code (GET /api/me, every role): once, the
 * first time. Cognito cannot search its users by fiscal code, a custom attribute, so the roles command
 * (bin/roles.ts) finds the person's Cognito users through these, by their `sub`. /api/me is called on every
 * page load: a read (a fifth of a write's price) spares the write once the sign-in is recorded.
 */
export async function recordSignIn(fiscalCode: string, sub: string, now: string): Promise<void> {
  const key = keys.signIn(fiscalCode, sub);
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: key, ProjectionExpression: 'pk' }),
  );
  if (Item) return;
  await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, fiscalCode: fiscalCode.toUpperCase(), sub, firstSignInAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Writes a new user record with its search attributes; false when the id already exists (nothing written). */
export async function insertUser(record: UserRecord, now: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...userItem(record), updatedAt: now, createdAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  if (written !== null) await putSearchItem(record);
  return written !== null;
}

/** Writes (or rewrites) a user's search item; the search checks each hit against the user itself. */
async function putSearchItem(user: Searchable): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: tableName, Item: searchItem(user) }));
}

/** The user fields its search item carries: changing one rewrites it. */
const SEARCHED_FIELDS = ['firstName', 'lastName', 'fiscalCode', 'email', 'phoneNumber', 'state'] as const;

/**
 * One page of the users of gsi1 from `start`, their search items rewritten in batches of 25 through
 * searchItem, the same function the seed and insertUser use. Idempotent. The data migration
 * 'users-search-item-v1' (functions/migrations) walks the users with it, a page a step.
 */
export async function backfillUserNamesPage(
  start?: Record<string, unknown>,
  limit = BACKFILL_PAGE,
): Promise<BackfillPage> {
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.usersByLastName },
      ExpressionAttributeNames: { '#state': 'state' },
      ProjectionExpression: `id, ${SEARCHED_FIELDS.map((f) => (f === 'state' ? '#state' : f)).join(', ')}`,
      ExclusiveStartKey: start,
      Limit: limit,
    }),
  );
  const users = (result.Items ?? []) as Searchable[];
  await batchPut(users.map(searchItem));
  return { written: users.length, next: result.LastEvaluatedKey };
}

/**
 * A user registered with a fiscal code of their own: the lookup item is claimed first, then the record
 * written. null when the fiscal code is taken (nothing written). The id and time default to new ones for
 * the demo data (lib/local); the use case passes its own.
 */
export async function createUser(
  input: NewUserInput,
  id: string = randomUUID(),
  now: string = new Date().toISOString(),
): Promise<User | null> {
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
export async function updateUserFields(
  id: string,
  changes: UserChanges,
  now: string,
): Promise<{ before: StoredUser; after: StoredUser } | null> {
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
  const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : '']
    .join(' ')
    .trim();
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
  if (SEARCHED_FIELDS.some((field) => changes[field] !== undefined)) await putSearchItem(after);
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
        ConditionExpression:
          expected.iseeCount === 0
            ? 'attribute_exists(pk) AND (attribute_not_exists(iseeCount) OR iseeCount = :count)'
            : 'iseeCount = :count',
        ExpressionAttributeValues: { ':count': expected.iseeCount },
      }),
    ),
  );
  if (deleted !== null) await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.userNames(id) }));
  return deleted !== null;
}

/** How many users wait for their ISEE to be validated (the dashboard badge): a COUNT on the sparse index. */
export const countLoadedUsers = () => countUnder('gsi2', 'gsi2pk', keys.usersLoaded);

/** Many users by id (BatchGetItem, 100 keys a request, unprocessed keys retried); missing ids are absent from the map. */
export async function getUserItems(ids: readonly string[]): Promise<Map<string, StoredUser>> {
  const users = await batchGet(
    [...new Set(ids)].map((id) => keys.user(id)),
    { consistent: true },
  );
  return new Map(users.map((user) => [user.id as string, user as StoredUser]));
}
