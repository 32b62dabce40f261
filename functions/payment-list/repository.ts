import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { debtTotalKeys, nameKey, zeroTotals, type DebtSort, type DebtSummary, type DebtSummaryRow, type DebtTotals } from '../domain/debt-summaries.ts';
import { periodKey } from '../domain/payments.ts';
import { mapAtMost } from '../domain/at-most.ts';
import { ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Page } from '../domain/validation.ts';
import { batchGet, decodeCursor, documentClient, encodeCursor, queryAll, tableName, unlessConditionFails, type CursorList } from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';
import { missingIseeKeys, toPositionRecord } from '../payments/repository.ts';

/**
 * The payment list's maintained aggregates (README "The payment list"). DynamoDB only, no rules: the
 * figures come from functions/domain/debt-summaries.ts.
 *
 * - a summary per call, year and citizen: pk "CALL#<callId>#DEBTS#<anno>", sk "USER#<userId>", written
 *   with a version condition (create: must not exist; change: same version as read);
 *   gsi1 "DEBTS#<callId>#<anno>" / "<importoTotale, 12 digits>#<userId>" (amount order),
 *   gsi2 same pk / "<cognome nome normalised>#<userId>" (name order and name prefix),
 *   gsi5 same pk / "<FISCAL CODE>#<userId>" (fiscal-code prefix),
 *   gsi6 same pk / "<first word of the name key>#<importoTotale, 12 digits>#<userId>" (a surname's rows in
 *   amount order: a one-word prefix in amount order merges the few words it spans, see mergedByAmount),
 *   and only while the citizen has a pending position without e-mail (sparse, 'Email non inviata'):
 *   gsi3 "DEBTS#<callId>#<anno>#NOMAIL" / name key, gsi4 the same pk / amount key;
 * - the call-year's totals: same pk, sk "TOTALS", kept by `ADD` of each summary change's delta.
 */

export interface StoredDebtSummary extends DebtSummary {
  version: number;
  updatedAt: string;
}

export interface SummaryKey {
  callId: string;
  anno: number;
  userId: string;
}
export const summaryKeyOf = (k: SummaryKey) => `${k.callId}|${k.anno}|${k.userId}`;

const INDEX_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk', 'nName', 'kind'];

export function toStored(item: Record<string, any>): StoredDebtSummary {
  const record = { ...item };
  for (const key of INDEX_ATTRIBUTES) delete record[key];
  return record as StoredDebtSummary;
}

export const toRow = (item: Record<string, any>): DebtSummaryRow => ({
  userId: item.userId,
  cognome: item.cognome,
  nome: item.nome,
  codiceFiscale: item.codiceFiscale,
  telefono: item.telefono ?? null,
  email: item.email ?? null,
  importoTotale: item.importoTotale,
  paymentIds: item.paymentIds ?? [],
});

/** The first word of the name key ("de rossi maria" → "de"): a row's group on gsi6. */
const firstWord = (name: string) => name.split(' ')[0] ?? '';
/** gsi6's sort key: the group, then the amount order's own key (so a merge of groups is the amount order). */
const groupKey = (summary: Pick<DebtSummary, 'cognome' | 'nome' | 'importoTotale' | 'userId'>) =>
  `${firstWord(nameKey(summary.cognome, summary.nome))}#${numericSortKey(summary.importoTotale)}#${summary.userId}`;

/** The stored item of a summary, with its index keys (the bench seeds with it). */
export function debtSummaryItem(summary: StoredDebtSummary) {
  const list = keys.debtList(summary.callId, summary.anno);
  const noMail = keys.debtListNoMail(summary.callId, summary.anno);
  const amount = `${numericSortKey(summary.importoTotale)}#${summary.userId}`;
  const name = `${nameKey(summary.cognome, summary.nome)}#${summary.userId}`;
  return {
    ...keys.debtSummary(summary.callId, summary.anno, summary.userId),
    kind: 'DEBT_SUMMARY',
    gsi1pk: list,
    gsi1sk: amount,
    gsi2pk: list,
    gsi2sk: name,
    gsi5pk: list,
    gsi5sk: `${summary.codiceFiscale.toUpperCase()}#${summary.userId}`,
    gsi6pk: list,
    gsi6sk: groupKey(summary),
    ...(summary.senzaEmail ? { gsi3pk: noMail, gsi3sk: name, gsi4pk: noMail, gsi4sk: amount } : {}),
    nName: nameKey(summary.cognome, summary.nome),
    ...summary,
  };
}

