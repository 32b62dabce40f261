import { PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, queryAll, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { MigrationRecord } from '../domain/migration-record.ts';
import type { StoredBeforeRetention } from '../domain/retention.ts';
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

/** Items a Scan page of the TTL back-fill evaluates (read capacity bounded per step). */
const RETENTION_SCAN_LIMIT = 500;

/**
 * One page of the items of a kind with a retention that carry no `expiresAt` (written before the retention
 * settings): support messages (the ticket item), debt positions (a call's month, "USER#<id>"), audit entries.
 * A Scan, the only read that finds items by what they lack: a one-time migration's, never a request's (its
 * function alone may Scan: lib/migrations.ts).
 */
export async function itemsWithoutExpiryPage(start: Record<string, unknown> | undefined): Promise<{
  items: ({ pk: string; sk: string } & StoredBeforeRetention)[];
  next?: Record<string, unknown>;
}> {
  const { Items = [], LastEvaluatedKey } = await documentClient.send(
    new ScanCommand({
      TableName: tableName,
      Limit: RETENTION_SCAN_LIMIT,
      ExclusiveStartKey: start,
      FilterExpression:
        'attribute_not_exists(expiresAt) AND ((begins_with(pk, :ticket) AND sk = :ticketSk) OR begins_with(pk, :audit) OR (begins_with(pk, :call) AND contains(pk, :positions) AND begins_with(sk, :user)))',
      ExpressionAttributeValues: {
        ':ticket': 'TICKET#',
        ':ticketSk': keys.ticket('').sk,
        ':audit': 'AUDIT#',
        ':call': 'CALL#',
        ':positions': '#POSITIONS#',
        ':user': 'USER#',
      },
      ProjectionExpression: 'pk, sk, dataApertura, anno, #at',
      ExpressionAttributeNames: { '#at': 'at' },
    }),
  );
  const items: ({ pk: string; sk: string } & StoredBeforeRetention)[] = [];
  for (const item of Items) {
    const { pk, sk } = item as { pk: string; sk: string };
    if (pk.startsWith('TICKET#') && typeof item.dataApertura === 'string')
      items.push({ pk, sk, kind: 'supportMessages', dataApertura: item.dataApertura });
    else if (pk.startsWith('AUDIT#') && typeof item.at === 'string')
      items.push({ pk, sk, kind: 'auditEntries', at: item.at });
    else if (pk.startsWith('CALL#') && typeof item.anno === 'number')
      items.push({ pk, sk, kind: 'paymentRecords', anno: item.anno });
  }
  return { items, next: LastEvaluatedKey };
}

/**
 * Writes an item's `expiresAt` unless it has one (written meanwhile by the new code, or by this step before a
 * stop) or is gone (an item is never re-created): false when it was left as it is.
 */
export async function setExpiryIfMissing(pk: string, sk: string, expiresAt: number): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk, sk },
        UpdateExpression: 'SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(expiresAt)',
        ExpressionAttributeValues: { ':expiresAt': expiresAt },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
