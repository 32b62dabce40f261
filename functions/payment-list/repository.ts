import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import {
  compareRows,
  debtTotalKeys,
  nameKey,
  zeroTotals,
  type DebtSort,
  type DebtSummary,
  type DebtSummaryRow,
  type DebtTotals,
} from '../domain/debt-summary-rules.ts';
import { mapAtMost } from '../domain/at-most.ts';
import { ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Page } from '../domain/validation.ts';
import {
  BACKFILL_PAGE,
  batchGet,
  decodeCursor,
  documentClient,
  encodeCursor,
  mergedQueryPage,
  queryAll,
  tableName,
  unlessConditionFails,
  type BackfillPage,
  type CursorList,
  type StreamPosition,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { DEBT_LIST_SHARDS, keys, numericSortKey, paymentKeys, shardOf } from '../adapters/table.ts';

/**
 * The payment list's maintained aggregates (README "The payment list"). DynamoDB only, no rules: the
 * figures come from functions/domain/debt-summaries.ts.
 *
 * - a summary per call, year and citizen: pk "CALL#<callId>#DEBTS#<anno>", sk "USER#<userId>", written
 *   with a version condition (create: must not exist; change: same version as read); its index keys are
 *   write-sharded by citizen, "DEBTS#<callId>#<anno>#<shard>" (DEBT_LIST_SHARDS; a month's generation rewrites
 *   every row at once), and every reading queries each shard and merges them (adapters/dynamo.ts mergedQueryPage):
 *   gsi1 "DEBTS#<callId>#<anno>#<shard>" / "<importoTotale, 12 digits>#<userId>" (amount order),
 *   gsi2 same pk / "<cognome nome normalised>#<userId>" (name order and name prefix),
 *   gsi5 same pk / "<FISCAL CODE>#<userId>" (fiscal-code prefix),
 *   gsi6 same pk / "<first word of the name key>#<importoTotale, 12 digits>#<userId>" (a surname's rows in
 *   amount order: a one-word prefix in amount order merges the few words it spans, see byWords),
 *   and only while the citizen has a pending position without e-mail (sparse, 'Email non inviata'):
 *   gsi3 "DEBTS#<callId>#<anno>#<shard>#NOMAIL" / name key, gsi4 the same pk / amount key;
 * - the call-year's totals: same pk, sk "TOTALS", kept by `ADD` of each summary change's delta;
 * - a marker per row with a payment to reconcile: same pk, sk "RECONCILE#<userId>" (paymentKeys.debtToReconcile),
 *   written before the row when it has one and deleted after it when it no longer has: the 'Pagamento da
 *   riconciliare' filter reads them (few, by nature) and re-checks each row, so a stale marker shows nothing.
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

const INDEX_ATTRIBUTES = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'gsi5pk',
  'gsi5sk',
  'gsi6pk',
  'gsi6sk',
  'nName',
  'kind',
];

export function toStored(item: StoredItem): StoredDebtSummary {
  const record = { ...item };
  for (const key of INDEX_ATTRIBUTES) delete record[key];
  return record as StoredDebtSummary;
}

export const toRow = (item: StoredItem): DebtSummaryRow => ({
  userId: item.userId,
  cognome: item.cognome,
  nome: item.nome,
  codiceFiscale: item.codiceFiscale,
  telefono: item.telefono ?? null,
  email: item.email ?? null,
  importoTotale: item.importoTotale,
  paymentIds: item.paymentIds ?? [],
  daRiconciliare: Number(item.daRiconciliare ?? 0),
});

/** The first word of the name key ("de rossi maria" → "de"): a row's group on gsi6. */
const firstWord = (name: string) => name.split(' ')[0] ?? '';
/** gsi6's sort key: the group, then the amount order's own key (so a merge of groups is the amount order). */
const groupKey = (summary: Pick<DebtSummary, 'cognome' | 'nome' | 'importoTotale' | 'userId'>) =>
  `${firstWord(nameKey(summary.cognome, summary.nome))}#${numericSortKey(summary.importoTotale)}#${summary.userId}`;

/** The stored item of a summary, with its index keys (the bench seeds with it). */
export function debtSummaryItem(summary: StoredDebtSummary) {
  const shard = shardOf(summary.userId, DEBT_LIST_SHARDS);
  const list = keys.debtList(summary.callId, summary.anno, shard);
  const noMail = keys.debtListNoMail(summary.callId, summary.anno, shard);
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

const reconcileMarker = (summary: Pick<DebtSummary, 'callId' | 'anno' | 'userId'>) => ({
  ...paymentKeys.debtToReconcile(summary.callId, summary.anno, summary.userId),
  userId: summary.userId,
});

/**
 * Writes a summary if the stored one is still `expectedVersion` (null: none yet); false when another writer
 * won. Its 'Pagamento da riconciliare' marker follows (`hadToReconcile`: the stored row had one).
 */
export async function putDebtSummary(
  summary: StoredDebtSummary,
  expectedVersion: number | null,
  hadToReconcile = false,
): Promise<boolean> {
  if (summary.daRiconciliare > 0)
    await documentClient.send(new PutCommand({ TableName: tableName, Item: reconcileMarker(summary) }));
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: debtSummaryItem(summary),
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': expectedVersion },
            }),
      }),
    ),
  );
  if (written !== null && hadToReconcile && summary.daRiconciliare === 0) {
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: paymentKeys.debtToReconcile(summary.callId, summary.anno, summary.userId),
      }),
    );
  }
  return written !== null;
}

