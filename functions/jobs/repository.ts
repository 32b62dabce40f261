import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JobRecord } from '../domain/jobs.ts';
import { documentClient, tableName, unlessConditionFails, type StoredItem } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * Background jobs: pk "JOB#<kind>#<key>", sk "JOB", the latest run of that kind on that key. Starting is a
 * conditional put (no run, a finished one, or a dead one), so two clicks never run two jobs; every later
 * write is conditional on the run's id and on it still running, so a run replaced by a new one writes nothing.
 */
const toRecord = (item: StoredItem): JobRecord => {
  const { pk: _pk, sk: _sk, ...record } = item;
  return record as JobRecord;
};

export async function getJob(kind: string, key: string): Promise<JobRecord | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.job(kind, key), ConsistentRead: true }),
  );
  return Item ? toRecord(Item) : null;
}

/** Writes the new run unless another runs on the key and moved after `staleBefore`: false then (nothing written). */
export async function takeJob(job: JobRecord, staleBefore: string): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.job(job.kind, job.key), ...job },
        ConditionExpression: 'attribute_not_exists(pk) OR #state <> :running OR updatedAt < :stale',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':running': 'RUNNING', ':stale': staleBefore },
      }),
    ),
  );
  return written !== null;
}

/** Progress, or the end, of the run `id`; false (nothing written) when that run is no longer the running one. */
export async function updateJob(
  kind: string,
  key: string,
  id: string,
  fields: Partial<
    Pick<JobRecord, 'state' | 'cursor' | 'done' | 'total' | 'error' | 'result' | 'endedAt' | 'updatedAt'>
  >,
): Promise<boolean> {
  const entries = Object.entries(fields);
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.job(kind, key),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'id = :id AND #state = :running',
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
          '#state': 'state',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value ?? null])),
          ':id': id,
          ':running': 'RUNNING',
        },
      }),
    ),
  );
  return written !== null;
}
