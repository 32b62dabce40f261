import type { Actor } from '../../domain/roles.ts';
import type { StoredUser, UserChanges, UserRecord } from '../../domain/user-record.ts';
import type { NewUserInput } from '../../domain/user-input.ts';
import type { User, UserSearch } from '../../domain/users.ts';
import type { Page } from '../../domain/validation.ts';

/** The user pool's admin operations the command needs (functions/adapters/user-pool.ts). */
export interface UserPoolAdmin {
  /** The username of the user whose `sub` this is (ListUsers, Filter `sub = "…"`), or null when the pool has none. */
  usernameWithSub(sub: string): Promise<string | null>;
  /** The user's attributes now (AdminGetUser: ListUsers is only eventually consistent). */
  attributesOf(username: string): Promise<Record<string, string>>;
  groupsOf(username: string): Promise<string[]>;
  addToGroup(username: string, group: string): Promise<void>;
  removeFromGroup(username: string, group: string): Promise<void>;
  setAttribute(username: string, name: string, value: string): Promise<void>;
  deleteAttribute(username: string, name: string): Promise<void>;
}

/** The users' table (functions/users/repository.ts), for the use cases that read or write a user. */
export interface UserRepository {
  searchUsers(search: UserSearch): Promise<Page<User>>;
  countLoadedUsers(): Promise<number>;
  getUserItem(id: string): Promise<StoredUser | null>;
  findUserIdByFiscalCode(fiscalCode: string): Promise<string | null>;
  claimFiscalCode(fiscalCode: string, userId: string): Promise<boolean>;
  /** Records that a Cognito user (`sub`) signed in with the fiscal code (once; repository.ts recordSignIn). */
  recordSignIn(fiscalCode: string, sub: string, now: string): Promise<void>;
  releaseFiscalCode(fiscalCode: string, userId: string): Promise<void>;
  insertUser(record: UserRecord, now: string): Promise<boolean>;
  /** null when the fiscal code is taken. */
  createUser(input: NewUserInput, id: string, now: string): Promise<User | null>;
  updateUserFields(
    id: string,
    changes: UserChanges,
    now: string,
  ): Promise<{ before: StoredUser; after: StoredUser } | null>;
  /** False when the user is gone or gained an ISEE since it was read. */
  deleteUser(id: string, expected: { iseeCount: number }): Promise<boolean>;
}

/** The signed-in citizen's user id, the record created at the first sign-in (functions/users/use-cases.ts makeEnsureCitizen). */
export type EnsureCitizen = (actor: Actor) => Promise<string>;