/** The stored summaries of these citizens (consistent reads), by summaryKeyOf. */
export async function getDebtSummaries(which: readonly SummaryKey[]): Promise<Map<string, StoredDebtSummary>> {
  const items = await batchGet(
    which.map((k) => keys.debtSummary(k.callId, k.anno, k.userId)),
    { consistent: true },
  );
  return new Map(items.map((item) => [summaryKeyOf(item as SummaryKey), toStored(item)]));
}

/**
 * The positions of these citizens in these calls and years: the twelve month keys of each, read
 * consistently from the table (a GSI could miss a position written a moment ago).
 */
export async function positionsOfYears(which: readonly SummaryKey[]): Promise<PositionRecord[]> {
  const requestKeys = which.flatMap((k) => Array.from({ length: 12 }, (_, m) => keys.position(k.callId, periodKey({ anno: k.anno, mese: m + 1 }), k.userId)));
  return (await batchGet(requestKeys, { consistent: true })).map(toPositionRecord);
}

/** Writes a summary if the stored one is still `expectedVersion` (null: none yet); false when another writer won. */
export async function putDebtSummary(summary: StoredDebtSummary, expectedVersion: number | null): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: debtSummaryItem(summary),
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': expectedVersion } }),
      }),
    ),
  );
  return written !== null;
}

/** Adds a delta to the call-year's totals (ADD: concurrent writers add up, none overwrites another). */
export async function addToDebtTotals(callId: string, anno: number, delta: DebtTotals, at: string): Promise<void> {
  const changed = debtTotalKeys.filter((key) => delta[key] !== 0);
  if (!changed.length) return;
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.debtTotals(callId, anno),
      UpdateExpression: `ADD ${changed.map((key, i) => `#k${i} :v${i}`).join(', ')} SET callId = :callId, anno = :anno, updatedAt = :at`,
      ExpressionAttributeNames: Object.fromEntries(changed.map((key, i) => [`#k${i}`, key])),
      ExpressionAttributeValues: { ...Object.fromEntries(changed.map((key, i) => [`:v${i}`, delta[key]])), ':callId': callId, ':anno': anno, ':at': at },
    }),
  );
}

const totalsOf = (item: Record<string, any> | undefined): DebtTotals => {
  const totals = zeroTotals();
  for (const key of debtTotalKeys) totals[key] = Number(item?.[key] ?? 0);
  return totals;
};

export async function getDebtTotals(callId: string, anno: number): Promise<DebtTotals> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.debtTotals(callId, anno) }));
  return totalsOf(Item);
}

/** Overwrites the call-year's totals (the reconcile, with the sum of the summaries). */
export async function putDebtTotals(callId: string, anno: number, totals: DebtTotals, at: string): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: tableName, Item: { ...keys.debtTotals(callId, anno), callId, anno, ...totals, updatedAt: at, reconciledAt: at } }));
}

/** Every summary's contribution of a call-year, summed (the reconcile: one partition, paged to the end). */
export async function sumDebtSummaries(callId: string, anno: number): Promise<DebtTotals> {
  const sum = zeroTotals();
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
    ExpressionAttributeValues: { ':pk': keys.debtSummariesOf(callId, anno), ':user': 'USER#' },
    ProjectionExpression: 'contribution',
    ConsistentRead: true,
  });
  for (const item of items) for (const key of debtTotalKeys) sum[key] += Number(item.contribution?.[key] ?? 0);
  return sum;
}

export interface DebtListFilter {
  /** From readNameFilter: a prefix of the name key or of the fiscal code. */
  text: { kind: 'fiscalCode' | 'name'; prefix: string } | null;
  noMail: boolean;
}

