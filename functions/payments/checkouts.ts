import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { periodKey, type Period } from '../domain/period.ts';
import { documentClient, tableName } from '../adapters/dynamo.ts';
import { paymentKeys } from '../adapters/table.ts';

/**
 * A citizen's live MyPay checkout's call-level markers (paymentKeys.checkoutMarker): small items a
 * recalculation or an export reads (one Query) to refuse with 409 while a citizen pays. The hold on the
 * position itself (`checkoutSession`, `checkoutUrl`, `checkoutUntil`) is a transition of the position
 * (domain/positions hold, release; every other change's guard refuses while it holds), written by
 * positions/repository.ts.
 */
const period = (position: { mese: number; anno: number }) => periodKey(position);

/** The call-level marker of a live checkout (paymentKeys.checkoutMarker): written before the position is held. */
export async function putCheckoutMarker(
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'iud'>,
  until: string,
): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...paymentKeys.checkoutMarker(position.callId, period(position), position.iud), until },
    }),
  );
}

export async function deleteCheckoutMarker(
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'iud'>,
): Promise<void> {
  await documentClient.send(
    new DeleteCommand({
      TableName: tableName,
      Key: paymentKeys.checkoutMarker(position.callId, period(position), position.iud),
    }),
  );
}

/** Whether a checkout of the call (of one month, when given) is live at `now`: one Query of the call's markers. */
export async function hasLiveCheckouts(callId: string, month: Period | null, now: string): Promise<boolean> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: month ? 'pk = :pk AND begins_with(sk, :month)' : 'pk = :pk',
      FilterExpression: '#until > :now',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: {
        ':pk': paymentKeys.checkoutsOfCall(callId),
        ':now': now,
        ...(month ? { ':month': `${periodKey(month)}#` } : {}),
      },
      ConsistentRead: true,
    }),
  );
  return Items.length > 0;
}
