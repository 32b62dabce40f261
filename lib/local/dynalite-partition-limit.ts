import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';

/**
 * DynamoDB's per-partition write limit, on dynalite. Each partition of a table or of a global secondary index
 * serves at most 1,000 write request units a second, in on-demand mode too; one partition key value always
 * lives in one partition, so writes that share a key past that rate are throttled while the rest of the table
 * is idle (Developer Guide, "Best practices for designing and using partition keys effectively"; "Key range
 * throughput exceeded (hot partitions)"). DynamoDB answers such a write 400 ProvisionedThroughputExceededException
 * with the throttling reason TableWriteKeyRangeThroughputExceeded (IndexWrite… for an index), and writes
 * nothing; BatchWriteItem returns the throttled requests as UnprocessedItems, and is refused whole only when
 * none could be written (API Reference, BatchWriteItem). dynalite has no limit at all: code that writes a
 * month under one key works on it and is throttled on DynamoDB.
 *
 * With a limit, each partition key value (and each value of a GSI's partition key an item puts) has a bucket
 * of `unitsPerSecond` write units, refilled continuously (one second's burst). A write costs the units of
 * DynamoDB's rule: one per KB of the item, rounded up (PutItem; UpdateItem and DeleteItem count one, as the
 * item's final size is not in the request). A write whose buckets lack the units is refused as DynamoDB
 * refuses it. Reads are not limited.
 *
 * The switch: `POST <endpoint>/__local/partition-write-limit` with `{ "unitsPerSecond": n }` (0 or none: no
 * limit); `GET` the same path reads it, with how many writes were throttled so far.
 */
export const PARTITION_LIMIT_PATH = '/__local/partition-write-limit';
/** DynamoDB's own: write request units a second one partition serves. */
export const DYNAMODB_PARTITION_WRITE_UNITS = 1000;

type Listener = (req: EventEmitter & { method?: string; url?: string; headers: object }, res: Response) => void;
interface Response {
  statusCode: number;
  setHeader(name: string, value: unknown): void;
  getHeader?(name: string): unknown;
  end(body?: string | Uint8Array): void;
}
type AttributeValue = Record<string, unknown>;
type Item = Record<string, AttributeValue>;

const require = createRequire(import.meta.url);
const crc32: { unsigned(body: string): number } = require('buffer-crc32');

/** An attribute value's size by DynamoDB's rule (Developer Guide, "Item sizes and formats"), near enough. */
function valueSize(value: AttributeValue): number {
  const [type, inner] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return Buffer.byteLength(String(inner));
    case 'N':
      return Math.ceil(String(inner).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
    case 'B':
      return Math.ceil((String(inner).length * 3) / 4);
    case 'SS':
    case 'NS':
    case 'BS':
      return (inner as string[]).reduce((sum, v) => sum + valueSize({ [type.slice(0, 1)]: v }), 0);
    case 'L':
      return 3 + (inner as AttributeValue[]).reduce((sum, v) => sum + 1 + valueSize(v), 0);
    case 'M':
      return 3 + itemSize(inner as Item);
    default:
      return 1;
  }
}
const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
const writeUnits = (item: Item | undefined) => (item ? Math.max(1, Math.ceil(itemSize(item) / 1024)) : 1);

interface TableKeys {
  partitionKey: string;
  /** Each GSI's name and partition key attribute. */
  indexes: { name: string; partitionKey: string }[];
}

/** One write request: the buckets it draws on (table or index, partition key value) and its units. */
interface Write {
  buckets: { key: string; index: string | null }[];
  units: number;
}

export interface PartitionLimit {
  readonly unitsPerSecond: number;
  set(unitsPerSecond: number): void;
  readonly throttled: number;
}

/**
 * Puts the limit in front of this dynalite server's request handler (its HTTP server and the in-process path
 * both go through it); `describe(table)` gives a table's key attributes.
 */
