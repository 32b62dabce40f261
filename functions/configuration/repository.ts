import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Configuration, StoredConfiguration } from '../domain/configuration.ts';
import { documentClient, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/** The configuration as stored: one item (keys.configuration); fields as saved, possibly incomplete if written by hand. */
export async function getConfiguration(): Promise<StoredConfiguration | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.configuration, ConsistentRead: true }),
  );
  return Item ? { values: Item.values ?? {}, updatedAt: Item.updatedAt } : null;
}

export async function putConfiguration(
  values: Configuration,
  now: string = new Date().toISOString(),
): Promise<StoredConfiguration> {
  await documentClient.send(
    new PutCommand({ TableName: tableName, Item: { ...keys.configuration, values, updatedAt: now } }),
  );
  return { values, updatedAt: now };
}
