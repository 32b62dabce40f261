import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutStatus } from '../domain/position-payment.ts';
import { documentClient, tableName, unlessConditionFails } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';

/**
 * Checkout sessions (MyPay's idSession, or on GPD the portal's correlation id): pk "PAYSESSION#<idSession>", sk
 * "PAYSESSION". One item per session: which positions and which citizen the session is for, so the return page's idSession is checked against the
 * citizen who comes back (another citizen's, or an unknown one, is a 404).
 */
export interface PaymentSession {
  idSession: string;
  userId: string;
  /** The position paid (the first of a cart). */
  iud: string;
  /** Every position of a cart of several (GPD's Checkout); absent for one. */
  iuds?: string[];
  createdAt: string;
  /** The last outcome MyPay gave for it (null until the citizen came back). */
  outcome: CheckoutStatus | null;
  resolvedAt: string | null;
}

/**
 * Records the session of a 'Paga'. MyPay makes a new one for every paaSILVerificaAvviso; a key written again
 * (the same session) is allowed for the same citizen and position only.
 */
export async function createPaymentSession(session: PaymentSession): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.paymentSession(session.idSession), ...session },
      ConditionExpression: 'attribute_not_exists(pk) OR (userId = :userId AND iud = :iud)',
      ExpressionAttributeValues: { ':userId': session.userId, ':iud': session.iud },
    }),
  );
}

export async function getPaymentSession(idSession: string): Promise<PaymentSession | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.paymentSession(idSession), ConsistentRead: true }),
  );
  if (!Item) return null;
  const { pk: _pk, sk: _sk, ...session } = Item;
  return session as PaymentSession;
}

/** Notes MyPay's outcome on the session (information only: the position is what counts). */
export async function recordSessionOutcome(idSession: string, outcome: CheckoutStatus, at: string): Promise<void> {
  await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.paymentSession(idSession),
        UpdateExpression: 'SET outcome = :outcome, resolvedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':outcome': outcome, ':at': at },
      }),
    ),
  );
}
