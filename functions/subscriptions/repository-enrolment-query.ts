import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EnrolmentSort } from '../domain/enrolment.ts';
import { normaliseSearchText } from '../domain/users.ts';
import {
  batchGet,
  decodeCursor,
  documentClient,
  encodeCursor,
  queryAll,
  queryCount,
  tableName,
  type CursorList,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';
import { enrolKeys, ISEE_BUCKET_CENTS, iseeKey, normaliseFiscalCode, rankKey, toRecord } from './repository-items.ts';
import type { EnrolmentFilters, EnrolmentListRecord, EnrolmentRecordPage } from '../domain/subscription-record.ts';
import { readCounts } from './repository.ts';

/**
 * The operator's enrolment table (issue 7): one page of a call's subscriptions, filtered and sorted, and how
 * many match, planned over the indexes and counters described in repository-items.ts.
 */

const LIST_FIELDS = [
  'id',
  'userId',
  'announcementId',
  'state',
  'rankingScore',
  'weeklyHour',
  'fiscalCode',
  'firstName',
  'lastName',
  'isee',
  'dataUpdate',
] as const;
/** The list's ProjectionExpression: a row's attributes, a third of the item (the call's copy, the files and the keys stay). */
const listProjection = {
  ProjectionExpression: LIST_FIELDS.map((_, i) => `#p${i}`).join(', '),
  names: Object.fromEntries(LIST_FIELDS.map((field, i) => [`#p${i}`, field])),
};
/** A row of the table out of its projected item (LIST_FIELDS), read as a whole subscription is. */
const toListRecord = (item: StoredItem): EnrolmentListRecord => {
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
    ExpressionAttributeValues: {
      ':call': callId,
      ':filters': JSON.stringify([fiscal, last, first, filters.iseeAbove ?? null, !!filters.confirmed]),
    },
  };
  const position = decodeCursor(filters.cursor, list) as
    { ph?: number; k?: Record<string, unknown> | null; o?: number } | undefined;

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
  const filter = conditions.length
    ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names }
    : {};

  if (prefix) {
    const read = await queryAll({
      IndexName: prefix.index,
      KeyConditionExpression: `#pk = :pk AND begins_with(#sk, :prefix)`,
      ...filter,
      ProjectionExpression: sortProjection.ProjectionExpression,
      ExpressionAttributeNames: {
        ...names,
        ...sortProjection.names,
        '#pk': `${prefix.index}pk`,
        '#sk': `${prefix.index}sk`,
      },
      ExpressionAttributeValues: { ...values, ':pk': prefix.pk, ':prefix': prefix.value },
    });
    const matches: SortFields[] = read.map((item) => ({
      userId: item.userId,
      rankingScore: item.rankingScore ?? null,
      iseeCents: item.iseeCents ?? null,
    }));
    const offset = position?.o ?? 0;
    const page = matches.sort(compareBySort(filters.sort)).slice(offset, offset + filters.limit);
    const rows = await batchGet(
      page.map((match) => keys.subscription(callId, match.userId)),
      { projection: listProjection.ProjectionExpression, names: listProjection.names },
    );
    const byUser = new Map(rows.map((item) => [item.userId as string, toListRecord(item)]));
    // A row deleted since its search item was read is left out.
    const items = page.flatMap((match) => byUser.get(match.userId) ?? []);
    return {
      items,
      nextCursor: offset + filters.limit < matches.length ? encodeCursor({ o: offset + filters.limit }, list) : null,
      total: matches.length,
    };
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
  const phaseFilter = conditions.length
    ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names }
    : { ExpressionAttributeNames: {} };
  const phases = [
    iseeRange
      ? {
          condition: '#pk = :pk AND #sk BETWEEN :from AND :to',
          values: { ':from': `S#${numericSortKey(filters.iseeAbove! + 1)}`, ':to': 'S#~' },
          forward: !descending,
        }
      : { condition: '#pk = :pk AND begins_with(#sk, :range)', values: { ':range': 'S#' }, forward: !descending },
    // The ISEE index's "U#" rows have no ISEE, so none is above X; the ranking index's are the unscored
    // rows, whatever their ISEE: the filter keeps those above X.
    ...(iseeRange
      ? []
      : [{ condition: '#pk = :pk AND begins_with(#sk, :range)', values: { ':range': 'U#' }, forward: true }]),
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
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: current.condition,
        ...phaseFilter,
        ProjectionExpression: listProjection.ProjectionExpression,
        ExpressionAttributeNames: {
          ...phaseFilter.ExpressionAttributeNames,
          ...listProjection.names,
          '#pk': `${index}pk`,
          '#sk': `${index}sk`,
        },
        ExpressionAttributeValues: { ...values, ':pk': pk, ...current.values },
        ScanIndexForward: current.forward,
        // One more than needed: a page that ends a range knows it did.
        Limit: Math.min(500, Math.ceil((need + 1) / share)),
        ExclusiveStartKey: startKey,
      }),
    );
    const items = result.Items ?? [];
    let stopped = false;
    for (const item of items) {
      if (found.length === filters.limit) {
        // One more match than the page: the next page starts after the last one returned.
        const lastItem = found.at(-1)!;
        next = {
          ph: phase,
          k: {
            pk: keys.subscription(lastItem.announcementId, lastItem.userId).pk,
            sk: keys.subscription(lastItem.announcementId, lastItem.userId).sk,
            [`${index}pk`]: pk,
            [`${index}sk`]: byIsee
              ? iseeKey(lastItem.isee, lastItem.userId)
              : rankKey(lastItem.rankingScore, lastItem.userId),
          },
        };
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

/**
 * The state filter's ISEE-bucket counters (v_ confirmed, b_ all) summed: the buckets above X's own, and X's own
 * (whose rows are only partly above X).
 */
function bucketCounts(counted: Record<string, number>, filters: { iseeAbove: number; confirmed?: boolean }) {
  const bucket = Math.floor(filters.iseeAbove / ISEE_BUCKET_CENTS);
  const prefix = filters.confirmed ? 'v_' : 'b_';
  let above = 0;
  let own = 0;
  for (const [key, value] of Object.entries(counted)) {
    if (!key.startsWith(prefix)) continue;
    const n = Number(key.slice(2));
    if (n > bucket) above += Number(value);
    else if (n === bucket) own += Number(value);
  }
  return { bucket, above, own };
}

/** How many rows match the state and "ISEE above" filters, from the counters alone: X's own bucket counts half. */
function estimateTotal(
  counted: Record<string, number>,
  filters: Pick<EnrolmentFilters, 'iseeAbove' | 'confirmed'>,
): number {
  if (filters.iseeAbove === undefined) return (filters.confirmed ? counted.c_VALIDATED : counted.c_all) ?? 0;
  const { above, own } = bucketCounts(counted, { iseeAbove: filters.iseeAbove, confirmed: filters.confirmed });
  return above + own / 2;
}

/** How many rows match filters without a prefix: from the counters, plus one bucket counted for "ISEE above". */
async function enrolmentTotal(
  callId: string,
  filters: EnrolmentFilters,
  counts: Promise<Record<string, number>>,
): Promise<number> {
  const counted = await counts;
  if (filters.iseeAbove === undefined) return estimateTotal(counted, filters);
  const { bucket, above } = bucketCounts(counted, { iseeAbove: filters.iseeAbove, confirmed: filters.confirmed });
  let total = above;
  // Within X's own bucket: the rows above X, a short key range of the ISEE index.
  const bucketEnd = (bucket + 1) * ISEE_BUCKET_CENTS - 1;
  if (filters.iseeAbove < bucketEnd) {
    total += await queryCount({
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk BETWEEN :from AND :to',
      ...(filters.confirmed ? { FilterExpression: '#st = :st', ExpressionAttributeNames: { '#st': 'state' } } : {}),
      ExpressionAttributeValues: {
        ':pk': enrolKeys.isee(callId),
        ':from': `S#${numericSortKey(filters.iseeAbove + 1)}`,
        ':to': `S#${numericSortKey(bucketEnd)}#~`,
        ...(filters.confirmed ? { ':st': 'VALIDATED' } : {}),
      },
    });
  }
  return total;
}
