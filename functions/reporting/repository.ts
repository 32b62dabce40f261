import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * What the automatic reporting keeps: per call, the last day reported (pk "REPORTING#<callId>", sk "REPORTED";
 * it only moves forward), and the reportings due after checkouts whose outcome is unknown (one partition
 * "REPORTING#FOLLOW-UPS", sk "<dueAt>#<callId>": the sweep reads those due with one Query).
 */
export async function getReportedThrough(callId: string): Promise<string | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.reportedThrough(callId), ConsistentRead: true }),
  );
  return (Item?.day as string | undefined) ?? null;
}

/** Records that the call is reported through `day`, unless a later day is recorded already. */
export async function putReportedThrough(callId: string, day: string, at: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.reportedThrough(callId),
        UpdateExpression: 'SET #day = :day, updatedAt = :at',
        ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':day': day, ':at': at },
      }),
    ),
  );
}

export async function putFollowUp(callId: string, dueAt: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.reportingFollowUp(dueAt, callId),
      UpdateExpression: 'SET callId = :call',
      ExpressionAttributeValues: { ':call': callId },
    }),
  );
}

/** The follow-ups due at `now`, oldest first (at most `limit`: the sweep takes the rest next time). */
export async function listDueFollowUps(now: string, limit = 100): Promise<{ callId: string; dueAt: string }[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.reportingFollowUp('', '').pk, ':now': `${now}#~` },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => ({
    callId: item.callId as string,
    dueAt: String(item.sk).slice(0, String(item.sk).indexOf('#')),
  }));
}

export async function deleteFollowUp(followUp: { callId: string; dueAt: string }): Promise<void> {
  await documentClient.send(
    new DeleteCommand({ TableName: tableName, Key: keys.reportingFollowUp(followUp.dueAt, followUp.callId) }),
  );
}