/** The markers of a whole batch of summaries (the month refresh's batched writes): rows with a payment to reconcile. */
export const reconcileMarkersOf = (summaries: readonly StoredDebtSummary[]) =>
  summaries.filter((s) => s.daRiconciliare > 0).map(reconcileMarker);

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
      ExpressionAttributeValues: {
        ...Object.fromEntries(changed.map((key, i) => [`:v${i}`, delta[key]])),
        ':callId': callId,
        ':anno': anno,
        ':at': at,
      },
    }),
  );
}

const totalsOf = (item: StoredItem | undefined): DebtTotals => {
  const totals = zeroTotals();
  for (const key of debtTotalKeys) totals[key] = Number(item?.[key] ?? 0);
  return totals;
};

export async function getDebtTotals(callId: string, anno: number): Promise<DebtTotals> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.debtTotals(callId, anno) }),
  );
  return totalsOf(Item);
}

/** Overwrites the call-year's totals (the reconcile, with the sum of the summaries). */
export async function putDebtTotals(callId: string, anno: number, totals: DebtTotals, at: string): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.debtTotals(callId, anno), callId, anno, ...totals, updatedAt: at, reconciledAt: at },
    }),
  );
}

/** A call-year's rows of the list: its partition's USER# items (the Query's key condition). */
export const rowsOfYear = (callId: string, anno: number) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
  ExpressionAttributeValues: { ':pk': keys.debtSummariesOf(callId, anno), ':user': 'USER#' },
});

/** Every summary's contribution of a call-year, summed (the reconcile: one partition, paged to the end). */
export async function sumDebtSummaries(callId: string, anno: number): Promise<DebtTotals> {
  const sum = zeroTotals();
  const items = await queryAll({
    ...rowsOfYear(callId, anno),
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
  /** Only the rows with a payment to reconcile (read through their markers). */
  toReconcile?: boolean;
}

/** A filtered set this large is read whole through the markers; beyond it the page and the count are cut there. */
const RECONCILE_CAP = 200;

const reconcileList = (callId: string, anno: number): CursorList => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :reconcile)',
  ExpressionAttributeValues: { ':pk': keys.debtSummariesOf(callId, anno), ':reconcile': 'RECONCILE#' },
});

/**
 * The rows with a payment to reconcile: the markers of the call-year (at most RECONCILE_CAP + 1, one
 * Query), their rows read consistently by key and checked (a stale marker drops out), the other filters and
 * the order applied here. Payments to reconcile are exceptions: the set is small.
 */
