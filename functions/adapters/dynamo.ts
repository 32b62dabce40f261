import { createHmac, timingSafeEqual } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  type BatchGetCommandOutput,
  type BatchWriteCommandOutput,
  type NativeAttributeValue,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { mapAtMost } from '../domain/at-most.ts';
import { ValidationError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import type { Page } from '../domain/validation.ts';
import { table } from './table.ts';
import { tracer } from './observability.ts';

/**
 * An item as the DocumentClient reads it. NativeAttributeValue is the SDK's own name for an attribute's
 * value; note that it includes `any` (an instance of any class), so this names what the record is but does
 * not check its fields: a repository's mapper (toBand, toTicket…) is where an item gets its shape.
 */
export type StoredItem = Record<string, NativeAttributeValue>;

const requireEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

/** Fails at cold start, not on the first request, when the function is not bound to its table. */
export const tableName = requireEnv('TABLE_NAME');

const dynamoClient = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT || undefined });
// No SDK logger is configured, yet its middleware runs the sensitive-data filter over every request and
// answer to build a log line nobody writes: 10–20% of a call's CPU (an export makes tens of thousands).
dynamoClient.middlewareStack.remove('loggerMiddleware');
/**
 * Every call is a subsegment of the function's X-Ray trace. A call DynamoDB throttled is sent again after a
 * growing pause (beyond the SDK's own three attempts, whose retry quota a storm of throttles spends): every
 * repository's writes and reads alike, so that a month written under one partition key slows down to the
 * partition's rate instead of failing.
 */