/**
 * How a filter and an order are read, always a Query: the index whose sort key is the order, or whose
 * sort key starts with the text; what the key cannot say becomes a FilterExpression.
 */
type ListQuery = Pick<QueryCommandInput, 'IndexName' | 'KeyConditionExpression' | 'ExpressionAttributeValues' | 'FilterExpression' | 'ScanIndexForward'> & {
  IndexName: string;
  /** True when the key condition alone selects the rows (no FilterExpression on them). */
  keyed: boolean;
};

function plan(callId: string, anno: number, filter: DebtListFilter, sort: DebtSort): ListQuery {
  const byAmount = sort.endsWith('importo');
  const pk = filter.noMail ? keys.debtListNoMail(callId, anno) : keys.debtList(callId, anno);
  const forward = !sort.startsWith('-');
  const { text } = filter;
  if (text?.kind === 'fiscalCode') {
    // The fiscal-code index holds every summary; 'Email non inviata' is then a filter on the item.
    return {
      IndexName: 'gsi5',
      KeyConditionExpression: 'gsi5pk = :pk AND begins_with(gsi5sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.debtList(callId, anno), ':prefix': text.prefix, ...(filter.noMail ? { ':true': true } : {}) },
      ...(filter.noMail ? { FilterExpression: 'senzaEmail = :true' } : {}),
      ScanIndexForward: forward,
      keyed: true,
    };
  }
  const index = filter.noMail ? (byAmount ? 'gsi4' : 'gsi3') : byAmount ? 'gsi1' : 'gsi2';
  if (text && !byAmount) {
    return {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk AND begins_with(${index}sk, :prefix)`,
      ExpressionAttributeValues: { ':pk': pk, ':prefix': text.prefix },
      ScanIndexForward: forward,
      keyed: true,
    };
  }
  if (text) {
    return {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': pk, ':prefix': text.prefix },
      FilterExpression: 'begins_with(nName, :prefix)',
      ScanIndexForward: forward,
      keyed: false,
    };
  }
  return { IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ':pk': pk }, ScanIndexForward: forward, keyed: true };
}

/** Items a FilterExpression page reads per round, and rounds per request: a request's work is bounded. */
const ROUND_SIZE = 200;
const MAX_ROUNDS = 10;
const KEYED_ROUNDS = 4;

/** What a page reads of each row: the row's fields and the keys a cursor needs (not the totals' contribution, nor the other indexes' keys). */
const ROW_ATTRIBUTES = ['userId', 'cognome', 'nome', 'codiceFiscale', 'telefono', 'email', 'importoTotale', 'paymentIds'] as const;
function rowProjection(index: string) {
  const names = [...ROW_ATTRIBUTES, 'pk', 'sk', `${index}pk`, `${index}sk`];
  return { ProjectionExpression: names.map((_, i) => `#p${i}`).join(', '), ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#p${i}`, name])) };
}

const cursorList = (q: Omit<ListQuery, 'keyed'>): CursorList => ({ IndexName: q.IndexName, KeyConditionExpression: q.KeyConditionExpression, ExpressionAttributeValues: q.ExpressionAttributeValues });

/** A cursor of this list, or undefined when it belongs to another (the caller tries the next reading). */
function cursorOf(cursor: string, list: CursorList): Record<string, unknown> | undefined {
  try {
    return decodeCursor(cursor, list);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

/**
 * One page of a call-year's summaries. A filter the index key answers reads exactly the page. A name
 * prefix in amount order: a one-word prefix spanning at most MERGE_GROUPS first words (a whole surname:
 * "rossi" → rossi, rossini) merges those words' rows, each read in amount order on gsi6 (mergedByAmount);
 * otherwise at most FEW matches are read through the name index and ordered here (fewByName); beyond, a
 * FilterExpression over the amount index, filled by at most 10 rounds of 200 items (a rare name may give
 * a short page and a cursor, as the users search does). A cursor continues the reading that wrote it.
 */
export async function listDebtSummaries(
  callId: string,
  anno: number,
  filter: DebtListFilter,
  sort: DebtSort,
  page: { limit: number; cursor?: string },
): Promise<Page<DebtSummaryRow>> {
  if (filter.text?.kind === 'name' && sort.endsWith('importo')) {
    const merge = mergeList(callId, anno, filter.text.prefix, sort);
    if (page.cursor) {
      const state = cursorOf(page.cursor, merge);
      if (state) return mergedByAmount(page.limit, sort, readMergeCursor(state), groupReader(callId, anno, sort, page.limit), merge);
      const few = cursorOf(page.cursor, fewList(callId, anno, filter).list);
      if (few) return (await fewByName(callId, anno, filter, sort, page.limit, few.offset)) ?? Promise.reject(new ValidationError(messages.invalidCursor));
    } else {
      // Each word's first read starts as soon as the word is found (while the next one is looked for).
      const started = new Map<string, Promise<GroupRead>>();
      const read = groupReader(callId, anno, sort, page.limit);
      const groups = filter.noMail || filter.text.prefix.includes(' ') ? null : await groupsOf(keys.debtList(callId, anno), filter.text.prefix, (word) => {
        const first = read(word, null);
        first.catch(() => undefined); // a word past MERGE_GROUPS drops the reads already started
        started.set(word, first);
      });
      if (groups) return mergedByAmount(page.limit, sort, groups.map((word) => [word, null]), (word) => started.get(word)!, merge);
      const few = await fewByName(callId, anno, filter, sort, page.limit, 0);
      if (few) return few;
    }
  }
  const { keyed, ...query } = plan(callId, anno, filter, sort);
  const list = cursorList(query);
  let start = decodeCursor(page.cursor, list);
  const items: Record<string, any>[] = [];
  // A keyed page reads exactly its rows; one Query stops at 1 MB (an export page of 2,500), so up to
  // KEYED_ROUNDS Queries continue it within the request rather than answer a short page.
  for (let round = 0; round < (keyed ? KEYED_ROUNDS : MAX_ROUNDS); round++) {
    const result = await documentClient.send(
      new QueryCommand({ TableName: tableName, ...query, ...rowProjection(query.IndexName), Limit: keyed ? page.limit - items.length : ROUND_SIZE, ExclusiveStartKey: start }),
    );
    const found = result.Items ?? [];
    if (items.length + found.length > page.limit) {
      // The page is full in the middle of this round: continue after its last row.
      const taken = found.slice(0, page.limit - items.length);
      items.push(...taken);
      const last = taken[taken.length - 1]!;
      const index = query.IndexName;
      return { items: items.map(toRow), nextCursor: encodeCursor({ pk: last.pk, sk: last.sk, [`${index}pk`]: last[`${index}pk`], [`${index}sk`]: last[`${index}sk`] }, list) };
    }
    items.push(...found);
    start = result.LastEvaluatedKey;
    if (!start || items.length === page.limit) break;
  }
  return { items: items.map(toRow), nextCursor: encodeCursor(start, list) };
}

/** A one-word prefix spanning more first words than this is not merged (a 3-letter prefix spans dozens). */
const MERGE_GROUPS = 6;

/**
 * The first words (gsi6's groups) starting with a one-word prefix, in key order: one Query of one key
 * per word, each starting after the previous word ("<word>$": '$' sorts right after the '#' that ends a
 * word's keys and before any letter or digit). Null when there are more than MERGE_GROUPS.
 */
async function groupsOf(pk: string, prefix: string, found: (word: string) => void): Promise<string[] | null> {
  const groups: string[] = [];
  for (let from = prefix; groups.length <= MERGE_GROUPS; ) {
    const { Items } = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi6',
        KeyConditionExpression: 'gsi6pk = :pk AND gsi6sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': `${prefix}\uffff` },
        ProjectionExpression: 'gsi6sk',
        Limit: 1,
      }),
    );
    const key = Items?.[0]?.gsi6sk as string | undefined;
    if (!key) return groups;
    const word = key.slice(0, key.indexOf('#'));
    groups.push(word);
    if (groups.length <= MERGE_GROUPS) found(word);
    from = `${word}$`;
  }
  return null;
}