async function rowsToReconcile(
  callId: string,
  anno: number,
  filter: DebtListFilter,
  sort: DebtSort,
): Promise<{ rows: DebtSummaryRow[]; capped: boolean }> {
  const { Items = [], LastEvaluatedKey } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      ...reconcileList(callId, anno),
      ProjectionExpression: 'userId',
      ConsistentRead: true,
      Limit: RECONCILE_CAP + 1,
    }),
  );
  const capped = Items.length > RECONCILE_CAP || Boolean(LastEvaluatedKey);
  const items = await batchGet(
    Items.slice(0, RECONCILE_CAP).map((marker) => keys.debtSummary(callId, anno, String(marker.userId))),
    { consistent: true },
  );
  const { text } = filter;
  const rows = items
    .filter((item) => Number(item.daRiconciliare ?? 0) > 0 && (!filter.noMail || item.senzaEmail))
    .filter(
      (item) =>
        !text ||
        (text.kind === 'fiscalCode'
          ? String(item.codiceFiscale).toUpperCase().startsWith(text.prefix)
          : String(item.nName ?? '').startsWith(text.prefix)),
    )
    .map(toRow)
    .sort(compareRows(sort));
  return { rows, capped };
}

/**
 * The list's shards (DEBT_LIST_SHARDS): every reading queries each and merges them (mergedQueryPage).
 *
 * Expand, then contract: rows written before the shards keep their unsharded keys ("DEBTS#<callId>#<anno>",
 * "…#NOMAIL") until the migration payment-list-shards-v1 rewrites them, so every reading also queries that
 * partition as one more stream (UNSHARDED): no row disappears from the list while the migration runs (a row is
 * on one partition or the other, never both). Drop it in a release after every deployment records the
 * migration APPLIED.
 */
const UNSHARDED = DEBT_LIST_SHARDS;
const SHARDS = [...Array.from({ length: DEBT_LIST_SHARDS }, (_, shard) => shard), UNSHARDED];
const listKey = (callId: string, anno: number, shard: number) =>
  shard === UNSHARDED ? keys.debtListUnsharded(callId, anno) : keys.debtList(callId, anno, shard);
const noMailKey = (callId: string, anno: number, shard: number) =>
  shard === UNSHARDED ? keys.debtListNoMailUnsharded(callId, anno) : keys.debtListNoMail(callId, anno, shard);

/**
 * How a filter and an order are read, always a Query per shard: the index whose sort key is the order, or whose
 * sort key starts with the text; what the key cannot say becomes a FilterExpression. `list` is what a cursor
 * is bound to (the list, its filter and its direction).
 */
interface ListPlan {
  index: string;
  forward: boolean;
  /** True when the key condition alone (nearly) selects the rows: read a page's share per shard, not rounds. */
  keyed: boolean;
  streams: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>[];
  list: CursorList;
}

function plan(callId: string, anno: number, filter: DebtListFilter, sort: DebtSort): ListPlan {
  const byAmount = sort.endsWith('importo');
  const forward = !sort.startsWith('-');
  const { text } = filter;
  const shape = (
    index: string,
    keyCondition: string,
    values: Record<string, unknown>,
    partition: (shard: number) => string,
    filterExpression?: string,
  ) => ({
    index,
    forward,
    keyed: !filterExpression || text?.kind === 'fiscalCode',
    streams: SHARDS.map((shard) => ({
      IndexName: index,
      KeyConditionExpression: keyCondition,
      ExpressionAttributeValues: { ...values, ':pk': partition(shard) },
      ...(filterExpression ? { FilterExpression: filterExpression } : {}),
    })),
    list: {
      IndexName: index,
      KeyConditionExpression: `${keyCondition}${filterExpression ? ` FILTER ${filterExpression}` : ''} BY :forward`,
      ExpressionAttributeValues: { ...values, ':pk': partition(-1), ':forward': forward },
    },
  });
  const all = (shard: number) => listKey(callId, anno, shard);
  if (text?.kind === 'fiscalCode') {
    // The fiscal-code index holds every summary; 'Email non inviata' is then a filter on the item.
    return shape(
      'gsi5',
      'gsi5pk = :pk AND begins_with(gsi5sk, :prefix)',
      { ':prefix': text.prefix, ...(filter.noMail ? { ':true': true } : {}) },
      all,
      filter.noMail ? 'senzaEmail = :true' : undefined,
    );
  }
  const index = filter.noMail ? (byAmount ? 'gsi4' : 'gsi3') : byAmount ? 'gsi1' : 'gsi2';
  const partition = filter.noMail ? (shard: number) => noMailKey(callId, anno, shard) : all;
  if (text && !byAmount)
    return shape(index, `${index}pk = :pk AND begins_with(${index}sk, :prefix)`, { ':prefix': text.prefix }, partition);
  if (text)
    return shape(index, `${index}pk = :pk`, { ':prefix': text.prefix }, partition, 'begins_with(nName, :prefix)');
  return shape(index, `${index}pk = :pk`, {}, partition);
}

