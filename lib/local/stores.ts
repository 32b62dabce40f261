import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { table } from '../../functions/adapters/table.ts';
import { serveInProcess } from './dynalite-in-process.ts';
import { lagGlobalIndexes } from './dynalite-index-lag.ts';
import { limitPartitionWrites, type PartitionLimit } from './dynalite-partition-limit.ts';
import {
  cacheTableDefinitions,
  tableCacheStats,
  type DynaliteStore,
  type TableCacheStats,
} from './dynalite-table-cache.ts';

const require = createRequire(import.meta.url);

export interface Closable {
  close(): Promise<void>;
}

/** The local S3's "object created" notifications (s3rver emits them for PUT, POST and copy). */
export interface ObjectCreatedSource {
  onObjectCreated(listener: (bucket: string, key: string) => void): void;
}

const closeServer = (server: { close(cb: (error?: Error) => void): void }) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

export interface DynamoOptions {
  /**
   * Keep the table definitions in memory (lib/local/dynalite-table-cache.ts). On by default;
   * DYNALITE_TABLE_CACHE=off turns it off (to compare a benchmark before/after under the same load).
   */
  cacheTables?: boolean;
  /**
   * The SDK clients of this process reach dynalite in memory, through its own request handler, instead of
   * over loopback HTTP (lib/local/dynalite-in-process.ts). On by default; DYNALITE_IN_PROCESS=off turns it off.
   */
  inProcess?: boolean;
  /**
   * Global secondary indexes see each write this many milliseconds after it is answered, as DynamoDB's may
   * (lib/local/dynalite-index-lag.ts). Default DYNALITE_INDEX_LAG_MS, else 0 (dynalite's own: at once).
   */
  indexLagMs?: number;
  /**
   * Write units a second one partition key value takes before DynamoDB throttles it (DynamoDB's own: 1,000;
   * lib/local/dynalite-partition-limit.ts). Default DYNALITE_PARTITION_WRITE_UNITS, else 0 (dynalite's own: no
   * limit); a test switches it at run time too.
   */
  partitionWriteUnits?: number;
}

/** The per-partition write limit asked for by the environment (DYNALITE_PARTITION_WRITE_UNITS); 0 when unset. */
export function partitionWriteUnitsFromEnv(): number {
  const value = Number(process.env.DYNALITE_PARTITION_WRITE_UNITS ?? 0);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(
      `DYNALITE_PARTITION_WRITE_UNITS must be a number of write units a second, not "${process.env.DYNALITE_PARTITION_WRITE_UNITS}"`,
    );
  return value;
}

/** The index lag asked for by the environment (DYNALITE_INDEX_LAG_MS), in milliseconds; 0 when unset. */
export function indexLagFromEnv(): number {
  const value = Number(process.env.DYNALITE_INDEX_LAG_MS ?? 0);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(
      `DYNALITE_INDEX_LAG_MS must be a number of milliseconds, not "${process.env.DYNALITE_INDEX_LAG_MS}"`,
    );
  return value;
}

/** dynalite: DynamoDB's API on LevelDB, persisted in `<dataDir>/dynamo`. */
export async function startDynamo(
  dataDir: string,
  port: number,
  options: DynamoOptions = {},
): Promise<
  Closable & { server: Server; tableCacheStats: () => TableCacheStats | undefined; partitionLimit: PartitionLimit }
> {
  const dynalite = require('dynalite');
  const directory = path.join(dataDir, 'dynamo');
  await fs.mkdir(directory, { recursive: true });
  // dynalite() builds its store with its db module's create(): wrap the store it makes, for this server only.
  const db: { create: (options: object) => DynaliteStore } = require('dynalite/db');
  const create = db.create;
  let store: DynaliteStore | undefined;
  const cacheTables = options.cacheTables ?? process.env.DYNALITE_TABLE_CACHE !== 'off';
  db.create = (storeOptions) =>
    (store = cacheTables ? cacheTableDefinitions(create(storeOptions)) : create(storeOptions));
  let server: Server;
  try {
    server = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  } finally {
    db.create = create;
  }
  const lagMs = options.indexLagMs ?? indexLagFromEnv();
  const lag = lagMs > 0 ? lagGlobalIndexes(store!, lagMs) : null;
  const partitionLimit = limitPartitionWrites(
    server,
    (name) => tableKeys(store!, name),
    options.partitionWriteUnits ?? partitionWriteUnitsFromEnv(),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const stopInProcess =
    (options.inProcess ?? process.env.DYNALITE_IN_PROCESS !== 'off')
      ? serveInProcess(server, '127.0.0.1', port)
      : () => undefined;
  const close = async () => {
    stopInProcess();
    await lag?.flush();
    return closeServer(server);
  };
  return {
    server,
    close,
    tableCacheStats: () => (cacheTables && store ? tableCacheStats(store) : undefined),
    partitionLimit,
  };
}

/** A table's partition key and its global indexes' (null when there is no such table). */
const tableKeys = (store: DynaliteStore, name: string) =>
  new Promise<{ partitionKey: string; indexes: { name: string; partitionKey: string }[] } | null>((resolve) =>
    store.getTable(name, false, (error, table) => {
      const hashOf = (schema: { AttributeName: string; KeyType: string }[]) =>
        schema.find((key) => key.KeyType === 'HASH')!.AttributeName;
      if (error || !table) return resolve(null);
      resolve({
        partitionKey: hashOf(table.KeySchema),
        indexes: (table.GlobalSecondaryIndexes ?? []).map(
          (index: { IndexName: string; KeySchema: { AttributeName: string; KeyType: string }[] }) => ({
            name: index.IndexName,
            partitionKey: hashOf(index.KeySchema),
          }),
        ),
      });
    }),
  );

/** Creates the portal's table as table.ts (and the CDK stack) define it; true when it was new. */
export async function ensureTable(endpoint: string, tableName: string): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const attributes = [table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: 'HASH' },
        { AttributeName: table.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: table.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  // dynalite makes the table ACTIVE a moment after answering (CREATING first, as DynamoDB): poll briefly,
  // not the waiter's default 20 s.
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 0.05, maxDelay: 0.5 }, { TableName: tableName });
  client.destroy();
  return true;
}

