import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, queryAll, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { MigrationRecord } from '../domain/migration-record.ts';
import { MIGRATIONS_PARTITION as MIGRATIONS } from './ids.ts';

export async function listMigrations(): Promise<MigrationRecord[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': MIGRATIONS },
      ConsistentRead: true,
    }),
  );
  return Items.map(({ pk: _pk, sk: _sk, ...record }) => record as MigrationRecord);
}

export async function saveMigration(record: MigrationRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({ TableName: tableName, Item: { pk: MIGRATIONS, sk: record.id, ...record } }),
  );
}

/** Every call's id (the calls collection, gsi1): the units the per-call migrations walk. */
export async function callIds(): Promise<string[]> {
  const calls = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.callsCollection },
    ProjectionExpression: 'id',
  });
  return calls.map((call) => call.id as string);
}