/** Where each merged word stands: null = from its first row, a gsi6 key = after that row, true = read to the end. */
type MergeState = Array<[word: string, after: string | null | true]>;

const mergeList = (callId: string, anno: number, prefix: string, sort: DebtSort): CursorList => ({
  // What the cursor is bound to (never sent: the words are read one by one): the list, the prefix and the order.
  IndexName: 'gsi6',
  KeyConditionExpression: 'gsi6pk = :pk AND begins_with(gsi6sk, :prefix) BY :sort',
  ExpressionAttributeValues: { ':pk': keys.debtList(callId, anno), ':prefix': prefix, ':sort': sort },
});

function readMergeCursor(state: Record<string, unknown>): MergeState {
  const words = state.m;
  const valid =
    Array.isArray(words) &&
    words.length <= MERGE_GROUPS &&
    words.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && (entry[1] === null || entry[1] === true || typeof entry[1] === 'string'));
  if (!valid) throw new ValidationError(messages.invalidCursor);
  return words as MergeState;
}

type GroupRead = { items: Record<string, any>[]; more: boolean };

/** A word's next `limit` rows in the order, after a gsi6 key (null: from its first row): one Query on gsi6. */
const groupReader = (callId: string, anno: number, sort: DebtSort, limit: number) => async (word: string, after: string | null): Promise<GroupRead> => {
  const pk = keys.debtList(callId, anno);
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi6',
      KeyConditionExpression: 'gsi6pk = :pk AND begins_with(gsi6sk, :word)',
      ExpressionAttributeValues: { ':pk': pk, ':word': `${word}#` },
      ...rowProjection('gsi6'),
      ScanIndexForward: !sort.startsWith('-'),
      Limit: limit,
      ExclusiveStartKey: after === null ? undefined : { ...keys.debtSummary(callId, anno, after.slice(after.lastIndexOf('#') + 1)), gsi6pk: pk, gsi6sk: after },
    }),
  );
  return { items: result.Items ?? [], more: Boolean(result.LastEvaluatedKey) };
};

