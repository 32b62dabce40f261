import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ImportPlan, PlannedImportAction } from '../domain/enrolment-import.ts';
import { documentClient, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * An import's approved preview, as the job applies it: pk "IMPORTPLAN#<previewId>", sk "PLAN" (the header)
 * and "SLICE#<n>" (the planned changes of slice n). Written once by the preview; DynamoDB's TTL (expiresAt)
 * removes them a day later.
 */
const KEEP_SECONDS = 24 * 60 * 60;

export async function savePlan(plan: ImportPlan, slices: readonly PlannedImportAction[][]): Promise<void> {
  const expiresAt = Math.floor(Date.parse(plan.createdAt) / 1000) + KEEP_SECONDS;
  // Slices first: a header is only ever found with all its slices.
  await Promise.all(
    slices.map((actions, n) =>
      documentClient.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.importPlanSlice(plan.previewId, n), actions, expiresAt },
        }),
      ),
    ),
  );
  await documentClient.send(
    new PutCommand({ TableName: tableName, Item: { ...keys.importPlan(plan.previewId), ...plan, expiresAt } }),
  );
}

export async function getPlan(previewId: string): Promise<ImportPlan | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.importPlan(previewId), ConsistentRead: true }),
  );
  if (!Item) return null;
  const { pk: _pk, sk: _sk, expiresAt: _e, ...plan } = Item;
  return plan as ImportPlan;
}

export async function getPlanSlice(previewId: string, n: number): Promise<PlannedImportAction[] | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.importPlanSlice(previewId, n), ConsistentRead: true }),
  );
  return Item ? (Item.actions as PlannedImportAction[]) : null;
}
