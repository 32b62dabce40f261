/**
 * The sign-ins recorded by fiscal code (repository.ts recordSignIn), read by the roles command (bin/roles.ts) only:
 * its own module, so the functions that import the whole user repository do not carry it.
 */
import { queryAll } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { getUserItem } from './repository.ts';

/**
 * Every `sub` known to have signed in with a fiscal code: the recorded sign-ins (one Query on the fiscal code's
 * partition, which also holds its lookup item) and the subject of the citizen record, set at the first sign-in
 * by the records made before sign-ins were recorded.
 */
export async function subjectsSignedInWith(fiscalCode: string): Promise<string[]> {
  const subjects = new Set<string>();
  let userId: string | undefined;
  for (const item of await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userByFiscalCode(fiscalCode).pk },
    ConsistentRead: true,
  })) {
    if (item.sk === keys.userByFiscalCode(fiscalCode).sk) userId = item.userId;
    else if (typeof item.sub === 'string') subjects.add(item.sub);
  }
  const subject = userId ? (await getUserItem(userId))?.subject : null;
  if (subject) subjects.add(subject);
  return [...subjects];
}