/** Items a FilterExpression page reads per round (all shards together), and rounds per request: a request's work is bounded. */
const ROUND_SIZE = 200;
const MAX_ROUNDS = 10;
const KEYED_ROUNDS = 6;

/** What a page reads of each row: the row's fields and the keys a cursor needs (not the totals' contribution, nor the other indexes' keys). */
const ROW_ATTRIBUTES = [
  'userId',
  'cognome',
  'nome',
  'codiceFiscale',
  'telefono',
  'email',
  'importoTotale',
  'paymentIds',
  'daRiconciliare',
] as const;
function rowProjection(index: string, attributes: readonly string[] = ROW_ATTRIBUTES) {
  const names = [...attributes, 'pk', 'sk', `${index}pk`, `${index}sk`];
  return {
    ProjectionExpression: names.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#p${i}`, name])),
  };
}
const keyOf = (index: string) => (item: StoredItem) => ({
  pk: item.pk,
  sk: item.sk,
  [`${index}pk`]: item[`${index}pk`],
  [`${index}sk`]: item[`${index}sk`],
});

/**
 * A page of a plan: its shards merged in the index's order. A keyed read takes about its share of the page from
 * each shard per round (the rows are spread evenly); a filtered one reads ROUND_SIZE rows a round over all shards,
 * at most MAX_ROUNDS (a rare name may give a short page and a cursor, as the users search does).
 */
async function planPage(
  p: ListPlan,
  limit: number,
  positions: StreamPosition[],
  attributes?: readonly string[],
  rounds?: number,
) {
  const share = Math.ceil((limit * 5) / (4 * SHARDS.length)) + 2;
  return mergedQueryPage(
    p.streams.map((stream) => ({ ...stream, ...rowProjection(p.index, attributes) })),
    positions,
    {
      order: (item) => String(item[`${p.index}sk`]),
      forward: p.forward,
      limit,
      roundSize: p.keyed ? Math.min(limit, share) : Math.ceil(ROUND_SIZE / SHARDS.length),
      maxRounds: rounds ?? (p.keyed ? KEYED_ROUNDS : MAX_ROUNDS),
      keyOf: keyOf(p.index),
    },
  );
}

/**
 * A cursor holds where each shard (and word) stands as the index sort key only, without the part its stream
 * already says (a word's "<word>#"): the rest of the key (the row's pk and sk, the stream's partition) follows
 * from the sort key, whose last part is the citizen's id. Small enough for a query string with 24 streams.
 */
type CompactPosition = string | null | true;
const compact =
  (index: string, prefixes: readonly string[]) =>
  (positions: StreamPosition[]): CompactPosition[] =>
    positions.map((p, i) => (p === null || p === true ? p : String(p[`${index}sk`]).slice(prefixes[i]!.length)));
