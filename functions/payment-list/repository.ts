import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type BatchGetCommandOutput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { debtTotalKeys, nameKey, zeroTotals, type DebtSort, type DebtSummary, type DebtSummaryRow, type DebtTotals } from '../domain/debt-summaries.ts';
import { periodKey } from '../domain/payments.ts';
import { ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Page } from '../domain/validation.ts';
import { decodeCursor, documentClient, encodeCursor, queryAll, tableName, unlessConditionFails, type CursorList } from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';
import { toPositionRecord } from '../payments/repository.ts';

/**
 * The payment list's maintained aggregates (README "The payment list"). DynamoDB only, no rules: the
 * figures come from functions/domain/debt-summaries.ts.
 *
 * - a summary per call, year and citizen: pk "CALL#<callId>#DEBTS#<anno>", sk "USER#<userId>", written
 *   with a version condition (create: must not exist; change: same version as read);
 *   gsi1 "DEBTS#<callId>#<anno>" / "<importoTotale, 12 digits>#<userId>" (amount order),
 *   gsi2 same pk / "<cognome nome normalised>#<userId>" (name order and name prefix),
 *   gsi5 same pk / "<FISCAL CODE>#<userId>" (fiscal-code prefix),
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

const INDEX_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'nName', 'kind'];

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
    ...(summary.senzaEmail ? { gsi3pk: noMail, gsi3sk: name, gsi4pk: noMail, gsi4sk: amount } : {}),
    nName: nameKey(summary.cognome, summary.nome),
    ...summary,
  };
}

async function batchGet(requestKeys: Record<string, unknown>[]): Promise<Record<string, any>[]> {
  const found: Record<string, any>[] = [];
  for (let i = 0; i < requestKeys.length; i += 100) {
    let request: Record<string, any> | undefined = { [tableName]: { Keys: requestKeys.slice(i, i + 100), ConsistentRead: true } };
    for (let attempt = 0; request && Object.keys(request).length; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const result: BatchGetCommandOutput = await documentClient.send(new BatchGetCommand({ RequestItems: request }));
      found.push(...(result.Responses?.[tableName] ?? []));
      request = result.UnprocessedKeys;
    }
  }
  return found;
}

/** The stored summaries of these citizens (consistent reads), by summaryKeyOf. */
export async function getDebtSummaries(which: readonly SummaryKey[]): Promise<Map<string, StoredDebtSummary>> {
  const items = await batchGet(which.map((k) => keys.debtSummary(k.callId, k.anno, k.userId)));
  return new Map(items.map((item) => [summaryKeyOf(item as SummaryKey), toStored(item)]));
}

/**
 * The positions of these citizens in these calls and years: the twelve month keys of each, read
 * consistently from the table (a GSI could miss a position written a moment ago).
 */
export async function positionsOfYears(which: readonly SummaryKey[]): Promise<PositionRecord[]> {
  const requestKeys = which.flatMap((k) => Array.from({ length: 12 }, (_, m) => keys.position(k.callId, periodKey({ anno: k.anno, mese: m + 1 }), k.userId)));
  return (await batchGet(requestKeys)).map(toPositionRecord);
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

/**
 * One page of a call-year's summaries. A filter the index key answers reads exactly the page; a name
 * prefix in amount order is a FilterExpression over the amount index, filled by at most 10 rounds of 200
 * items (a rare name may give a short page and a cursor, as the users search does).
 */
export async function listDebtSummaries(
  callId: string,
  anno: number,
  filter: DebtListFilter,
  sort: DebtSort,
  page: { limit: number; cursor?: string },
): Promise<Page<DebtSummaryRow>> {
  if (filter.text?.kind === 'name' && sort.endsWith('importo')) {
    const few = await fewByName(callId, anno, filter, sort, page);
    if (few) return few;
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

/** A name prefix matching at most this many rows is read whole through the name index and ordered by amount here. */
const FEW = 200;

/**
 * A name prefix in amount order, when it matches few rows (the usual case: a surname): one keyed Query
 * on the name index reads them all, they are ordered by amount here and the page is an offset (signed,
 * bound to the same list). Null when more than FEW match: the amount index with a filter then pages.
 */
async function fewByName(callId: string, anno: number, filter: DebtListFilter, sort: DebtSort, page: { limit: number; cursor?: string }): Promise<Page<DebtSummaryRow> | null> {
  const { keyed: _keyed, ScanIndexForward: _forward, ...query } = plan(callId, anno, filter, 'nome');
  const list = cursorList(query);
  const offset = page.cursor ? Number(decodeCursor(page.cursor, list)?.offset) : 0;
  const result = await documentClient.send(new QueryCommand({ TableName: tableName, ...query, ...rowProjection(query.IndexName), Limit: FEW + 1 }));
  const found = result.Items ?? [];
  if (found.length > FEW || result.LastEvaluatedKey) {
    if (page.cursor) throw new ValidationError(messages.invalidCursor);
    return null;
  }
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError(messages.invalidCursor);
  const key = (item: Record<string, any>) => `${numericSortKey(item.importoTotale)}#${item.userId}`;
  const ordered = found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (sort.startsWith('-')) ordered.reverse();
  const next = offset + page.limit < ordered.length ? encodeCursor({ offset: offset + page.limit }, list) : null;
  return { items: ordered.slice(offset, offset + page.limit).map(toRow), nextCursor: next };
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
