import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PARTITION_LIMIT_PATH } from '../../lib/local/dynalite-partition-limit.ts';
import { startDynamo } from '../../lib/local/stores.ts';
import { freePort } from '../support/ports.ts';

/**
 * "Each partition on the table can serve up to 3,000 read request units or 1,000 write request units": traffic
 * past it to one partition key is throttled, in on-demand mode too (Developer Guide, "Key range throughput
 * exceeded (hot partitions)"). The local DynamoDB's partition limit (lib/local/dynalite-partition-limit.ts)
 * behaves so; here at 10 write units a second, so that a few writes show it. Its own dynalite, over HTTP, with a
 * client that does not retry (the SDK's own retries would hide what DynamoDB answers).
 */
let dataDir: string;
let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let client: DynamoDBDocumentClient;
let endpoint: string;
const TABLE = 'limit-test';

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dynalite-limit-'));
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  dynamo = await startDynamo(dataDir, port, { inProcess: false, indexLagMs: 0, partitionWriteUnits: 10 });
  client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
  );
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 }, { TableName: TABLE });
});
afterEach(async () => {
  client.destroy();
  await dynamo.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const put = (pk: string, sk: string, extra: Record<string, unknown> = {}) =>
  client.send(new PutCommand({ TableName: TABLE, Item: { pk, sk, ...extra } })).then(
    () => 'written',
    (error: Error & { ThrottlingReasons?: { reason: string }[] }) =>
      `${error.name} ${error.ThrottlingReasons?.[0]?.reason}`,
  );
const stored = async (pk: string) =>
  (
    await client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('the local DynamoDB with a per-partition write limit', () => {
  it('throttles the writes to one partition key past its units a second, writes none of them, and leaves other keys alone', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => put('MONTH#2026-03', `USER#${i}`)));
    const written = answers.filter((a) => a === 'written').length;
    expect(written).toBeGreaterThanOrEqual(10);
    expect(written).toBeLessThan(30);
    expect(new Set(answers.filter((a) => a !== 'written'))).toEqual(
      new Set(['ProvisionedThroughputExceededException TableWriteKeyRangeThroughputExceeded']),
    );
    // What was refused is not there: only the writes answered are.
    expect(await stored('MONTH#2026-03')).toHaveLength(written);
    // Another key has its own partition's units.
    expect(await Promise.all(Array.from({ length: 5 }, (_, i) => put(`USER#${i}`, 'PROFILE')))).toEqual(
      Array(5).fill('written'),
    );
    // A 9 KB item costs 9 units: a second one waits for the partition's next second.
    const big = 'x'.repeat(9000);
    expect(await put('BIG', 'ITEM#1', { big })).toBe('written');
    expect(await put('BIG', 'ITEM#2', { big })).toMatch(/^ProvisionedThroughputExceededException/);
  });

  it('gives back a batch’s throttled items as UnprocessedItems, and refuses a batch whole only when none could be written', async () => {
    const batch = (pk: string, from: number) =>
      client.send(
        new BatchWriteCommand({
          RequestItems: {
            [TABLE]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { pk, sk: `USER#${from + i}` } } })),
          },
        }),
      );
    const first = await batch('MONTH#2026-04', 0);
    expect(first.UnprocessedItems?.[TABLE]).toHaveLength(15);
    expect(await stored('MONTH#2026-04')).toHaveLength(10);
    // Nothing left for a batch of 9 KB items (9 units each): refused whole.
    await expect(
      client.send(
        new BatchWriteCommand({
          RequestItems: {
            [TABLE]: Array.from({ length: 3 }, (_, i) => ({
              PutRequest: { Item: { pk: 'MONTH#2026-04', sk: `USER#${100 + i}`, big: 'x'.repeat(9000) } },
            })),
          },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(await stored('MONTH#2026-04')).toHaveLength(10);
  });

  it('is switched at run time: no limit, then a limit again', async () => {
    const limit = async (body?: object) =>
      (
        await fetch(`${endpoint}${PARTITION_LIMIT_PATH}`, body ? { method: 'POST', body: JSON.stringify(body) } : {})
      ).json();
    expect(await limit({ unitsPerSecond: 0 })).toMatchObject({ unitsPerSecond: 0 });
    expect(await Promise.all(Array.from({ length: 30 }, (_, i) => put('FREE', `USER#${i}`)))).toEqual(
      Array(30).fill('written'),
    );
    await limit({ unitsPerSecond: 10 });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => put('FREE', `USER#${i + 100}`)));
    expect(answers.filter((a) => a !== 'written').length).toBeGreaterThan(0);
    expect((await limit()).throttled).toBeGreaterThan(0);
    await expect(limit({ unitsPerSecond: -1 })).resolves.toMatchObject({
      message: expect.stringContaining('unitsPerSecond'),
    });
  });
});