/**
 * A page of the rows of a few first words in amount order: each word not read to its end gives its next
 * `limit` rows in the order (in parallel), the page takes the first `limit` of them all by gsi6's
 * "<amount>#<userId>" (the amount index's own order), and the cursor says where each word stands
 * (signed, bound to the prefix and the order).
 */
async function mergedByAmount(limit: number, sort: DebtSort, state: MergeState, read: (word: string, after: string | null) => Promise<GroupRead>, list: CursorList): Promise<Page<DebtSummaryRow>> {
  const forward = !sort.startsWith('-');
  const reads = await Promise.all(state.map(([word, after]) => (after === true ? { items: [], more: false } : read(word, after))));
  const orderKey = (item: Record<string, any>) => String(item.gsi6sk).slice(String(item.gsi6sk).indexOf('#') + 1);
  const candidates = reads.flatMap((read, group) => read.items.map((item) => ({ item, group, key: orderKey(item) })));
  candidates.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) * (forward ? 1 : -1));
  const taken = candidates.slice(0, limit);
  const next: MergeState = state.map(([word, after], group) => {
    const mine = taken.filter((c) => c.group === group);
    const read = reads[group]!;
    if (after === true || (mine.length === read.items.length && !read.more)) return [word, true];
    return [word, mine.length ? String(mine[mine.length - 1]!.item.gsi6sk) : after];
  });
  return { items: taken.map((c) => toRow(c.item)), nextCursor: next.every(([, after]) => after === true) ? null : encodeCursor({ m: next }, list) };
}

/** A name prefix matching at most this many rows is read whole through the name index and ordered by amount here. */
const FEW = 200;

const fewList = (callId: string, anno: number, filter: DebtListFilter) => {
  const { keyed: _keyed, ScanIndexForward: _forward, ...query } = plan(callId, anno, filter, 'nome');
  return { query, list: cursorList(query) };
};

