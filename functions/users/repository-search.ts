import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  interleaveNames,
  normaliseEmail,
  normalisePhone,
  normaliseSearchText,
  toUser,
  type User,
  type UserSearch,
} from '../domain/users.ts';
import type { Page } from '../domain/validation.ts';
import {
  batchGet,
  decodeCursor,
  documentClient,
  encodeCursor,
  tableName,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { USERS_PAGE_SIZE } from './repository.ts';

/**
 * The operators' user search: which key a combination of filters reads, and the rounds of Query that fill a
 * page within a read budget. The user and search items it reads are written by repository.ts
 * (searchAttributes, searchItem).
 */

/** A key to read: an index, its partition and the begins_with prefix of its sort key; `search` = search items (then the users). */
interface IndexChoice {
  index: string;
  pkName: string;
  skName: string;
  pk: string;
  prefix: string | null;
  search: boolean;
}

/** The normalised filters of a search; empty strings are absent filters. */
interface Filters {
  fiscalCode: string;
  phone: string;
  email: string;
  last: string;
  first: string;
  loaded: boolean;
}

/**
 * What one search read, for the benchmark: its requests (Query and BatchGetItem), the items its Queries
 * evaluated (what SEARCH_READ_BUDGET bounds) and the read capacity. Each search keeps its own: searches run
 * side by side in one process (the local stack, a warm container's concurrent requests).
 */
export interface SearchStats {
  consumedCapacity: number;
  queries: number;
  evaluated: number;
}

const MAX_ROUNDS = 10;
/**
 * Items one request may read under its key before it answers (a short page and a cursor to continue): the
 * work per request stays bounded, however unselective the combination, and a scan of the users never happens.
 */
export const SEARCH_READ_BUDGET = 240;
/** An e-mail prefix this long picks the e-mail key even when a name is given too. */
const SELECTIVE_EMAIL = 5;

const userKey = (
  index: 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6',
  pk: string,
  prefix: string | null,
): IndexChoice => ({ index, pkName: `${index}pk`, skName: `${index}sk`, pk, prefix, search: false });
const searchKey = (
  index: 'gsi1' | 'gsi2' | 'gsi3' | 'gsi4' | 'gsi5' | 'gsi6',
  pk: string,
  prefix: string | null,
): IndexChoice => ({ ...userKey(index, pk, prefix), search: true });

/**
 * The key a search reads, the most selective its filters allow: fiscal code, phone, a long e-mail prefix,
 * then 'Da validare' with a name, last and first name together (interleaved: the key holds both), one name,
 * a short e-mail alone; none → all users by last name. A single filter reads the user items of its index (one
 * Query, no filter); a combination reads the small search items (searchItem) and filters the rest on them.
 */
export function chooseKey(f: Filters): IndexChoice {
  const others = [f.fiscalCode, f.phone, f.email, f.last, f.first].filter(Boolean).length + (f.loaded ? 1 : 0) - 1;
  if (f.fiscalCode) return userKey('gsi4', keys.usersByFiscalCode, f.fiscalCode);
  if (f.phone) return userKey('gsi6', keys.usersByPhone, f.phone);
  if (f.email && !others) return userKey('gsi5', keys.usersByEmail, f.email);
  if (f.email && f.email.length >= SELECTIVE_EMAIL) return searchKey('gsi5', keys.usersSearchByEmail, f.email);
  if (f.loaded) {
    // Few users wait for validation: their index by last name, or their small search items by first name.
    if (f.last || !others) return userKey('gsi2', keys.usersLoaded, f.last || null);
    return searchKey('gsi2', keys.usersLoadedByFirst, f.first || null);
  }
  if (f.last && f.email) return searchKey('gsi6', keys.usersSearchByLastEmail, interleavedPrefix(f.last, f.email));
  if (f.last && f.first) return searchKey('gsi1', keys.usersByNames, interleavedPrefix(f.last, f.first));
  if (f.last)
    return others ? searchKey('gsi4', keys.usersSearchByLast, f.last) : userKey('gsi1', keys.usersByLastName, f.last);
  if (f.first)
    return others
      ? searchKey('gsi3', keys.usersSearchByFirst, f.first)
      : userKey('gsi3', keys.usersByFirstName, f.first);
  return userKey('gsi1', keys.usersByLastName, null);
}

/** The prefix of an interleaved key two typed prefixes give: the first `shared` letters of each, then the first one's next letter. */
const interleavedPrefix = (a: string, b: string) => {
  const shared = Math.min(a.length, b.length);
  return interleaveNames(a.slice(0, shared), b.slice(0, shared)) + a.slice(shared, shared + 1);
};
/** Whether the interleaved key's prefix holds all of the first (a) or second (b) value. */
const interleavedHolds = (a: string, b: string) => ({
  a: a.length <= Math.min(a.length, b.length) + 1,
  b: b.length <= a.length,
});

/** Whether a stored user (or search item: same attribute names) passes every filter. */
function matches(item: StoredItem, f: Filters): boolean {
  const starts = (value: unknown, prefix: string) => !prefix || (typeof value === 'string' && value.startsWith(prefix));
  return (
    starts(normaliseSearchText(item.lastName ?? ''), f.last) &&
    starts(normaliseSearchText(item.firstName ?? ''), f.first) &&
    starts(String(item.fiscalCode ?? '').toUpperCase(), f.fiscalCode) &&
    starts(normaliseEmail(item.email), f.email) &&
    starts(normalisePhone(item.phoneNumber), f.phone) &&
    (!f.loaded || item.state === 'LOADED')
  );
}

/**
 * Users matching every filter, fifteen per page, without a scan: chooseKey picks the key, queried with
 * begins_with on its sort key; the filters it does not hold are a FilterExpression on the normalised
 * attributes (which the user and search items both carry). Filtered pages are filled by a few growing rounds
 * of Query within SEARCH_READ_BUDGET items; past it, the page is returned short with a cursor. Search items
 * lead to their users in one BatchGetItem; a hit whose user no longer matches (a change in between) is dropped.
 */
export async function searchUsers(search: UserSearch): Promise<Page<User>> {
  return (await searchUsersMeasured(search)).page;
}

/** searchUsers with what this search read (SearchStats). */
export async function searchUsersMeasured(search: UserSearch): Promise<{ page: Page<User>; stats: SearchStats }> {
  const limit = search.limit ?? USERS_PAGE_SIZE;
  const f: Filters = {
    fiscalCode: (search.fiscalCode ?? '').toUpperCase().replace(/[^A-Z0-9]/g, ''),
    phone: normalisePhone(search.phoneNumber),
    email: normaliseEmail(search.email),
    last: normaliseSearchText(search.lastName),
    first: normaliseSearchText(search.firstName),
    loaded: !!search.loaded,
  };
  const choice = chooseKey(f);

  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':pk': choice.pk };
  const names: Record<string, string> = { '#pk': choice.pkName };
  if (choice.prefix) {
    names['#sk'] = choice.skName;
    values[':prefix'] = choice.prefix;
  }
  const addFilter = (attr: string, value: string) => {
    if (!value) return;
    names[`#${attr}`] = attr;
    values[`:${attr}`] = value;
    conditions.push(`begins_with(#${attr}, :${attr})`);
  };
  // A filter the key's prefix already applies is left out.
  const byNames = choice.pk === keys.usersByNames ? interleavedHolds(f.last, f.first) : null;
  const byLastEmail = choice.pk === keys.usersSearchByLastEmail ? interleavedHolds(f.last, f.email) : null;
  if (choice.pk !== keys.usersByFiscalCode) addFilter('fiscalCode', f.fiscalCode);
  if (choice.pk !== keys.usersByPhone) addFilter('nPhone', f.phone);
  if (!(choice.pk === keys.usersByEmail || choice.pk === keys.usersSearchByEmail || byLastEmail?.b))
    addFilter('nEmail', f.email);
  const lastKeyed =
    [keys.usersByLastName, keys.usersLoaded, keys.usersSearchByLast].includes(choice.pk) ||
    !!byNames?.a ||
    !!byLastEmail?.a;
  const firstKeyed =
    [keys.usersByFirstName, keys.usersLoadedByFirst, keys.usersSearchByFirst].includes(choice.pk) || !!byNames?.b;
  if (!lastKeyed) addFilter('nLast', f.last);
  if (!firstKeyed) addFilter('nFirst', f.first);
  if (f.loaded && choice.pk !== keys.usersLoaded && choice.pk !== keys.usersLoadedByFirst) {
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

  const found: StoredItem[] = [];
  let startKey = decodeCursor(search.cursor, input);
  let nextKey: Record<string, unknown> | null = null;
  const stats: SearchStats = { consumedCapacity: 0, queries: 0, evaluated: 0 };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const need = limit - found.length;
    const budget = SEARCH_READ_BUDGET - stats.evaluated;
    // The rate the filters kept so far sizes the next round; none kept yet: fourfold growth.
    const rate = found.length ? found.length / stats.evaluated : 0;
    const guess = rate ? Math.ceil((need / rate) * 1.25) + 1 : need * 4 ** (round + 1);
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...input,
        // Without filters a page is exactly one Query. With filters, DynamoDB reads Limit items whatever the
        // filter keeps: the rounds are sized on the rate kept so far, within the budget.
        Limit: conditions.length ? Math.max(1, Math.min(budget, guess)) : need,
        ExclusiveStartKey: startKey,
      }),
    );
    stats.queries += 1;
    stats.evaluated += result.ScannedCount ?? 0;
    stats.consumedCapacity += result.ConsumedCapacity?.CapacityUnits ?? 0;
    const items = result.Items ?? [];
    for (const item of items) {
      found.push(item);
      if (found.length === limit) {
        const stoppedEarly = item !== items[items.length - 1] || !!result.LastEvaluatedKey;
        nextKey = stoppedEarly
          ? { pk: item.pk, sk: item.sk, [choice.pkName]: item[choice.pkName], [choice.skName]: item[choice.skName] }
          : null;
        break;
      }
    }
    if (found.length === limit) break;
    startKey = result.LastEvaluatedKey;
    if (!startKey) break;
    // Bounded work per request: an unselective combination returns a short page and a cursor.
    if (stats.evaluated >= SEARCH_READ_BUDGET || round === MAX_ROUNDS - 1) {
      nextKey = startKey;
      break;
    }
  }
  const users = choice.search ? await usersOfSearchItems(found, f, stats) : found;
  return { page: { items: users.map(toUser), nextCursor: encodeCursor(nextKey, input) }, stats };
}

/**
 * The users of a page of search items, in the page's order (one eventually consistent BatchGetItem, its
 * read capacity counted in the search's stats); a user gone, or changed since so that a filter fails, is left out.
 */
async function usersOfSearchItems(hits: StoredItem[], f: Filters, stats: SearchStats): Promise<StoredItem[]> {
  if (!hits.length) return [];
  const users = await batchGet(
    hits.map((hit) => keys.user(hit.userId)),
    {
      onConsumed: (units) => {
        stats.queries += 1;
        stats.consumedCapacity += units;
      },
    },
  );
  const byId = new Map(users.map((user) => [user.id as string, user]));
  return hits.map((hit) => byId.get(hit.userId)).filter((user): user is StoredItem => !!user && matches(user, f));
}
