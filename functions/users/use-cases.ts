import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { Actor } from '../domain/roles.ts';
import {
  DEFAULT_NATION,
  assertUserDeletable,
  userMessages,
  userStateAfterToggle,
  toUser,
} from '../domain/user-rules.ts';
import type { User, UserSearch } from '../domain/users.ts';
import type { NewUserInput, UserUpdateInput } from '../domain/user-input.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock, IdGenerator } from '../adapters/ports/clock.ts';
import type { UserRepository } from '../adapters/ports/users.ts';
import type { StoredUser } from '../domain/user-record.ts';

/** The other resources the delete rule asks about. */
export interface UserLinks {
  isees: { userHasIsees(userId: string): Promise<boolean> };
  subscriptions: {
    userHasSubscriptions(userId: string): Promise<boolean>;
    /** Copies edited names and fiscal code onto the user's subscriptions (the enrolment table shows and filters on them). */
    syncUserNames(
      userId: string,
      person: { fiscalCode: string; firstName: string; lastName: string },
      now: string,
    ): Promise<unknown>;
  };
}

/**
 * The signed-in citizen's user id, creating the record from the token at the first sign-in. Race-safe:
 * the fiscal-code lookup is claimed only if absent, and a loser reads the winner's id.
 */
export function makeEnsureCitizen({
  users,
  ids,
  clock,
}: {
  users: Pick<UserRepository, 'findUserIdByFiscalCode' | 'claimFiscalCode' | 'insertUser'>;
  ids: IdGenerator;
  clock: Clock;
}) {
  return async function ensureCitizen(actor: Actor): Promise<string> {
    if (!actor.fiscalCode)
      throw new ForbiddenError(
        'Il tuo profilo non contiene il codice fiscale: esegui di nuovo il login con SPID o CIE.',
      );
    const existing = await users.findUserIdByFiscalCode(actor.fiscalCode);
    if (existing) return existing;
    const userId = ids();
    if (!(await users.claimFiscalCode(actor.fiscalCode, userId)))
      return (await users.findUserIdByFiscalCode(actor.fiscalCode))!;
    const now = clock.now().toISOString();
    // The search attributes come with the record, so the citizen is found in /lista_utenti at once.
    await users.insertUser(
      {
        id: userId,
        fiscalCode: actor.fiscalCode,
        firstName: actor.firstName,
        lastName: actor.lastName,
        email: actor.email,
        nation: DEFAULT_NATION,
        subject: actor.sub,
        state: 'VALIDATED',
        dataInsert: now,
      },
      now,
    );
    return userId;
  };
}

export interface UserDeps extends UserLinks {
  users: UserRepository;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
}

export function makeUserUseCases({ users, isees, subscriptions, audit, clock, ids }: UserDeps) {
  const notFound = () => new NotFoundError(userMessages.notFound);

  async function audited(
    actor: Actor,
    id: string,
    change: { before: StoredUser; after: StoredUser },
    now: Date,
  ): Promise<User> {
    const after = toUser(change.after);
    await audit.record({ actor, entity: 'user', id, action: 'update', before: toUser(change.before), after }, now);
    return after;
  }

  return {
    searchUsers: (search: UserSearch) => users.searchUsers(search),

    countLoadedUsers: async () => ({ count: await users.countLoadedUsers() }),

    async getUser(id: string): Promise<User> {
      const item = await users.getUserItem(id);
      if (!item) throw notFound();
      return toUser(item);
    },

    /** A user registered by an operator: the fiscal code must be new (409). */
    async createUser(input: NewUserInput, actor: Actor): Promise<User> {
      const now = clock.now();
      const user = await users.createUser(input, ids(), now.toISOString());
      if (!user) throw new ConflictError(userMessages.fiscalCodeTaken);
      await audit.record({ actor, entity: 'user', id: user.id, action: 'create', before: null, after: user }, now);
      return user;
    },

    /** The operator's edit: a changed fiscal code moves the fiscal-code lookup (refused if taken). */
    async updateUser(id: string, input: UserUpdateInput, actor: Actor): Promise<User> {
      const current = await users.getUserItem(id);
      if (!current) throw notFound();
      const newCode = input.fiscalCode.toUpperCase();
      const moving = newCode !== current.fiscalCode;
      if (moving && !(await users.claimFiscalCode(newCode, id))) throw new ConflictError(userMessages.fiscalCodeTaken);
      const now = clock.now();
      const change = await users.updateUserFields(id, input, now.toISOString());
      if (moving) await users.releaseFiscalCode(change ? current.fiscalCode : newCode, id);
      if (!change) throw notFound();
      const { before, after } = change;
      if (
        before.fiscalCode !== after.fiscalCode ||
        before.firstName !== after.firstName ||
        before.lastName !== after.lastName
      ) {
        await subscriptions.syncUserNames(
          id,
          { fiscalCode: after.fiscalCode, firstName: after.firstName, lastName: after.lastName },
          now.toISOString(),
        );
      }
      return audited(actor, id, change, now);
    },

    /** 'SOSPENDI' / 'ABILITA' (domain: userStateAfterToggle). */
    async setUserStatus(id: string, suspended: boolean, actor: Actor): Promise<User> {
      const current = await users.getUserItem(id);
      if (!current) throw notFound();
      const now = clock.now();
      const change = await users.updateUserFields(
        id,
        { state: userStateAfterToggle(suspended, current.lastIsee ?? null) },
        now.toISOString(),
      );
      if (!change) throw notFound();
      return audited(actor, id, change, now);
    },

    /** Only a user without linked data (ISEE, subscriptions) can be deleted (409 otherwise). */
    async deleteUser(id: string, actor: Actor): Promise<void> {
      const item = await users.getUserItem(id);
      if (!item) throw notFound();
      const [hasIsee, hasSubscriptions] = await Promise.all([
        isees.userHasIsees(id),
        subscriptions.userHasSubscriptions(id),
      ]);
      assertUserDeletable({ iseeCount: item.iseeCount, lastIsee: item.lastIsee, hasIsee, hasSubscriptions });
      if (!(await users.deleteUser(id, { iseeCount: item.iseeCount ?? 0 })))
        throw new ConflictError(userMessages.hasLinkedData);
      await users.releaseFiscalCode(item.fiscalCode, id);
      await audit.record(
        { actor, entity: 'user', id, action: 'delete', before: toUser(item), after: null },
        clock.now(),
      );
    },
  };
}