export function limitPartitionWrites(
  server: Server,
  describe: (table: string) => Promise<TableKeys | null>,
  initialUnitsPerSecond = 0,
  now: () => number = Date.now,
): PartitionLimit {
  const original = server.listeners('request')[0] as Listener | undefined;
  if (!original) throw new Error('dynalite has no request handler');
  let unitsPerSecond = initialUnitsPerSecond;
  let throttled = 0;
  const buckets = new Map<string, { tokens: number; at: number }>();

  const available = (key: string) => {
    const bucket = buckets.get(key) ?? { tokens: unitsPerSecond, at: now() };
    bucket.tokens = Math.min(unitsPerSecond, bucket.tokens + ((now() - bucket.at) / 1000) * unitsPerSecond);
    bucket.at = now();
    buckets.set(key, bucket);
    return bucket;
  };
  /**
   * Takes the write's units from each of its buckets, or none of them: undefined when it may be written, else
   * where it was throttled (null: the table, else the index's name).
   */
  const admit = (table: string, write: Write): string | null | undefined => {
    const needed = write.buckets.map((b) => ({ ...b, bucket: available(`${table}|${b.index ?? ''}|${b.key}`) }));
    const short = needed.find(({ bucket }) => bucket.tokens < write.units);
    if (short) return short.index;
    for (const { bucket } of needed) bucket.tokens -= write.units;
    return undefined;
  };

  const writeOf = (keys: TableKeys, item: Item | undefined, key: Item | undefined): Write => {
    const buckets = [{ key: JSON.stringify((item ?? key)?.[keys.partitionKey] ?? null), index: null as string | null }];
    if (item)
      for (const index of keys.indexes)
        if (item[index.partitionKey])
          buckets.push({ key: JSON.stringify(item[index.partitionKey]), index: index.name });
    return { buckets, units: writeUnits(item) };
  };

  const refusal = (table: string, index: string | null) => ({
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'You exceeded your maximum allowed provisioned throughput.',
    ThrottlingReasons: [
      {
        reason: index ? 'IndexWriteKeyRangeThroughputExceeded' : 'TableWriteKeyRangeThroughputExceeded',
        resource: `arn:aws:dynamodb:eu-south-1:000000000000:table/${table}${index ? `/index/${index}` : ''}`,
      },
    ],
  });
  const send = (res: Response, status: number, data: unknown, contentType = 'application/x-amz-json-1.0') => {
    const body = JSON.stringify(data);
    res.statusCode = status;
    res.setHeader('x-amz-crc32', crc32.unsigned(body));
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
    res.end(body);
  };

  /** Hands the request on to dynalite with this body; `answer` may rewrite dynalite's JSON answer. */
  const forward = (
    req: Parameters<Listener>[0],
    res: Response,
    body: Buffer,
    answer?: (status: number, data: Record<string, unknown>) => Record<string, unknown>,
  ) => {
    const copy = Object.assign(new EventEmitter(), { method: req.method, url: req.url, headers: req.headers });
    const target: Response = answer
      ? {
          statusCode: 200,
          setHeader: () => undefined,
          end(raw) {
            const text = raw === undefined ? '' : typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
            if (this.statusCode !== 200) return send(res, this.statusCode, JSON.parse(text || '{}'));
            send(res, 200, answer(this.statusCode, JSON.parse(text || '{}')));
          },
        }
      : res;
    original(copy, target as Response);
    if (body.length) copy.emit('data', body);
    copy.emit('end');
  };

  async function limited(req: Parameters<Listener>[0], res: Response, body: Buffer) {
    const operation = String((req.headers as Record<string, string>)['x-amz-target'] ?? '')
      .split('.')
      .at(-1);
    let data: Record<string, any>;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch {
      return forward(req, res, body);
    }
    if (operation === 'PutItem' || operation === 'UpdateItem' || operation === 'DeleteItem') {
      const keys = await describe(data.TableName);
      if (!keys) return forward(req, res, body);
      const refusedAt = admit(data.TableName, writeOf(keys, operation === 'PutItem' ? data.Item : undefined, data.Key));
      if (refusedAt === undefined) return forward(req, res, body);
      throttled += 1;
      return send(res, 400, refusal(data.TableName, refusedAt));
    }
    if (operation !== 'BatchWriteItem' || !data.RequestItems) return forward(req, res, body);
    const admitted: Record<string, unknown[]> = {};
    const held: Record<string, unknown[]> = {};
    let refused: { table: string; index: string | null } | null = null;
    for (const [table, requests] of Object.entries(data.RequestItems as Record<string, any[]>)) {
      const keys = await describe(table);
      for (const request of requests) {
        const refusedAt = keys
          ? admit(table, writeOf(keys, request.PutRequest?.Item, request.DeleteRequest?.Key))
          : undefined;
        (refusedAt === undefined ? admitted : held)[table] ??= [];
        (refusedAt === undefined ? admitted : held)[table]!.push(request);
        if (refusedAt !== undefined) refused ??= { table, index: refusedAt };
      }
    }
    if (!refused) return forward(req, res, body);
    throttled += Object.values(held).reduce((sum, r) => sum + r.length, 0);
    if (!Object.keys(admitted).length) return send(res, 400, refusal(refused.table, refused.index));
    forward(req, res, Buffer.from(JSON.stringify({ ...data, RequestItems: admitted })), (_, answer) => {
      const unprocessed = { ...((answer.UnprocessedItems as Record<string, unknown[]>) ?? {}) };
      for (const [table, requests] of Object.entries(held))
        unprocessed[table] = [...(unprocessed[table] ?? []), ...requests];
      return { ...answer, UnprocessedItems: unprocessed };
    });
  }

  server.removeListener('request', original);
  server.on('request', (req: Parameters<Listener>[0], res: Response) => {
    const url = req.url ?? '/';
    if (url === PARTITION_LIMIT_PATH) return answerSwitch(req, res);
    if (!unitsPerSecond || req.method !== 'POST') return original(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    req.on('end', () => {
      limited(req, res, Buffer.concat(chunks)).catch((error: Error) =>
        send(res, 500, { __type: 'com.amazon.coral.service#InternalFailure', message: error.message }),
      );
    });
  });

  function answerSwitch(req: Parameters<Listener>[0], res: Response) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    req.on('end', () => {
      if (req.method === 'POST') {
        const asked = Number(
          (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { unitsPerSecond?: unknown }).unitsPerSecond ??
            0,
        );
        if (!Number.isFinite(asked) || asked < 0)
          return send(
            res,
            400,
            { message: 'unitsPerSecond: a number of write units a second, 0 for no limit' },
            'application/json',
          );
        limit.set(asked);
      }
      send(res, 200, { unitsPerSecond, throttled }, 'application/json');
    });
  }

  const limit: PartitionLimit = {
    get unitsPerSecond() {
      return unitsPerSecond;
    },
    set(value) {
      unitsPerSecond = value;
      buckets.clear();
    },
    get throttled() {
      return throttled;
    },
  };
  return limit;
}
