import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, isConditionFailure, tableName } from '../adapters/dynamo.ts';
import { paymentKeys } from '../adapters/table.ts';
import { gpdIuv, MAX_IUV_BASE, SEGREGATION_CODE } from '../domain/gpd.ts';

/**
 * The council's IUV sequence for GPD (aux digit 3: the portal makes the IUVs, domain/gpd.ts gpdIuv). One counter
 * item per segregation code holds the last number given; a reservation is one UpdateItem ADD of the block's size,
 * which DynamoDB applies atomically, so two exports reserving at once get disjoint blocks and a number is never
 * given twice. A block reserved and not used (an export that fails before it sends) leaves a gap: pagoPA asks
 * IUVs to be unique, not consecutive.
 */

/** The most numbers one reservation takes: a month of the largest call (10,000 positions) several times over. */
export const MAX_IUV_BLOCK = 100_000;

export class IuvSequenceExhausted extends Error {
  override name = 'IuvSequenceExhausted';
}

/** Reserves `count` consecutive numbers of the sequence: the first and the last (both included). */
export async function reserveIuvNumbers(
  segregationCode: string,
  count: number,
): Promise<{ first: number; last: number }> {
  if (!SEGREGATION_CODE.test(segregationCode))
    throw new RangeError(`codice di segregazione non valido: "${segregationCode}" (2 cifre)`);
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_IUV_BLOCK)
    throw new RangeError(`quantità di IUV da riservare non valida: ${count} (da 1 a ${MAX_IUV_BLOCK})`);
  try {
    const { Attributes } = await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: paymentKeys.iuvSequence(segregationCode),
        UpdateExpression: 'ADD #last :count SET updatedAt = :now',
        // The 13-digit base must not overflow: a block that would pass it is refused whole, and the counter stays.
        ConditionExpression: 'attribute_not_exists(#last) OR #last <= :limit',
        ExpressionAttributeNames: { '#last': 'last' },
        ExpressionAttributeValues: {
          ':count': count,
          ':limit': MAX_IUV_BASE - count,
          ':now': new Date().toISOString(),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const last = Number(Attributes!.last);
    return { first: last - count + 1, last };
  } catch (error) {
    if (isConditionFailure(error))
      throw new IuvSequenceExhausted(
        `la sequenza degli IUV del codice di segregazione ${segregationCode} non ha più ${count} numeri liberi`,
      );
    throw error;
  }
}

/** `count` new IUVs of the council (its segregation code, check digits mod 93), from one reservation. */
export async function reserveIuvs(segregationCode: string, count: number): Promise<string[]> {
  const { first } = await reserveIuvNumbers(segregationCode, count);
  return Array.from({ length: count }, (_, i) => gpdIuv(segregationCode, first + i));
}