export const documentClient = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(dynamoClient), {
  marshallOptions: { removeUndefinedValues: true },
});
documentClient.send = async function sendUntilNotThrottled(this: DynamoDBDocumentClient, ...args: unknown[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (DynamoDBDocumentClient.prototype.send as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    } catch (error) {
      if (!isThrottled(error) || attempt >= THROTTLED_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
} as typeof documentClient.send;

/** What a cursor is bound to: the index and the key condition of the list (its partition key value). */
export type CursorList = Pick<QueryCommandInput, 'IndexName' | 'KeyConditionExpression' | 'ExpressionAttributeValues'>;

const listIdentity = ({ IndexName, KeyConditionExpression = '', ExpressionAttributeValues = {} }: CursorList) =>
  JSON.stringify([
    IndexName ?? 'table',
    KeyConditionExpression,
    (KeyConditionExpression.match(/:\w+/g) ?? []).map((name) => [name, ExpressionAttributeValues[name]]),
  ]);

/** Read when a cursor is made or checked (not at cold start: functions that never page need no secret). */
const cursorSecret = () => {
  const secret = process.env.CURSOR_SECRET;
  if (!secret) throw new Error('Missing environment variable CURSOR_SECRET');
  return secret;
};

const signature = (payload: string, list: CursorList) =>
  createHmac('sha256', cursorSecret())
    .update(`${listIdentity(list)}\n${payload}`)
    .digest('base64url');

/**
 * The opaque cursor of a page: the DynamoDB key it continues from, signed (HMAC) together with the list
 * it belongs to, so a cursor altered, or taken from another list or another user's list, is refused
 * with a 400 instead of reaching DynamoDB.
 */
export function encodeCursor(key: Record<string, unknown> | undefined | null, list: CursorList): string | null {
  if (!key) return null;
  const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${payload}.${signature(payload, list)}`;
}

export function decodeCursor(cursor: string | undefined, list: CursorList): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  const [payload, mac, ...rest] = cursor.split('.');
  const expected = Buffer.from(signature(payload ?? '', list));
  const given = Buffer.from(mac ?? '');
  if (!rest.length && payload && given.length === expected.length && timingSafeEqual(given, expected)) {
    try {
      const key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (key && typeof key === 'object' && !Array.isArray(key)) return key;
    } catch {
      // fall through to the error below
    }
  }
  throw new ValidationError(messages.invalidCursor);
}

/** One page of a Query, with the opaque cursor of the next page (null on the last one). */
export async function queryPage<T>(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  page: { limit?: number; cursor?: string },
  toItem: (raw: StoredItem) => T,
  defaultLimit: number,
): Promise<Page<T>> {
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      ...input,
      Limit: page.limit ?? defaultLimit,
      ExclusiveStartKey: decodeCursor(page.cursor, input),
    }),
  );
  return { items: (result.Items ?? []).map(toItem), nextCursor: encodeCursor(result.LastEvaluatedKey, input) };
}

/** Every item of a Query, read page after page to the end (bounded lists only: a month, a call, a year). */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<StoredItem[]> {
  const found: StoredItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({ TableName: tableName, ...input, ExclusiveStartKey: start }),
    );
    found.push(...(result.Items ?? []));
    start = result.LastEvaluatedKey;
  } while (start);
  return found;
}

/** How many items a Query matches (its filter applied), COUNT pages read to the end: no item is returned. */
export async function queryCount(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'>,
): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({ TableName: tableName, ...input, Select: 'COUNT', ExclusiveStartKey: start }),
    );
    count += result.Count ?? 0;
    start = result.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * Where each stream of a merged read stands: null = from its start, a key = after that item (ExclusiveStartKey),
 * true = read to its end.
 */
export type StreamPosition = Record<string, unknown> | null | true;

export interface MergedReadOptions {
  /** The order of the merged list: a string of the item's index sort key (it must also work on a LastEvaluatedKey). */
  order: (item: StoredItem) => string;
  forward: boolean;
  limit: number;
  /** Items a stream reads at a time (default `limit`): larger with a FilterExpression. */
  roundSize?: number;
  /** Rounds of reads a page may take (a request's work is bounded): past it the page comes back short, with its positions. */
  maxRounds?: number;
  /** The key of an item, to continue its stream after it (table keys and the index's keys). */
  keyOf: (item: StoredItem) => Record<string, unknown>;
}

/**
 * One page of several Queries merged in one order: the read fan-out of a write-sharded key (a list spread over
 * partitions "<key>#<shard>", README "DynamoDB keys"), and of a few groups read in one order (the payment list's
 * surname words). Each stream is read in rounds of `roundSize` from its position; an item is taken only when no
 * stream could still hold one before it (each stream's LastEvaluatedKey says how far it has been read, a
 * FilterExpression included), so the page is exactly the merged order. The positions say where each stream
 * goes on (items read but not taken are read again by the next page); null when every stream is read to its end.
 */
export async function mergedQueryPage(
  streams: readonly Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>[],
  positions: readonly StreamPosition[],
  { order, forward, limit, roundSize = limit, maxRounds = 4, keyOf }: MergedReadOptions,
): Promise<{ items: StoredItem[]; positions: StreamPosition[] | null }> {
  const before = (a: string, b: string) => (forward ? a < b : a > b);
  const state = streams.map((query, i) => {
    const position = positions[i] ?? null;
    return {
      query,
      start: position,
      readFrom: position === true ? undefined : (position ?? undefined),
      exhausted: position === true,
      buffer: [] as StoredItem[],
      frontier: undefined as string | undefined,
      lastTaken: undefined as StoredItem | undefined,
    };
  });
  const read = async (stream: (typeof state)[number]) => {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        ...stream.query,
        ScanIndexForward: forward,
        Limit: roundSize,
        ExclusiveStartKey: stream.readFrom,
      }),
    );
    stream.buffer.push(...(result.Items ?? []));
    if (result.LastEvaluatedKey) {
      stream.readFrom = result.LastEvaluatedKey;
      stream.frontier = order(result.LastEvaluatedKey);
    } else stream.exhausted = true;
  };
  const items: StoredItem[] = [];
  for (let rounds = 0; items.length < limit;) {
    let head: (typeof state)[number] | undefined;
    for (const stream of state)
      if (stream.buffer.length && (!head || before(order(stream.buffer[0]!), order(head.buffer[0]!)))) head = stream;
    const headKey = head && order(head.buffer[0]!);
    // A stream with nothing buffered that may still hold an item before the head must be read first.
    const blockers = state.filter(
      (s) =>
        !s.exhausted &&
        !s.buffer.length &&
        (headKey === undefined || s.frontier === undefined || before(s.frontier, headKey)),
    );
    if (blockers.length) {
      if (rounds++ >= maxRounds) break;
      await Promise.all(blockers.map(read));
      continue;
    }
    if (!head) break;
    const taken = head.buffer.shift()!;
    head.lastTaken = taken;
    items.push(taken);
  }
  const next: StreamPosition[] = state.map((s) => {
    if (!s.buffer.length) return s.exhausted ? true : (s.readFrom ?? s.start);
    return s.lastTaken ? keyOf(s.lastTaken) : s.start;
  });
  return { items, positions: next.every((p) => p === true) ? null : next };
}

/** The positions of a merged read from its signed cursor (undefined: from the start); a cursor of another list is a 400. */
export function readMergedCursor(cursor: string | undefined, list: CursorList, streams: number): StreamPosition[] {
  if (!cursor) return Array.from({ length: streams }, () => null);
  const { m } = decodeCursor(cursor, list) as { m?: unknown };
  const valid =
    Array.isArray(m) &&
    m.length === streams &&
    m.every((p) => p === null || p === true || (typeof p === 'object' && !Array.isArray(p)));
  if (!valid) throw new ValidationError(messages.invalidCursor);
  return m as StreamPosition[];
}

/** The signed cursor of a merged read's positions (null at the end). */
export const mergedCursor = (positions: StreamPosition[] | null, list: CursorList): string | null =>
  positions ? encodeCursor({ m: positions }, list) : null;

/**
 * Batch requests in flight at once: the next one travels while DynamoDB works on the others (locally,
 * dynalite's thread works while this one builds the next request).
 */
const BATCHES_AT_ONCE = 4;

/** An item without its null or undefined attributes: a missing key keeps the item out of a sparse index. */
export function withoutEmpty(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== null && value !== undefined));
}

const slices = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * A call DynamoDB throttled, and wrote or read nothing of: ProvisionedThroughputExceededException (provisioned
 * capacity, or a partition key past its partition's 1,000 writes a second, in on-demand mode too),
 * ThrottlingException or RequestLimitExceeded (on-demand or account limits) (API Reference, "Common errors",
 * ThrottlingReason; Developer Guide, "Error handling with DynamoDB"). A month's generation writes thousands of
 * positions under one partition key: past that rate, its writes are throttled.
 */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
export const isThrottled = (error: unknown) => error instanceof Error && THROTTLED.has(error.name);

/**
 * Attempts of a throttled call (each with the SDK's own three inside, whose retry quota a storm of throttles
 * spends): about 25 s of backoff in all, the time a partition takes to write 25,000 units.
 */
const THROTTLED_ATTEMPTS = 12;
/** Exponential backoff with full jitter (50 ms × 2^attempt, at most 4 s). */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(4000, 50 * 2 ** attempt)));

/**
 * Sends one batch request until nothing is left of it: what the answer leaves unprocessed (throttled items)
 * is sent again after a backoff; a request refused whole was sent again by documentClient already.
 */
async function untilProcessed<Request>(
  request: Request | undefined,
  send: (request: Request) => Promise<Request | undefined>,
): Promise<void> {
  for (let attempt = 0; request; attempt++) {
    if (attempt) await backoff(attempt);
    request = await send(request);
  }
}
const leftOf = <T extends object>(left: T | undefined) => (left && Object.keys(left).length ? left : undefined);

/**
 * Puts items with BatchWriteItem, 25 a request, a few requests at once, until none is left unprocessed
 * (backing off). A key given twice is written once, with its last item, as writing one after the other would.
 */
export async function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  const lastOfEachKey = [
    ...new Map(items.map((item) => [`${item[table.partitionKey]}\u0000${item[table.sortKey]}`, item])).values(),
  ];
  await mapAtMost(slices(lastOfEachKey, 25), BATCHES_AT_ONCE, (batch) =>
    untilProcessed<StoredItem>({ [tableName]: batch.map((Item) => ({ PutRequest: { Item } })) }, async (request) => {
      const result: BatchWriteCommandOutput = await documentClient.send(
        new BatchWriteCommand({ RequestItems: request }),
      );
      return leftOf(result.UnprocessedItems);
    }),
  );
}

export interface BatchGetOptions {
  /** Strongly consistent reads. */
  consistent?: boolean;
  /** Only these attributes (a ProjectionExpression, with its names). */
  projection?: string;
  names?: Record<string, string>;
  /** Told the read capacity of each request (the users' search statistics). */
  onConsumed?: (capacityUnits: number) => void;
}

/**
 * Gets items by key with BatchGetItem, 100 a request, a few requests at once, until none is left
 * unprocessed (backing off): the items found, in no particular order (a missing key is simply absent).
 */
export async function batchGet(
  itemKeys: readonly Record<string, unknown>[],
  { consistent = false, projection, names, onConsumed }: BatchGetOptions = {},
): Promise<StoredItem[]> {
  const found: StoredItem[] = [];
  const read = {
    ...(consistent ? { ConsistentRead: true } : {}),
    ...(projection ? { ProjectionExpression: projection } : {}),
    ...(names ? { ExpressionAttributeNames: names } : {}),
  };
  await mapAtMost(slices(itemKeys, 100), BATCHES_AT_ONCE, (keys) =>
    untilProcessed<StoredItem>({ [tableName]: { Keys: keys, ...read } }, async (request) => {
      const result: BatchGetCommandOutput = await documentClient.send(
        new BatchGetCommand({ RequestItems: request, ...(onConsumed ? { ReturnConsumedCapacity: 'TOTAL' } : {}) }),
      );
      onConsumed?.((result.ConsumedCapacity ?? []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0));
      found.push(...(result.Responses?.[tableName] ?? []));
      return leftOf(result.UnprocessedKeys);
    }),
  );
  return found;
}

/** True when at least one item sits under that gsi2 key (e.g. a call using a band). */
export async function hasChildren(gsi2pk: string): Promise<boolean> {
  const result = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi2pk },
      Limit: 1,
    }),
  );
  return (result.Items ?? []).length > 0;
}

/** How many items sit under one key of an index (dashboard badges on sparse indexes): COUNT pages only. */
export const countUnder = (indexName: string, partitionKey: string, value: string): Promise<number> =>
  queryCount({
    IndexName: indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': partitionKey },
    ExpressionAttributeValues: { ':pk': value },
  });

export const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Awaits a conditional write: its output, or null when its condition did not hold; other errors go on. */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/**
 * One page of a data migration's walk (functions/migrations): how many items it wrote, and the key the next
 * page starts from (none after the last). A page reads at most BACKFILL_PAGE items, so each step of a
 * migration is seconds of work whatever the table holds.
 */
export interface BackfillPage {
  written: number;
  next?: Record<string, unknown>;
}
export const BACKFILL_PAGE = 500;
