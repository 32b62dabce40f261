import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { inject } from './stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { ISEE_FEE_MARKER } from '../../functions/domain/isee.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';

/** For a test that imports the repositories themselves: they use the local stack's table, with local credentials. */
export function useLocalTable() {
  Object.assign(process.env, {
    TABLE_NAME,
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
}

/** Direct access to the local table, to look at what the API stored (or did not). */
export function localTable() {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  return {
    /** The stored item itself, with the attributes the API never shows (createdAt, updatedAt). */
    async item(key: { pk: string; sk: string }) {
      const { Item } = await client.send(new GetCommand({ TableName: TABLE_NAME, Key: key, ConsistentRead: true }));
      return Item;
    },
    async putItem(item: Record<string, unknown>) {
      await client.send(new PutCommand({ TableName: TABLE_NAME, Item: item }));
    },
    /** Every item of one partition (e.g. a citizen's support rate-limit counters). */
    async partition(pk: string) {
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: TABLE_NAME,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
        }),
      );
      return Items;
    },
    async deleteItem(key: { pk: string; sk: string }) {
      await client.send(new DeleteCommand({ TableName: TABLE_NAME, Key: key }));
    },
    /** A record's audit entries, oldest first, every page (a large operation writes several). */
    async auditOf(entity: string, id: string) {
      const items: Record<string, any>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new QueryCommand({
            TableName: TABLE_NAME,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.auditOf(entity, id) },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    /** Items written straight into the table (a large call's seed), 25 a request. */
    async putItems(items: Record<string, unknown>[]) {
      for (let i = 0; i < items.length; i += 25) {
        let request: Record<string, any> | undefined = {
          [TABLE_NAME]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
        };
        while (request && Object.keys(request).length)
          request = (await client.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
      }
    },
    /** Stands in for the calls feature (a later issue): a call that uses a band and belongs to a service. */
    async plantCall(callId: string, serviceId: string, bandIds: string[]) {
      await client.send(
        new PutCommand({
          TableName: TABLE_NAME,
          Item: { pk: `CALL#${callId}`, sk: 'CALL', gsi2pk: keys.callsOfService(serviceId), gsi2sk: `CALL#${callId}` },
        }),
      );
      for (const bandId of bandIds) {
        await client.send(
          new PutCommand({
            TableName: TABLE_NAME,
            Item: {
              pk: `CALL#${callId}`,
              sk: `BAND#${bandId}`,
              gsi2pk: keys.callsUsingBand(bandId),
              gsi2sk: `CALL#${callId}`,
            },
          }),
        );
      }
    },
    /** Stands in for the debt positions (a later issue): marks an ISEE as used to compute a fee, or (null) not. */
    async markIseeUsedForFee(iseeId: string, at: string | null) {
      await client.send(
        new UpdateCommand({
          TableName: TABLE_NAME,
          Key: keys.isee(iseeId),
          UpdateExpression: at ? 'SET #marker = :at' : 'REMOVE #marker',
          ExpressionAttributeNames: { '#marker': ISEE_FEE_MARKER },
          ...(at ? { ExpressionAttributeValues: { ':at': at } } : {}),
        }),
      );
    },
  };
}

/**
 * Waits until the table's global indexes have caught up with every write made so far: the integration tier runs
 * with lagging indexes, as DynamoDB's are eventually consistent (test/integration/global-setup.ts). It writes a
 * marker and waits for gsi1 to list it; the local lag applies index writes in the order they were made, so
 * every earlier write is then indexed. For a check that something did NOT change (a count, a refused delete),
 * which a poll cannot wait for; a list that must show a new item waits with expect.poll, as a user reloads.
 */
export async function indexesCaughtUp(): Promise<void> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'eu-south-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const marker = { pk: `TEST#CAUGHTUP#${randomUUID()}`, sk: 'MARKER' };
  await client.send(
    new PutCommand({ TableName: TABLE_NAME, Item: { ...marker, gsi1pk: 'TEST#CAUGHTUP', gsi1sk: marker.pk } }),
  );
  const listed = async () =>
    (
      await client.send(
        new QueryCommand({
          TableName: TABLE_NAME,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
          ExpressionAttributeValues: { ':pk': 'TEST#CAUGHTUP', ':sk': marker.pk },
        }),
      )
    ).Count;
  for (let waited = 0; !(await listed()); waited += 25) {
    if (waited > 10_000) throw new Error('the indexes did not catch up in 10 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await client.send(new DeleteCommand({ TableName: TABLE_NAME, Key: marker }));
  client.destroy();
}
