import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { Me } from '../domain/profile.ts';
import { missingProfileFields, userMessages } from '../domain/users.ts';
import { resourceHandler } from '../http/handler.ts';
import { profileRoutes } from './routes.ts';
import { ensureCitizen } from '../users/citizens.ts';
import { getUserItem, toUser, updateUserFields } from '../users/repository.ts';

async function ownRecord(actor: Parameters<typeof ensureCitizen>[0]) {
  const userId = await ensureCitizen(actor);
  const item = await getUserItem(userId);
  if (!item) throw new NotFoundError(userMessages.noCitizenRecord);
  return item;
}

export const handler = resourceHandler(profileRoutes, {
  /**
   * Who is signed in. A citizen's first call creates their record from the token (first sign-in), and
   * the answer says whether the profile is complete: the portal asks to complete it until it is.
   */
  getMe: async ({ actor }): Promise<Me> => {
    const { role, fullName, firstName, lastName, fiscalCode, email, workingEntityId } = actor!;
    const me = { role, fullName, firstName, lastName, fiscalCode, email, workingEntityId, userId: null, profileComplete: true, missingFields: [] };
    if (role !== 'CITIZEN' || !fiscalCode) return me;
    const item = await ownRecord(actor!);
    const missingFields = missingProfileFields(item);
    return { ...me, userId: item.id, profileComplete: missingFields.length === 0, missingFields };
  },

  getProfile: async ({ actor }) => toUser(await ownRecord(actor!)),

  /** First name, last name and fiscal code come from SPID/CIE and are not editable (part 2 §2.8). */
  updateProfile: async ({ actor, body }) => {
    const item = await ownRecord(actor!);
    const result = await updateUserFields(item.id, body);
    if (!result) throw new ForbiddenError(userMessages.noCitizenRecord);
    return toUser(result.after);
  },
});
