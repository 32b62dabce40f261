/**
 * Granting and removing the portal's roles (the user pool's groups OPERATOR and DELEGATE, and an operator's
 * working entity) by fiscal code: what `npm run roles` does (bin/roles.ts). In the cloud everyone's first
 * sign-in makes them a citizen, and Cognito cannot search its users by fiscal code (a custom attribute): the
 * person's Cognito users are found through the portal's own records of who signed in (their `sub`), then in the
 * pool by `sub`, the one way ListUsers can. Every change is audited (entity `roles`, the fiscal code).
 */
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { UserPoolAdmin } from '../adapters/ports/users.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import { isValidFiscalCode } from '../domain/fiscal-code.ts';
import { messages } from '../domain/messages.ts';
import { deriveRole, type Actor, type Role } from '../domain/roles.ts';

/** The roles an engineer grants; CITIZEN is not one: everyone who signs in is a citizen. */
export const grantableRoles = ['OPERATOR', 'DELEGATE'] as const;
export type GrantableRole = (typeof grantableRoles)[number];

/** The user attribute that makes an operator by their working entity (lib/auth-stack.ts, at most 128 characters). */
export const WORKING_ENTITY_ATTRIBUTE = 'custom:working_entity';
const WORKING_ENTITY_MAX = 128;

/** What one Cognito user of the person holds, and the role the portal derives from it at their next sign-in. */
export interface AccountRoles {
  username: string;
  groups: string[];
  workingEntity: string | null;
  role: Role;
}

export interface PersonRoles {
  fiscalCode: string;
  /** The name the gateway gave the pool (given and family name), for the engineer to check it is the right person. */
  name: string;
  accounts: AccountRoles[];
}

export interface RoleChange extends PersonRoles {
  before: AccountRoles[];
  changed: boolean;
}

export const roleGrantMessages = {
  fiscalCode: (code: string) =>
    `${messages.payment.fiscalCode} «${code}» non è un codice fiscale valido (forma e carattere di controllo).`,
  citizen:
    'CITIZEN non si concede né si toglie: è cittadino chiunque acceda con SPID o CIE. I ruoli sono OPERATOR e DELEGATE.',
  unknownRole: (role: string) =>
    `Ruolo sconosciuto «${role}»: i ruoli da concedere o togliere sono OPERATOR e DELEGATE.`,
  entityOnlyForOperator: 'L’ente di lavoro (--ente) si indica solo concedendo il ruolo OPERATOR.',
  entityLength: `L’ente di lavoro deve avere da 1 a ${WORKING_ENTITY_MAX} caratteri, senza caratteri di controllo.`,
  neverSignedIn: (code: string) =>
    `Nessun accesso al portale risulta per il codice fiscale ${code}: la persona deve prima accedere una volta con SPID o CIE (entra come cittadino), poi ripeti il comando.`,
  notInPool: (code: string) =>
    `Il portale ha registrato accessi per ${code}, ma il loro utente non è più nel pool Cognito: la persona deve accedere di nuovo con SPID o CIE, poi ripeti il comando.`,
} as const;

/** The fiscal code as typed (spaces and case aside), refused unless the portal's own check accepts it. */
export function fiscalCodeArgument(value: string): string {
  const code = value.replace(/\s+/g, '').toUpperCase();
  if (!isValidFiscalCode(code)) throw new ValidationError(roleGrantMessages.fiscalCode(value));
  return code;
}

export function roleArgument(value: string): GrantableRole {
  const role = value.trim().toUpperCase();
  if (role === 'CITIZEN') throw new ValidationError(roleGrantMessages.citizen);
  const known = grantableRoles.find((r) => r === role);
  if (!known) throw new ValidationError(roleGrantMessages.unknownRole(value));
  return known;
}

export function workingEntityArgument(value: string): string {
  const entity = value.trim();
  // eslint-disable-next-line no-control-regex
  if (entity.length < 1 || entity.length > WORKING_ENTITY_MAX || /[\u0000-\u001f\u007f]/.test(entity)) {
    throw new ValidationError(roleGrantMessages.entityLength);
  }
  return entity;
}

export interface RoleGrantDeps {
  signIns: { subjectsSignedInWith(fiscalCode: string): Promise<string[]> };
  userPool: UserPoolAdmin;
  audit: AuditLog;
  clock: Clock;
}