function expand(
  callId: string,
  anno: number,
  index: string,
  streams: ListPlan['streams'],
  prefixes: readonly string[],
  positions: CompactPosition[],
): StreamPosition[] {
  return positions.map((p, i) => {
    if (p === null || p === true) return p;
    const sortKey = `${prefixes[i]}${p}`;
    return {
      ...keys.debtSummary(callId, anno, sortKey.slice(sortKey.lastIndexOf('#') + 1)),
      [`${index}pk`]: streams[i]!.ExpressionAttributeValues![':pk'],
      [`${index}sk`]: sortKey,
    };
  });
}
/** The compact positions of a signed cursor, one per stream (a cursor of another list, or altered, is a 400). */
function readPositions(cursor: string | undefined, list: CursorList, streams: number): CompactPosition[] {
  if (!cursor) return Array.from({ length: streams }, () => null);
  const { m } = decodeCursor(cursor, list) as { m?: unknown };
  if (!Array.isArray(m) || m.length !== streams || !m.every((p) => p === null || p === true || typeof p === 'string'))
    throw new ValidationError(messages.invalidCursor);
  return m as CompactPosition[];
}

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
 * One page of a call-year's summaries, every reading a merge of the list's shards (README "DynamoDB keys",
 * write sharding). A filter the index key answers reads exactly the page. A name prefix in amount order: a
 * one-word prefix spanning at most MERGE_GROUPS first words (a whole surname: "rossi" → rossi, rossini) merges
 * those words' rows, each read in amount order on gsi6 (byWords); otherwise at most FEW matches are read
 * through the name index and ordered here (fewByName); beyond, a FilterExpression over the amount index, filled
 * by at most MAX_ROUNDS rounds. A cursor continues the reading that wrote it.
 */
export async function listDebtSummaries(
  callId: string,
  anno: number,
  filter: DebtListFilter,
  sort: DebtSort,
  page: { limit: number; cursor?: string },
): Promise<Page<DebtSummaryRow>> {
  if (filter.toReconcile) {
    const list = reconcileList(callId, anno);
    const offset = page.cursor ? Number(decodeCursor(page.cursor, list)?.offset) : 0;
    if (!Number.isInteger(offset) || offset < 0) throw new ValidationError(messages.invalidCursor);
    const { rows } = await rowsToReconcile(callId, anno, filter, sort);
    return {
      items: rows.slice(offset, offset + page.limit),
      nextCursor: offset + page.limit < rows.length ? encodeCursor({ offset: offset + page.limit }, list) : null,
    };
  }
  if (filter.text?.kind === 'name' && sort.endsWith('importo')) {
    const merge = mergeList(callId, anno, filter.text.prefix, sort);
    if (page.cursor) {
      const state = cursorOf(page.cursor, merge);
      if (state) return byWords(callId, anno, sort, page.limit, readWordsCursor(state), merge);
      const few = cursorOf(page.cursor, fewPlan(callId, anno, filter).list);
      if (few)
        return (
          (await fewByName(callId, anno, filter, sort, page.limit, few.offset)) ??
          Promise.reject(new ValidationError(messages.invalidCursor))
        );
    } else {
      const words =
        filter.noMail || filter.text.prefix.includes(' ') ? null : await wordsOf(callId, anno, filter.text.prefix);
      if (words)
        return byWords(
          callId,
          anno,
          sort,
          page.limit,
          { words, positions: words.flatMap(() => SHARDS.map(() => null)) },
          merge,
        );
      const few = await fewByName(callId, anno, filter, sort, page.limit, 0);
      if (few) return few;
    }
  }
  const p = plan(callId, anno, filter, sort);
  const prefixes = p.streams.map(() => '');
  const start = expand(
    callId,
    anno,
    p.index,
    p.streams,
    prefixes,
    readPositions(page.cursor, p.list, p.streams.length),
  );
  const { items, positions } = await planPage(p, page.limit, start);
  return {
    items: items.map(toRow),
    nextCursor: positions ? encodeCursor({ m: compact(p.index, prefixes)(positions) }, p.list) : null,
  };
}

/** A one-word prefix spanning more first words than this is not merged (a 3-letter prefix spans dozens). */
const MERGE_GROUPS = 6;

