import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { toEuros } from '../domain/money.ts';
import {
  missingProfileFields,
  municipioName,
  normaliseEmail,
  normalisePhone,
  normaliseSearchText,
  userMessages,
  type NewUserInput,
  type User,
  type UserSearch,
  type UserState,
} from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import { countUnder, decodeCursor, documentClient, encodeCursor, hasChildren, isConditionFailure, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
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
  lastIsee?: { id: string; valueCents: number; year: number; state: string; hasFile: boolean } | null;
  iseeCount?: number;
}

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

/** The whole item of a user, for a first write (null attributes dropped). */
export function userItem(user: UserRecord) {
  const item: Record<string, unknown> = { ...keys.user(user.id), ...user, ...searchAttributes(user) };
  for (const [key, value] of Object.entries(item)) if (value === null || value === undefined) delete item[key];
  return item;
}

export function toUser(item: Record<string, any>): User {
  const text = (key: string) => (typeof item[key] === 'string' && item[key] !== '' ? (item[key] as string) : null);
  const lastIsee = item.lastIsee
    ? { id: item.lastIsee.id, value: toEuros(item.lastIsee.valueCents), year: item.lastIsee.year, state: item.lastIsee.state, hasFile: !!item.lastIsee.hasFile }
    : null;
  return {
    id: item.id,
    firstName: item.firstName ?? '',
    lastName: item.lastName ?? '',
    fiscalCode: item.fiscalCode,
    birthDate: text('birthDate'),
    email: text('email'),
    emailPec: text('emailPec'),
    phoneNumber: text('phoneNumber'),
    address: text('address'),
    addressNumber: text('addressNumber'),
    cap: text('cap'),
    city: text('city'),
    country: text('country'),
    nation: text('nation'),
    municipioId: text('municipioId'),
    municipio: municipioName(item.municipioId),
    state: item.state ?? 'VALIDATED',
    dataInsert: item.dataInsert,
    lastIsee,
    profileComplete: missingProfileFields(item).length === 0,
    hasLinkedData: (item.iseeCount ?? 0) > 0 || !!item.lastIsee,
  };
}

export async function getUserItem(id: string): Promise<Record<string, any> | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.user(id), ConsistentRead: true }));
  return Item ?? null;
}

export async function getUser(id: string): Promise<User | null> {
  const item = await getUserItem(id);
  return item ? toUser(item) : null;
}

/** Claims a fiscal code for a user id; false when another user has it. */
async function claimFiscalCode(fiscalCode: string, userId: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.userByFiscalCode(fiscalCode), userId }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
  return written !== null;
}

/** A user registered by an operator. The fiscal code must be new. */
export async function createUser(input: NewUserInput, now = new Date().toISOString()): Promise<User> {
  const id = randomUUID();
  if (!(await claimFiscalCode(input.fiscalCode, id))) throw new ConflictError(userMessages.fiscalCodeTaken);
  const record: UserRecord = { id, ...input, state: 'VALIDATED', dataInsert: now };
  const item = { ...userItem(record), updatedAt: now, createdAt: now };
  await documentClient.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toUser(item);
}

/**
 * Changes some fields of a user with one UpdateItem (so the ISEE summary and counters written by the
 * ISEE feature are never overwritten), recomputing the search attributes. null removes a field.
 * Returns the user before and after; null when the user does not exist.
 */
export async function updateUserFields(
  id: string,
  changes: Partial<Omit<UserRecord, 'id' | 'dataInsert'>>,
  options: { condition?: string; conditionValues?: Record<string, unknown>; now?: string } = {},
): Promise<{ before: Record<string, any>; after: Record<string, any> } | null> {
  const before = await getUserItem(id);
  if (!before) return null;
  const merged = { ...before, ...changes } as UserRecord;
  const fields: Record<string, unknown> = { ...changes, ...searchAttributes(merged), updatedAt: options.now ?? new Date().toISOString() };
  const set: string[] = [];
  const remove: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...options.conditionValues };
  Object.entries(fields).forEach(([key, value], index) => {
    names[`#f${index}`] = key;
    if (value === null || value === undefined || value === '') remove.push(`#f${index}`);
    else {
      set.push(`#f${index} = :v${index}`);
      values[`:v${index}`] = value;
    }
  });
  const expression = [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].join(' ').trim();
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(id),
        UpdateExpression: expression,
        ConditionExpression: ['attribute_exists(pk)', options.condition].filter(Boolean).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { before, after: Attributes! };
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** The operator's edit: a changed fiscal code moves the fiscal-code lookup item (refused if taken). */
export async function updateUser(id: string, changes: Partial<Omit<UserRecord, 'id' | 'dataInsert'>>) {
  const current = await getUserItem(id);
  if (!current) return null;
  const newCode = changes.fiscalCode?.toUpperCase();
  const moving = newCode && newCode !== current.fiscalCode;
  if (moving && !(await claimFiscalCode(newCode, id))) throw new ConflictError(userMessages.fiscalCodeTaken);
  const result = await updateUserFields(id, changes);
  if (moving) {
    if (result) await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.userByFiscalCode(current.fiscalCode) }));
    else await documentClient.send(new DeleteCommand({ TableName: tableName, Key: keys.userByFiscalCode(newCode) }));
  }
  return result;
}

