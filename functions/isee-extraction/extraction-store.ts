import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * Writes the reading onto the ISEE item the ISEE API created, touching only `extractionStatus` and the
 * extraction attributes, and only if the item exists: a deleted ISEE stays deleted. Returns false when
 * there is no item (deleted, or, for a few seconds after the upload, not created yet).
 */
export async function updateExtraction(
  iseeId: string,
  status: 'DONE' | 'FAILED',
  values: Record<string, unknown>,
): Promise<boolean> {
  const names = Object.keys(values);
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.isee(iseeId),
        UpdateExpression: `SET extractionStatus = :status, ${names.map((n) => `#${n} = :${n}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n) => [`#${n}`, n])),
        ExpressionAttributeValues: { ':status': status, ...Object.fromEntries(names.map((n) => [`:${n}`, values[n]])) },
      }),
    ),
  );
  return written !== null;
}
