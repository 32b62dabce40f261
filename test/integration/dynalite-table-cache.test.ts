import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateTableCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamo } from '../../lib/local/stores.ts';
import { freePort } from '../support/ports.ts';

/**
 * The local DynamoDB keeps table definitions in memory (lib/local/dynalite-table-cache.ts): a table created,
 * updated or deleted after the cache is warm must be seen at once by every request, and the definitions
 * stay persisted on disk. Its own dynalite on a scratch folder, over HTTP with the SDK.
 */
let dataDir: string;
let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let client: DynamoDBClient;
const TABLE = 'cache-test';

const simpleTable = (name: string, hashKey = 'pk'): CreateTableCommandInput => ({
  TableName: name,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: hashKey, AttributeType: 'S' }],
  KeySchema: [{ AttributeName: hashKey, KeyType: 'HASH' }],
});

async function start() {
  const port = await freePort();
  dynamo = await startDynamo(dataDir, port, { cacheTables: true, indexLagMs: 0 });
  client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}
async function stop() {
  client.destroy();
  await dynamo.close();
}
// As with DynamoDB, a table is CREATING, then ACTIVE: wait as the portal's ensureTable does (polling briefly).
const waiter = () => ({ client, maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 });
async function createTable(input: CreateTableCommandInput) {
  await client.send(new CreateTableCommand(input));
  await waitUntilTableExists(waiter(), { TableName: input.TableName });
}
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error) => error,
  );

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dynalite-cache-'));
  await start();
});
afterAll(async () => {
  await stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('dynalite with the table definitions in memory', () => {
  it('answers repeated requests from the cache', async () => {
    await createTable(simpleTable(TABLE));
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' }, city: { S: 'Roma' } } }));
    const before = dynamo.tableCacheStats()!;
    const hits = before.hits;
    for (let i = 0; i < 5; i++) {
      const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }));
      expect(Item?.city).toEqual({ S: 'Roma' });
    }
    expect(dynamo.tableCacheStats()!.hits - hits).toBeGreaterThanOrEqual(4);
  });

  it('sees an UpdateTable made after the cache is warm (throughput and billing mode)', async () => {
    await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }));
    expect(
      (await client.send(new DescribeTableCommand({ TableName: TABLE }))).Table?.BillingModeSummary?.BillingMode,
    ).toBe('PAY_PER_REQUEST');
    await client.send(
      new UpdateTableCommand({
        TableName: TABLE,
        BillingMode: 'PROVISIONED',
        ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 },
      }),
    );
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PROVISIONED');
    expect(Table?.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 7, WriteCapacityUnits: 3 });
    // Asking for the same throughput again is refused: UpdateTable itself read the new definition.
    const same = await errorOf(
      client.send(
        new UpdateTableCommand({
          TableName: TABLE,
          ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 },
        }),
      ),
    );
    expect(same?.message).toMatch(/will not change/);
  });

  it('sees a table deleted and created again with another key and an index after the cache is warm', async () => {
    await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }));
    await client.send(new DeleteTableCommand({ TableName: TABLE }));
    await waitUntilTableNotExists(waiter(), { TableName: TABLE });
    const gone = await errorOf(client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } })));
    expect(gone?.name).toBe('ResourceNotFoundException');

    await createTable({
      ...simpleTable(TABLE, 'id'),
      AttributeDefinitions: [
        { AttributeName: 'id', AttributeType: 'S' },
        { AttributeName: 'city', AttributeType: 'S' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byCity',
          KeySchema: [{ AttributeName: 'city', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    });
    const oldKey = await errorOf(client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' } } })));
    expect(oldKey?.name).toBe('ValidationException');
    await client.send(
      new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'x' }, city: { S: 'Milano' }, note: { S: 'nuova' } } }),
    );
    const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: 'x' } } }));
    expect(Item?.note).toEqual({ S: 'nuova' });
    // The new index is fed by writes and its key type is checked: a definition without it would do neither.
    const { Items } = await client.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'byCity',
        KeyConditionExpression: 'city = :c',
        ExpressionAttributeValues: { ':c': { S: 'Milano' } },
      }),
    );
    expect(Items?.map((item) => item.id.S)).toEqual(['x']);
    const wrongType = await errorOf(
      client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'z' }, city: { N: '1' } } })),
    );
    expect(wrongType?.name).toBe('ValidationException');
  });

  it('does not let DescribeTable callers change what the data requests see', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(Table?.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(Table?.TableStatus).toBe('ACTIVE');
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'y' } } }));
  });

  it('answers this process in memory with what the HTTP endpoint answers: items, capacity, conditional failures', async () => {
    let connections = 0;
    dynamo.server.on('connection', () => connections++);
    const put = {
      TableName: TABLE,
      Item: { id: { S: 'w' }, city: { S: 'Roma' } },
      ConditionExpression: 'attribute_not_exists(id)',
    };
    await client.send(new PutItemCommand(put));
    const failed = await errorOf(client.send(new PutItemCommand(put)));
    expect(failed?.name).toBe('ConditionalCheckFailedException');
    const overHttp = await fetch(`http://127.0.0.1:${(dynamo.server.address() as { port: number }).port}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.PutItem',
        'x-amz-date': '20260101T000000Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20260101/eu-south-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify(put),
    });
    expect(overHttp.status).toBe(400);
    expect((await overHttp.json()).__type).toBe(`com.amazonaws.dynamodb.v20120810#${failed?.name}`);
    expect(connections).toBe(1); // the fetch above; the SDK client opened none
    const { Count, ConsumedCapacity } = await client.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'byCity',
        KeyConditionExpression: 'city = :c',
        ExpressionAttributeValues: { ':c': { S: 'Roma' } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(Count).toBe(1);
    expect(ConsumedCapacity).toEqual({ TableName: TABLE, CapacityUnits: 0.5 });
  });

  it('keeps the definitions on disk: a restart on the same folder finds the table and its items', async () => {
    await stop();
    await start();
    const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: 'x' } } }));
    expect(Item?.note).toEqual({ S: 'nuova' });
  });
});