/** A user can be deleted only without linked data (ISEE, subscriptions). */
export async function deleteUser(id: string): Promise<Record<string, any>> {
  const item = await getUserItem(id);
  if (!item) throw new NotFoundError(userMessages.notFound);
  if ((item.iseeCount ?? 0) > 0 || item.lastIsee || (await hasChildren(keys.iseesOfUser(id))) || (await hasChildren(keys.subscriptionsOfUser(id)))) {
    throw new ConflictError(userMessages.hasLinkedData);
  }
  try {
    await documentClient.send(
      new DeleteCommand({ TableName: tableName, Key: keys.user(id), ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(iseeCount) OR iseeCount = :zero)', ExpressionAttributeValues: { ':zero': 0 } }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(userMessages.hasLinkedData);
    throw error;
  }
  await documentClient.send(
    new DeleteCommand({ TableName: tableName, Key: keys.userByFiscalCode(item.fiscalCode), ConditionExpression: 'userId = :id', ExpressionAttributeValues: { ':id': id } }),
  ).catch((error) => {
    if (!isConditionFailure(error)) throw error;
  });
  return item;
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


/**
 * Users matching every filter, fifteen per page, without a scan: the most selective filter picks the
 * index (fiscal code, phone, e-mail, 'Da validare', last name, first name; none → all users by last
 * name), queried with begins_with on its sort key; the other filters are a FilterExpression on the
 * normalised attributes. Filtered pages are filled by a few bounded rounds of Query.
 */
export async function searchUsers(search: UserSearch): Promise<Page<User>> {
  const limit = search.limit ?? USERS_PAGE_SIZE;
  const fiscalCode = (search.fiscalCode ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  const phone = normalisePhone(search.phoneNumber);
  const email = normaliseEmail(search.email);
  const last = normaliseSearchText(search.lastName);
  const first = normaliseSearchText(search.firstName);
  const loaded = search.loaded;

  const filters: { attr: string; value: string; used: boolean }[] = [];
  let choice: IndexChoice;
  if (fiscalCode) choice = { index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: keys.usersByFiscalCode, prefix: fiscalCode };
  else if (phone) choice = { index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pk: keys.usersByPhone, prefix: phone };
  else if (email) choice = { index: 'gsi5', pkName: 'gsi5pk', skName: 'gsi5sk', pk: keys.usersByEmail, prefix: email };
  else if (loaded) choice = { index: 'gsi2', pkName: 'gsi2pk', skName: 'gsi2sk', pk: keys.usersLoaded, prefix: last ? `${last}` : null };
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
  addFilter('fiscalCode', fiscalCode, 'gsi4');
  addFilter('nPhone', phone, 'gsi6');
  addFilter('nEmail', email, 'gsi5');
  // The loaded index is sorted by last name, so its prefix already applies the last name.
  if (!(choice.index === 'gsi2' && last)) addFilter('nLast', last, 'gsi1');
  addFilter('nFirst', first, 'gsi3');
  if (loaded && choice.index !== 'gsi2') {
    names['#state'] = 'state';
    values[':loaded'] = 'LOADED';
    conditions.push('#state = :loaded');
  }
  void filters;

  const input: Omit<QueryCommandInput, 'TableName'> = {
    IndexName: choice.index,
    KeyConditionExpression: choice.prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    FilterExpression: conditions.length ? conditions.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnConsumedCapacity: 'TOTAL',
  };

  const found: Record<string, any>[] = [];
  let startKey = decodeCursor(search.cursor);
  let nextKey: Record<string, unknown> | null = null;
  searchStats.consumedCapacity = 0;
  searchStats.queries = 0;
  searchStats.evaluated = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...input,
        // Without filters a page is exactly one Query; with filters, larger rounds fill the page.
        Limit: conditions.length ? ROUND_LIMIT : limit - found.length,
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
  return { items: found.map(toUser), nextCursor: encodeCursor(nextKey) };
}

/** How many users wait for their ISEE to be validated (the dashboard badge): a COUNT on the sparse index. */
export const countLoadedUsers = () => countUnder('gsi2', 'gsi2pk', keys.usersLoaded);
