import * as z from 'zod/mini';
import { messages } from './messages.ts';
import { userStates } from './user-rules.ts';

/**
 * Users (citizens) as the operators manage them and as a citizen keeps their own profile
 * (spec part 1 §2 'lista_utenti', part 2 §2.13, §3 and §5): the API's payloads.
 */

// Their rules, without zod (user-rules.ts), for the importers of this module.
export {
  userMessages,
  userStates,
  type UserState,
  municipi,
  DEFAULT_NATION,
  EMAIL_PATTERN,
  PHONE_PATTERN,
  isValidEmail,
  isValidPhone,
  normaliseSearchText,
  interleaveNames,
  normaliseEmail,
  normalisePhone,
  profileRequiredFields,
  missingProfileFields,
  statusToggle,
  municipioName,
  userStateAfterIsee,
  userStateAfterToggle,
  type LastIsee,
  type LinkedData,
  hasLinkedData,
  assertUserDeletable,
  toUser,
} from './user-rules.ts';

/** The operator's status toggle: 'SOSPENDI' suspends, 'ABILITA' re-enables. */
export const userStatusSchema = z.object({ suspended: z.boolean({ error: messages.required }) });

/** The newest ISEE as the users list shows it. */
export const lastIseeSchema = z.object({
  id: z.string(),
  value: z.number(),
  year: z.number(),
  state: z.string(),
  hasFile: z.boolean(),
});

export const userSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fiscalCode: z.string(),
  birthDate: z.nullable(z.string()),
  email: z.nullable(z.string()),
  emailPec: z.nullable(z.string()),
  phoneNumber: z.nullable(z.string()),
  address: z.nullable(z.string()),
  addressNumber: z.nullable(z.string()),
  cap: z.nullable(z.string()),
  city: z.nullable(z.string()),
  country: z.nullable(z.string()),
  nation: z.nullable(z.string()),
  municipioId: z.nullable(z.string()),
  municipio: z.nullable(z.string()),
  state: z.enum(userStates),
  dataInsert: z.string(),
  lastIsee: z.nullable(lastIseeSchema),
  /** False while the citizen's profile misses a field the 'Profile' rules require. */
  profileComplete: z.boolean(),
  /** The user has ISEE (or other linked data): the delete button is disabled. */
  hasLinkedData: z.boolean(),
});
export type User = z.output<typeof userSchema>;

/** Filters of /lista_utenti, mirrored in the query parameters (part 1 §2). */
export const userSearchSchema = z.object({
  firstName: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  lastName: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  fiscalCode: z.optional(z.string().check(z.trim(), z.maxLength(16))),
  email: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  phoneNumber: z.optional(z.string().check(z.trim(), z.maxLength(20))),
  loaded: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((value) => value === 'true'),
  ),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100))),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});
export type UserSearch = z.output<typeof userSearchSchema>;

export const countSchema = z.object({ count: z.number() });