/**
 * A name prefix in amount order, when it matches few rows (a surname and a name): one keyed Query on
 * the name index reads them all, they are ordered by amount here and the page is an offset (signed,
 * bound to the same list). Null when more than FEW match: the amount index with a filter then pages.
 */
async function fewByName(callId: string, anno: number, filter: DebtListFilter, sort: DebtSort, limit: number, offset: unknown): Promise<Page<DebtSummaryRow> | null> {
  if (!Number.isInteger(offset) || (offset as number) < 0) throw new ValidationError(messages.invalidCursor);
  const from = offset as number;
  const { query, list } = fewList(callId, anno, filter);
  const result = await documentClient.send(new QueryCommand({ TableName: tableName, ...query, ...rowProjection(query.IndexName), Limit: FEW + 1 }));
  const found = result.Items ?? [];
  if (found.length > FEW || result.LastEvaluatedKey) return null;
  const key = (item: Record<string, any>) => `${numericSortKey(item.importoTotale)}#${item.userId}`;
  const ordered = found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (sort.startsWith('-')) ordered.reverse();
  const next = from + limit < ordered.length ? encodeCursor({ offset: from + limit }, list) : null;
  return { items: ordered.slice(from, from + limit).map(toRow), nextCursor: next };
}

/**
 * 'Record trovati' and the sum for a text filter: the matching summaries read through the index the
 * prefix keys (name or fiscal code), at most `cap` + 1 of them (beyond that the figures are lower bounds).
 */
export async function countDebtSummaries(callId: string, anno: number, filter: DebtListFilter & { text: NonNullable<DebtListFilter['text']> }, cap: number) {
  const { keyed: _keyed, ScanIndexForward: _forward, ...query } = plan(callId, anno, filter, 'nome');
  let count = 0;
  let sum = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({ TableName: tableName, ...query, ProjectionExpression: 'importoTotale', ExclusiveStartKey: start, Limit: cap + 1 - count }),
    );
    for (const item of result.Items ?? []) {
      if (count === cap) return { count, sum, capped: true };
      count += 1;
      sum += Number(item.importoTotale ?? 0);
    }
    start = result.LastEvaluatedKey;
  } while (start);
  return { count, sum, capped: false };
}

/**
 * One-off for rows stored before gsi6 (README "The payment list"): gives every call-year's rows without a
 * gsi6 key their key, each with the row's version as its condition (a refresh that wins meanwhile writes
 * the key itself). Idempotent; returns how many rows it keyed.
 */
export async function backfillDebtGroupKeys(firstYear: number, lastYear: number): Promise<number> {
  const calls = await queryAll({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.callsCollection }, ProjectionExpression: 'id' });
  let keyed = 0;
  for (const { id } of calls) {
    for (let anno = firstYear; anno <= lastYear; anno++) {
      const rows = await queryAll({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
        FilterExpression: 'attribute_not_exists(gsi6sk)',
        ExpressionAttributeValues: { ':pk': keys.debtSummariesOf(id, anno), ':user': 'USER#' },
        ProjectionExpression: 'userId, cognome, nome, importoTotale, version',
      });
      await mapAtMost(rows, 8, async (row) => {
        const written = await unlessConditionFails(
          documentClient.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.debtSummary(id, anno, row.userId),
              UpdateExpression: 'SET gsi6pk = :list, gsi6sk = :group',
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':list': keys.debtList(id, anno), ':group': groupKey(row as DebtSummary), ':version': row.version },
            }),
          ),
        );
        if (written !== null) keyed += 1;
      });
    }
  }
  return keyed;
}

/** The months of a call-year that left subscribers without a position for 'ISEE scaduto o mancante' (payments/repository.ts putMissingIsee). */
export async function listMissingIsee(callId: string, anno: number) {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': missingIseeKeys.year(callId, anno) } });
  return items.map((item) => ({ mese: item.mese as number, count: item.count as number, people: item.people as { fiscalCode: string; cognome: string; nome: string }[], generatedAt: item.generatedAt as string }));
}
