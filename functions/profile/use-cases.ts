import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { Me } from '../domain/profile.ts';
import type { Actor } from '../domain/roles.ts';
import type { ProfileUpdateInput } from '../domain/user-input.ts';
import { missingProfileFields, toUser, userMessages, type User } from '../domain/users.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { EnsureCitizen, UserRepository } from '../adapters/ports/users.ts';

export interface ProfileDeps {
  users: Pick<UserRepository, 'getUserItem' | 'updateUserFields' | 'recordSignIn'>;
  ensureCitizen: EnsureCitizen;
  clock: Clock;
}

export function makeProfileUseCases({ users, ensureCitizen, clock }: ProfileDeps) {
  async function ownRecord(actor: Actor) {
    const item = await users.getUserItem(await ensureCitizen(actor));
    if (!item) throw new NotFoundError(userMessages.noCitizenRecord);
    return item;
  }

  return {
    /**
     * Who is signed in. A citizen's first call creates their record from the token (first sign-in), and
     * the answer says whether the profile is complete: the portal asks to complete it until it is. Every
     * role's sign-in is recorded by fiscal code: the roles command finds the person's Cognito user by it.
     */
    async getMe(actor: Actor): Promise<Me> {
      const { role, fullName, firstName, lastName, fiscalCode, email, workingEntityId } = actor;
      const me = {
        role,
        fullName,
        firstName,
        lastName,
        fiscalCode,
        email,
        workingEntityId,
        userId: null,
        profileComplete: true,
        missingFields: [],
      };
      if (!fiscalCode) return me;
      const signedIn = users.recordSignIn(fiscalCode, actor.sub, clock.now().toISOString());
      if (role !== 'CITIZEN') {
        await signedIn;
        return me;
      }
      const [item] = await Promise.all([ownRecord(actor), signedIn]);
      const missingFields = missingProfileFields(item);
      return { ...me, userId: item.id, profileComplete: missingFields.length === 0, missingFields };
    },

    getProfile: async (actor: Actor): Promise<User> => toUser(await ownRecord(actor)),

    /** First name, last name and fiscal code come from SPID/CIE and are not editable (part 2 §2.8): the schema has none of them. */
    async updateProfile(input: ProfileUpdateInput, actor: Actor): Promise<User> {
      const item = await ownRecord(actor);
      const change = await users.updateUserFields(item.id, input, clock.now().toISOString());
      if (!change) throw new ForbiddenError(userMessages.noCitizenRecord);
      return toUser(change.after);
    },
  };
}
