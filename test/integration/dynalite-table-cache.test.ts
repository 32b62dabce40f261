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
  dynamo = await startDynamo(dataDir, port, { cacheTables: true });
  client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'eu-south-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}
async function stop() {
  client.destroy();
  await dynamo.close();
}
const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);

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
    await client.send(new CreateTableCommand(simpleTable(TABLE)));
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
    expect((await client.send(new DescribeTableCommand({ TableName: TABLE }))).Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    await client.send(new UpdateTableCommand({ TableName: TABLE, BillingMode: 'PROVISIONED', ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 } }));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PROVISIONED');
    expect(Table?.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 7, WriteCapacityUnits: 3 });
    // Asking for the same throughput again is refused: UpdateTable itself read the new definition.
    const same = await errorOf(client.send(new UpdateTableCommand({ TableName: TABLE, ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 } })));
    expect(same?.message).toMatch(/will not change/);
  });

  it('sees a table deleted and created again with another key and an index after the cache is warm', async () => {
    await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } }));
    await client.send(new DeleteTableCommand({ TableName: TABLE }));
    const gone = await errorOf(client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: 'a' } } })));
    expect(gone?.name).toBe('ResourceNotFoundException');

    await client.send(
      new CreateTableCommand({
        ...simpleTable(TABLE, 'id'),
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'S' },
          { AttributeName: 'city', AttributeType: 'S' },
        ],
        GlobalSecondaryIndexes: [{ IndexName: 'byCity', KeySchema: [{ AttributeName: 'city', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }],
      }),
    );
    const oldKey = await errorOf(client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: 'a' } } })));
    expect(oldKey?.name).toBe('ValidationException');
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'x' }, city: { S: 'Milano' }, note: { S: 'nuova' } } }));
    const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: 'x' } } }));
    expect(Item?.note).toEqual({ S: 'nuova' });
    // The new index is fed by writes and its key type is checked: a definition without it would do neither.
    const { Items } = await client.send(
      new QueryCommand({ TableName: TABLE, IndexName: 'byCity', KeyConditionExpression: 'city = :c', ExpressionAttributeValues: { ':c': { S: 'Milano' } } }),
    );
    expect(Items?.map((item) => item.id.S)).toEqual(['x']);
    const wrongType = await errorOf(client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'z' }, city: { N: '1' } } })));
    expect(wrongType?.name).toBe('ValidationException');
  });

  it('does not let DescribeTable callers change what the data requests see', async () => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    expect(Table?.KeySchema).toEqual([{ AttributeName: 'id', KeyType: 'HASH' }]);
    expect(Table?.TableStatus).toBe('ACTIVE');
    await client.send(new PutItemCommand({ TableName: TABLE, Item: { id: { S: 'y' } } }));
  });

  it('keeps the definitions on disk: a restart on the same folder finds the table and its items', async () => {
    await stop();
    await start();
    const { Item } = await client.send(new GetItemCommand({ TableName: TABLE, Key: { id: { S: 'x' } } }));
    expect(Item?.note).toEqual({ S: 'nuova' });
  });
});
