import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { periodKey, type Period } from '../domain/period.ts';
import { documentClient, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys, paymentKeys } from '../adapters/table.ts';

/**
 * A citizen's live MyPay checkout: its hold on the position (`checkoutSession`, `checkoutUrl`,
 * `checkoutUntil` on the position item; every other position write's condition refuses while it holds,
 * payments/repository.ts NO_LIVE_CHECKOUT), and the call-level markers (paymentKeys.checkoutMarker): small items a
 * recalculation or an export reads (one Query) to refuse with 409 while a citizen pays. Kept apart from the
 * positions' repository so that the payments and flows functions bundle only what they use.
 */
const period = (position: { mese: number; anno: number }) => periodKey(position);

/** No citizen's checkout holds the position at `:now` (ISO): none, or one that has expired (`:nullValue` is null). */
export const NO_LIVE_CHECKOUT = '(attribute_not_exists(checkoutUntil) OR checkoutUntil = :nullValue OR checkoutUntil < :now)';


/** The call-level marker of a live checkout (paymentKeys.checkoutMarker): written before the position is held. */
export async function putCheckoutMarker(position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'iud'>, until: string): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: tableName, Item: { ...paymentKeys.checkoutMarker(position.callId, period(position), position.iud), until } }));
}

export async function deleteCheckoutMarker(position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'iud'>): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName, Key: paymentKeys.checkoutMarker(position.callId, period(position), position.iud) }));
}

/** Whether a checkout of the call (of one month, when given) is live at `now`: one Query of the call's markers. */
export async function hasLiveCheckouts(callId: string, month: Period | null, now: string): Promise<boolean> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: month ? 'pk = :pk AND begins_with(sk, :month)' : 'pk = :pk',
      FilterExpression: '#until > :now',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':pk': paymentKeys.checkoutsOfCall(callId), ':now': now, ...(month ? { ':month': `${periodKey(month)}#` } : {}) },
      ConsistentRead: true,
    }),
  );
  return Items.length > 0;
}

/**
 * A citizen's checkout takes the position (position-payment.ts CHECKOUT_HOLD_MS): only the version read,
 * still unpaid and not cancelled, and not held by a live checkout. The version does not move (nothing the
 * operator sees changed); every other write's condition refuses while it holds. False when it lost.
 */
export async function holdForCheckout(position: PositionRecord, hold: { session: string; url: string; until: string; now: string }): Promise<boolean> {
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.position(position.callId, period(position), position.userId),
        UpdateExpression: 'SET checkoutSession = :session, checkoutUrl = :url, checkoutUntil = :until',
        ConditionExpression: `#version = :version AND isPagato = :false AND annullato = :false AND ${NO_LIVE_CHECKOUT}`,
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':session': hold.session, ':url': hold.url, ':until': hold.until, ':version': position.version, ':false': false, ':nullValue': null, ':now': hold.now },
      }),
    ),
  );
  return written !== null;
}

/** The checkout `session` ended without a payment (refused, cancelled, expired): the position is free again. */
export async function releaseCheckout(position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>, session: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.position(position.callId, period(position), position.userId),
        UpdateExpression: 'REMOVE checkoutSession, checkoutUrl, checkoutUntil',
        ConditionExpression: 'checkoutSession = :session',
        ExpressionAttributeValues: { ':session': session },
      }),
    ),
  );
}

