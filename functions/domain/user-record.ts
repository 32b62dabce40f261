import type { LastIsee, PostalAddress, UserState } from './user-rules.ts';

/** The stored fields of a user (besides keys and search attributes). */
export interface UserRecord extends PostalAddress {
  id: string;
  firstName: string;
  lastName: string;
  fiscalCode: string;
  birthDate?: string | null;
  email?: string | null;
  emailPec?: string | null;
  phoneNumber?: string | null;
  municipioId?: string | null;
  state: UserState;
  dataInsert: string;
  subject?: string | null;
  lastIsee?: LastIsee | null;
  /**
   * The ids of the user's latest ISEE, newest first (at most RECENT_ISEES), kept with lastIsee: when the newest is
   * deleted, the one before it is found here, from the table, even if gsi2 does not list it yet.
   */
  recentIseeIds?: string[];
  iseeCount?: number;
}

/** A user as stored (search attributes aside). */
export type StoredUser = UserRecord & { updatedAt?: string; createdAt?: string };

/** What an update may change: everything but the id and the insert date. */
export type UserChanges = Partial<Omit<UserRecord, 'id' | 'dataInsert'>>;
