import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { StoredUser } from './repository.ts';

/** Users looked up in bulk (the enrolment import): a module of its own, so the users function does not carry it. */

/** Reads items by key, 100 per BatchGet, a few batches at a time, retrying what DynamoDB leaves unprocessed. */
async function batchGet(keyList: Record<string, string>[]): Promise<Record<string, any>[]> {
  const found: Record<string, any>[] = [];
  const batches: Record<string, string>[][] = [];
  for (let i = 0; i < keyList.length; i += 100) batches.push(keyList.slice(i, i + 100));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending: Record<string, any>[] | undefined = batch;
      for (let attempt = 0; pending?.length && attempt < 8; attempt++) {
        const result = await documentClient.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
        found.push(...(result.Responses?.[tableName] ?? []));
        pending = result.UnprocessedKeys?.[tableName]?.Keys as Record<string, any>[] | undefined;
        if (pending?.length) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return found;
}

/** The users of many fiscal codes at once (the enrolment import): fiscal code → user; unknown codes are absent. */
export async function getUsersByFiscalCodes(fiscalCodes: string[]): Promise<Map<string, StoredUser>> {
  const codes = [...new Set(fiscalCodes.map((code) => code.toUpperCase()))];
  const lookups = await batchGet(codes.map((code) => keys.userByFiscalCode(code)));
  const users = await batchGet([...new Set(lookups.map((item) => item.userId as string))].map((id) => keys.user(id)));
  const byId = new Map(users.map((user) => [user.id as string, user as StoredUser]));
  const found = new Map<string, StoredUser>();
  for (const lookup of lookups) {
    const user = byId.get(lookup.userId);
    if (user) found.set((lookup.pk as string).slice('USERCF#'.length), user);
  }
  return found;
}

