import { batchGet } from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import type { StoredUser } from '../domain/user-record.ts';

/** Users looked up in bulk (the enrolment import): a module of its own, so the users function does not carry it. */

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