/**
 * The first words (gsi6's groups) starting with a one-word prefix, in key order, over every shard: one Query of
 * one key per word and shard, each starting after the previous word ("<word>$": '$' sorts right after the '#'
 * that ends a word's keys and before any letter or digit). Null when there are more than MERGE_GROUPS.
 */
async function wordsOf(callId: string, anno: number, prefix: string): Promise<string[] | null> {
  const perShard = await Promise.all(
    SHARDS.map(async (shard) => {
      const pk = listKey(callId, anno, shard);
      const words: string[] = [];
      for (let from = prefix; words.length <= MERGE_GROUPS;) {
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
        if (!key) break;
        const word = key.slice(0, key.indexOf('#'));
        words.push(word);
        from = `${word}$`;
      }
      return words;
    }),
  );
  const words = [...new Set(perShard.flat())].sort();
  return words.length > MERGE_GROUPS ? null : words;
}

const mergeList = (callId: string, anno: number, prefix: string, sort: DebtSort): CursorList => ({
  // What the cursor is bound to (never sent: the words are read one by one): the list, the prefix and the order.
  IndexName: 'gsi6',
  KeyConditionExpression: 'gsi6pk = :pk AND begins_with(gsi6sk, :prefix) BY :sort',
  ExpressionAttributeValues: { ':pk': `DEBTS#${callId}#${anno}`, ':prefix': prefix, ':sort': sort },
});

type WordsState = { words: string[]; positions: CompactPosition[] };

function readWordsCursor(state: Record<string, unknown>): WordsState {
  const { w, m } = state;
  const valid =
    Array.isArray(w) &&
    w.length <= MERGE_GROUPS &&
    w.every((word) => typeof word === 'string') &&
    Array.isArray(m) &&
    m.length === w.length * SHARDS.length &&
    m.every((p) => p === null || p === true || typeof p === 'string');
  if (!valid) throw new ValidationError(messages.invalidCursor);
  return { words: w as string[], positions: m as CompactPosition[] };
}

/**
 * A page of the rows of a few first words in amount order: every word on every shard read in amount order on
 * gsi6 and merged by gsi6's "<amount>#<userId>" (the amount index's own order); the cursor says where each
 * word and shard stands (signed, bound to the prefix and the order).
 */
async function byWords(
  callId: string,
  anno: number,
  sort: DebtSort,
  limit: number,
  { words, positions }: WordsState,
  list: CursorList,
): Promise<Page<DebtSummaryRow>> {
  const streams = words.flatMap((word) =>
    SHARDS.map((shard) => ({
      IndexName: 'gsi6',
      KeyConditionExpression: 'gsi6pk = :pk AND begins_with(gsi6sk, :word)',
      ExpressionAttributeValues: { ':pk': listKey(callId, anno, shard), ':word': `${word}#` },
      ...rowProjection('gsi6'),
    })),
  );
  const orderKey = (item: StoredItem) => String(item.gsi6sk).slice(String(item.gsi6sk).indexOf('#') + 1);
  const share = Math.min(limit, Math.ceil((limit * 5) / (4 * SHARDS.length)) + 2);
  const prefixes = words.flatMap((word) => SHARDS.map(() => `${word}#`));
  const start = expand(callId, anno, 'gsi6', streams, prefixes, positions);
  const read = await mergedQueryPage(streams, start, {
    order: orderKey,
    forward: !sort.startsWith('-'),
    limit,
    roundSize: share,
    maxRounds: KEYED_ROUNDS,
    keyOf: keyOf('gsi6'),
  });
  return {
    items: read.items.map(toRow),
    nextCursor: read.positions ? encodeCursor({ w: words, m: compact('gsi6', prefixes)(read.positions) }, list) : null,
  };
}

/** A name prefix matching at most this many rows is read whole through the name index and ordered by amount here. */
const FEW = 200;

const fewPlan = (callId: string, anno: number, filter: DebtListFilter) => plan(callId, anno, filter, 'nome');

