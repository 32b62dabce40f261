import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDynamo } from '../../lib/local/stores.ts';
import { freePort } from '../support/ports.ts';

/**
 * "Global secondary indexes are eventually consistent": a write reaches a GSI after DynamoDB has answered it,
 * and a Query on a GSI cannot be strongly consistent (Developer Guide, "Using Global Secondary Indexes in
 * DynamoDB", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Reading). The local
 * DynamoDB's lag mode (lib/local/dynalite-index-lag.ts) behaves so: the table at once, its GSIs later, in order.
 * Its own dynalite on a scratch folder, over HTTP with the SDK.
 */
let dataDir: string;
let dynamo: Awaited<ReturnType<typeof startDynamo>> | undefined;
let client: DynamoDBDocumentClient;
const TABLE = 'lag-test';

async function start(indexLagMs: number) {
  const port = await freePort();
  dynamo = await startDynamo(dataDir, port, { indexLagMs, inProcess: false });
  client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}
async function stop() {
  client.destroy();
  await dynamo?.close();
  dynamo = undefined;
}
const byCity = async (city: string) =>
  (
    (
      await client.send(
        new QueryCommand({
          TableName: TABLE,
          IndexName: 'byCity',
          KeyConditionExpression: 'city = :city',
          ExpressionAttributeValues: { ':city': city },
        }),
      )
    ).Items ?? []
  ).map((item) => item.pk);
const item = async (pk: string) =>
  (await client.send(new GetCommand({ TableName: TABLE, Key: { pk }, ConsistentRead: true }))).Item;

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dynalite-lag-'));
  await start(60_000);
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'city', AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'byCity',
          KeySchema: [{ AttributeName: 'city', KeyType: 'HASH' }],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 10, minDelay: 0.05, maxDelay: 0.2 }, { TableName: TABLE });
});
afterEach(async () => {
  await stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the local DynamoDB with lagging global indexes', () => {
  it('answers a write with the table holding it and the index not yet: a new item missing, a moved one under its old key, a deleted one still listed', async () => {
    await client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'anna', city: 'Roma' } }));
    await client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'bruno', city: 'Roma' } }));
    expect(await item('anna')).toEqual({ pk: 'anna', city: 'Roma' });
    expect(await byCity('Roma')).toEqual([]);
    // Closing applies what is pending (what LevelDB keeps is whole).
    await stop();
    await start(60_000);
    expect(await byCity('Roma')).toEqual(['anna', 'bruno']);

    await client.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: 'anna' },
        UpdateExpression: 'SET city = :c',
        ExpressionAttributeValues: { ':c': 'Trento' },
      }),
    );
    await client.send(new DeleteCommand({ TableName: TABLE, Key: { pk: 'bruno' } }));
    expect([await item('anna'), await item('bruno')]).toEqual([{ pk: 'anna', city: 'Trento' }, undefined]);
    expect([await byCity('Roma'), await byCity('Trento')]).toEqual([['anna', 'bruno'], []]);
    // The index reaches each state in the order of the writes: at the end it is exactly the table's.
    await stop();
    await start(0);
    expect([await byCity('Roma'), await byCity('Trento')]).toEqual([[], ['anna']]);
  });

  it('catches up: with a short lag the index shows the write a moment later, as a reload would see it', async () => {
    await stop();
    await start(50);
    await client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'carla', city: 'Bari' } }));
    await expect.poll(() => byCity('Bari')).toEqual(['carla']);
  });
});