export function makeRoleGrants({ signIns, userPool, audit, clock }: RoleGrantDeps) {
  /** The usernames of the person's Cognito users: every `sub` the portal saw sign in with the code that the pool still has. */
  async function usernamesOf(fiscalCode: string): Promise<string[]> {
    const subjects = await signIns.subjectsSignedInWith(fiscalCode);
    if (subjects.length === 0) throw new NotFoundError(roleGrantMessages.neverSignedIn(fiscalCode));
    const found = await Promise.all(subjects.map((sub) => userPool.usernameWithSub(sub)));
    const usernames = [...new Set(found.filter((username): username is string => username !== null))].sort();
    if (usernames.length === 0) throw new NotFoundError(roleGrantMessages.notInPool(fiscalCode));
    return usernames;
  }

  async function read(username: string): Promise<AccountRoles & { name: string }> {
    const [attributes, groups] = await Promise.all([userPool.attributesOf(username), userPool.groupsOf(username)]);
    const workingEntity = attributes[WORKING_ENTITY_ATTRIBUTE]?.trim() || null;
    groups.sort();
    const name = `${attributes.given_name ?? ''} ${attributes.family_name ?? ''}`.trim();
    return {
      username,
      groups,
      workingEntity,
      role: deriveRole({ 'cognito:groups': groups, working_entity_id: workingEntity }),
      name,
    };
  }

  async function person(fiscalCode: string, usernames: string[]): Promise<PersonRoles> {
    const accounts = await Promise.all(usernames.map(read));
    return { fiscalCode, name: accounts[0].name, accounts: accounts.map(({ name: _name, ...account }) => account) };
  }

  /** Reads the person's accounts again after `change`, and audits what changed, even when the change failed half-way. */
  async function changing(
    fiscalCode: string,
    actor: Actor,
    change: (before: AccountRoles) => Promise<void>,
  ): Promise<RoleChange> {
    const usernames = await usernamesOf(fiscalCode);
    const before = await person(fiscalCode, usernames);
    let after = before;
    try {
      for (const account of before.accounts) await change(account);
    } finally {
      after = await person(fiscalCode, usernames);
      if (JSON.stringify(after.accounts) !== JSON.stringify(before.accounts)) {
        await audit.record(
          {
            actor,
            entity: 'roles',
            id: fiscalCode,
            action: 'update',
            before: { accounts: before.accounts },
            after: { accounts: after.accounts },
          },
          clock.now(),
        );
      }
    }
    return {
      ...after,
      before: before.accounts,
      changed: JSON.stringify(after.accounts) !== JSON.stringify(before.accounts),
    };
  }

  return {
    async list(fiscalCodeText: string): Promise<PersonRoles> {
      const fiscalCode = fiscalCodeArgument(fiscalCodeText);
      return person(fiscalCode, await usernamesOf(fiscalCode));
    },

    /** Adds the group (and, for an operator, sets the working entity) on each of the person's Cognito users. */
    async grant(
      input: { fiscalCode: string; role: string; workingEntity?: string },
      actor: Actor,
    ): Promise<RoleChange> {
      const fiscalCode = fiscalCodeArgument(input.fiscalCode);
      const role = roleArgument(input.role);
      if (input.workingEntity !== undefined && role !== 'OPERATOR')
        throw new ValidationError(roleGrantMessages.entityOnlyForOperator);
      const workingEntity = input.workingEntity === undefined ? undefined : workingEntityArgument(input.workingEntity);
      return changing(fiscalCode, actor, async (before) => {
        if (!before.groups.includes(role)) await userPool.addToGroup(before.username, role);
        if (workingEntity !== undefined && before.workingEntity !== workingEntity)
          await userPool.setAttribute(before.username, WORKING_ENTITY_ATTRIBUTE, workingEntity);
      });
    },

    /**
     * Takes the group away from each of the person's Cognito users; taking OPERATOR also deletes the working
     * entity, which would otherwise keep them an operator (domain/roles.ts deriveRole).
     */
    async revoke(
      input: { fiscalCode: string; role: string; workingEntity?: string },
      actor: Actor,
    ): Promise<RoleChange> {
      const fiscalCode = fiscalCodeArgument(input.fiscalCode);
      const role = roleArgument(input.role);
      if (input.workingEntity !== undefined) throw new ValidationError(roleGrantMessages.entityOnlyForOperator);
      return changing(fiscalCode, actor, async (before) => {
        if (before.groups.includes(role)) await userPool.removeFromGroup(before.username, role);
        if (role === 'OPERATOR' && before.workingEntity !== null)
          await userPool.deleteAttribute(before.username, WORKING_ENTITY_ATTRIBUTE);
      });
    },
  };
}