/**
 * A name prefix in amount order, when it matches few rows (a surname and a name): one keyed Query per shard on
 * the name index reads them all, they are ordered by amount here and the page is an offset (signed, bound to
 * the same list). Null when more than FEW match: the amount index with a filter then pages.
 */
async function fewByName(
  callId: string,
  anno: number,
  filter: DebtListFilter,
  sort: DebtSort,
  limit: number,
  offset: unknown,
): Promise<Page<DebtSummaryRow> | null> {
  if (!Number.isInteger(offset) || (offset as number) < 0) throw new ValidationError(messages.invalidCursor);
  const from = offset as number;
  const p = fewPlan(callId, anno, filter);
  const reads = await Promise.all(
    p.streams.map((stream) =>
      documentClient.send(
        new QueryCommand({ TableName: tableName, ...stream, ...rowProjection(p.index), Limit: FEW + 1 }),
      ),
    ),
  );
  const found = reads.flatMap((result) => result.Items ?? []);
  if (found.length > FEW || reads.some((result) => result.LastEvaluatedKey)) return null;
  const key = (item: StoredItem) => `${numericSortKey(item.importoTotale)}#${item.userId}`;
  const ordered = found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (sort.startsWith('-')) ordered.reverse();
  const next = from + limit < ordered.length ? encodeCursor({ offset: from + limit }, p.list) : null;
  return { items: ordered.slice(from, from + limit).map(toRow), nextCursor: next };
}

/**
 * 'Record trovati' and the sum for a text filter: the first `cap` + 1 matching summaries in the order of the
 * index the prefix keys (name or fiscal code), its shards merged (beyond `cap` the figures are lower bounds).
 */
export async function countDebtSummaries(callId: string, anno: number, filter: DebtListFilter, cap: number) {
  if (filter.toReconcile) {
    const { rows, capped } = await rowsToReconcile(callId, anno, filter, 'nome');
    return { count: rows.length, sum: rows.reduce((sum, row) => sum + row.importoTotale, 0), capped };
  }
  const p = plan(callId, anno, filter, 'nome');
  const { items, positions } = await planPage(
    p,
    cap + 1,
    SHARDS.map(() => null),
    ['importoTotale'],
    20,
  );
  const counted = items.slice(0, cap);
  // Read within its budget but not to the end: what was found is a lower bound too.
  return {
    count: counted.length,
    sum: counted.reduce((sum, item) => sum + Number(item.importoTotale ?? 0), 0),
    capped: items.length > cap || (positions !== null && items.length <= cap),
  };
}

const INDEX_KEYS = [
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'gsi5pk',
  'gsi5sk',
  'gsi6pk',
  'gsi6sk',
];

/**
 * For rows stored before their keys took their present shape (README "The payment list": gsi6, then the list's
 * shards "DEBTS#<callId>#<anno>#<shard>"): one page of a call-year's rows from `start`, those whose index keys
 * are not the ones debtSummaryItem gives now rewritten, each with the row's version as its condition (a refresh
 * that wins meanwhile writes the keys itself). Idempotent. The data migrations 'payment-list-gsi6-v1' and
 * 'payment-list-shards-v1' (functions/migrations) walk every call and year with it, a page a step.
 */
export async function backfillDebtListKeysPage(
  callId: string,
  anno: number,
  start?: Record<string, unknown>,
  limit = BACKFILL_PAGE,
): Promise<BackfillPage> {
  const result = await documentClient.send(
    new QueryCommand({ TableName: tableName, ...rowsOfYear(callId, anno), ExclusiveStartKey: start, Limit: limit }),
  );
  let keyed = 0;
  await mapAtMost(result.Items ?? [], 8, async (row) => {
    const item: Record<string, unknown> = debtSummaryItem(toStored(row) as StoredDebtSummary);
    if (INDEX_KEYS.every((key) => item[key] === row[key])) return;
    const written = await unlessConditionFails(
      documentClient.send(
        new PutCommand({
          TableName: tableName,
          Item: item,
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': row.version },
        }),
      ),
    );
    if (written !== null) keyed += 1;
  });
  return { written: keyed, next: result.LastEvaluatedKey };
}