/**
 * How S3 answers a request for a key that is not there. S3 says "not there" (404 NoSuchKey; a HEAD's bare 404)
 * only to a caller allowed s3:ListBucket on the bucket; to one that is not, it answers 403 AccessDenied (a
 * HEAD's bare 403), so that the answer does not tell which keys exist (Amazon S3 API Reference, GetObject and
 * HeadObject, "Permissions"). The portal's roles hold object actions only (lib/portal-function.ts), so the
 * local S3 answers as S3 answers them: 'AccessDenied', unless a test switches it.
 */
export type MissingKeyAnswer = 'AccessDenied' | 'NoSuchKey';

/**
 * The local stack's own switches on s3rver, under a path no bucket can have (bucket names start with a letter
 * or a digit): `PUT <endpoint>/__local/missing-key` with the body `AccessDenied` or `NoSuchKey`; GET reads it.
 */
export const S3_SWITCH_PATH = '/__local/missing-key';

/** s3rver: S3's API on the file system, persisted in `<dataDir>/s3`, with its object-created notifications. */
export async function startS3(
  dataDir: string,
  port: number,
  buckets: string[],
  webOrigin: string,
  options: { missingKey?: MissingKeyAnswer } = {},
): Promise<Closable & ObjectCreatedSource> {
  const S3rver = require('s3rver');
  const S3Error = require('s3rver/lib/models/error');
  const directory = path.join(dataDir, 's3');
  await fs.mkdir(directory, { recursive: true });
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    directory,
    silent: true,
    // The browser uploads with presigned POSTs and opens presigned links: the web app's origin needs CORS.
    configureBuckets: buckets.map((name) => ({ name, configs: [corsConfiguration(webOrigin)] })),
  });
  let missingKey: MissingKeyAnswer = options.missingKey ?? 'AccessDenied';
  // First of s3rver's middleware: the switch, and a missing key answered as S3 answers a role without ListBucket.
  server.middleware.unshift(async (ctx: S3rverContext, next: () => Promise<void>) => {
    if (ctx.path === S3_SWITCH_PATH) return answerSwitch(ctx, (value) => (missingKey = value ?? missingKey));
    try {
      await next();
    } catch (error) {
      if ((error as { code?: string }).code === 'NoSuchKey' && missingKey === 'AccessDenied')
        throw new S3Error('AccessDenied', 'Access Denied');
      throw error;
    }
  });
  await server.run();
  return {
    close: () => server.close(),
    // s3rver emits 'event' with S3's notification records (ObjectCreated:Put/Post/Copy, ObjectRemoved).
    onObjectCreated: (listener) =>
      server.on(
        'event',
        (event: { Records: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } }[] }) => {
          for (const record of event.Records)
            if (record.eventName.startsWith('ObjectCreated:')) listener(record.s3.bucket.name, record.s3.object.key);
        },
      ),
  };
}

interface S3rverContext {
  path: string;
  method: string;
  status: number;
  body: unknown;
  req: AsyncIterable<Buffer>;
}

async function answerSwitch(ctx: S3rverContext, set: (value?: MissingKeyAnswer) => MissingKeyAnswer) {
  if (ctx.method === 'PUT') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    const value = Buffer.concat(chunks).toString('utf8').trim();
    if (value !== 'AccessDenied' && value !== 'NoSuchKey') {
      ctx.status = 400;
      ctx.body = 'AccessDenied or NoSuchKey';
      return;
    }
    set(value);
  }
  ctx.status = 200;
  ctx.body = set();
}

const corsConfiguration = (origin: string) => `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${origin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;
