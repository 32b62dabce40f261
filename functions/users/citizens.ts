import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ForbiddenError } from '../domain/errors.ts';
import type { Actor } from '../domain/roles.ts';
import { documentClient, isConditionFailure, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { DEFAULT_NATION } from '../domain/users.ts';
import { userItem } from './repository.ts';

/**
 * The citizen's user record is found by fiscal code: the same person may have been registered by an
 * operator before signing in with SPID/CIE. The record's id is opaque, so fiscal codes stay out of URLs.
 */
export async function findUserIdByFiscalCode(fiscalCode: string): Promise<string | null> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName, Key: keys.userByFiscalCode(fiscalCode) }));
  return (Item?.userId as string | undefined) ?? null;
}

/**
 * The user id of the signed-in citizen, creating the record from the token's attributes at the first
 * sign-in. Race-safe: the fiscal-code item is written only if absent, and a loser reads the winner's id.
 */
export async function ensureCitizen(actor: Actor, now = new Date().toISOString()): Promise<string> {
  if (!actor.fiscalCode) throw new ForbiddenError('Il tuo profilo non contiene il codice fiscale: esegui di nuovo il login con SPID o CIE.');
  const existing = await findUserIdByFiscalCode(actor.fiscalCode);
  if (existing) return existing;
  const userId = randomUUID();
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.userByFiscalCode(actor.fiscalCode), userId },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return (await findUserIdByFiscalCode(actor.fiscalCode))!;
    throw error;
  }
  // The search attributes come with the record, so the citizen is found in /lista_utenti at once.
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...userItem({
          id: userId,
          fiscalCode: actor.fiscalCode,
          firstName: actor.firstName,
          lastName: actor.lastName,
          email: actor.email,
          nation: DEFAULT_NATION,
          subject: actor.sub,
          state: 'VALIDATED',
          dataInsert: now,
        }),
        updatedAt: now,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  ).catch((error) => {
    if (!isConditionFailure(error)) throw error;
  });
  return userId;
}
