/**
 * The local stand-in for the Cognito user pool: its users, their groups and attributes, and the admin operations
 * the roles command (bin/roles.ts) sends with @aws-sdk/client-cognito-identity-provider — ListUsers, AdminGetUser,
 * AdminListGroupsForUser, AdminAddUserToGroup, AdminRemoveUserFromGroup, AdminUpdateUserAttributes and
 * AdminDeleteUserAttributes — over Cognito's own protocol (JSON 1.1: POST /, `X-Amz-Target:
 * AWSCognitoIdentityProviderService.<operation>`). The local sign-in provider serves it on its own address, as
 * Cognito serves its API on the host of its issuer (lib/local/idp.ts), and puts each user's groups and attributes
 * into the tokens it signs, as the user pool and its pre-token-generation trigger do.
 *
 * As in the cloud, a user is made at their first sign-in (a federated user, username `<provider>_<subject>`,
 * status EXTERNAL_PROVIDER); the test identity's `groups` and working entity are what an engineer gave them
 * earlier. Unlike the cloud, the user's `sub` is the test identity's own (the tokens' `sub`), not a new UUID.
 * Kept in <dataDir>/idp/user-pool.json.
 *
 * Requests, answers and errors follow AWS's API reference (Amazon Cognito user pools API reference, pages
 * API_ListUsers, API_AdminGetUser, API_AdminListGroupsForUser, API_AdminAddUserToGroup, API_AdminRemoveUserFromGroup,
 * API_AdminUpdateUserAttributes, API_AdminDeleteUserAttributes, CommonErrors): ListUsers filters on one standard
 * attribute at a time, never a custom one (`Custom attributes aren't searchable`), and answers at most 60 users a page.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { roles } from '../../functions/domain/roles.ts';
import type { TestIdentity } from './identities.ts';

/** The pool id the local stack answers to (the shape of a real one: `<region>_<letters and digits>`). */
export const LOCAL_USER_POOL_ID = 'eu-south-1_PortaleLocale';
/** The SPID/CIE gateway's name in the pool (the default of the context value spidGatewayProviderName). */
export const LOCAL_PROVIDER_NAME = 'SpidCie';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const LIST_USERS_MAX = 60;
/** The standard attributes ListUsers can filter on (API_ListUsers, Filter). */
const SEARCHABLE = new Set([
  'username',
  'email',
  'phone_number',
  'name',
  'given_name',
  'family_name',
  'preferred_username',
  'cognito:user_status',
  'status',
  'sub',
]);
/** The pool's schema (lib/auth-stack.ts): the standard attributes it uses and its two custom ones, with their maximum length. */
const SCHEMA: Record<string, number> = {
  sub: 2048,
  given_name: 2048,
  family_name: 2048,
  name: 2048,
  email: 2048,
  email_verified: 2048,
  'custom:fiscal_code': 64,
  'custom:working_entity': 128,
};
const IMMUTABLE = new Set(['sub']);

export interface PoolUser {
  username: string;
  attributes: Record<string, string>;
  groups: string[];
  createdAt: string;
  modifiedAt: string;
}

interface PoolState {
  users: PoolUser[];
  /** When each group was created (the groups are the portal's roles, as the auth stack creates them). */
  groupsCreatedAt: string;
}

class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export class LocalUserPool {
  private constructor(
    private readonly file: string,
    private readonly state: PoolState,
  ) {}

  static open(dataDir: string): LocalUserPool {
    const file = path.join(dataDir, 'idp', 'user-pool.json');
    let state: PoolState;
    try {
      state = JSON.parse(fs.readFileSync(file, 'utf8')) as PoolState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      state = { users: [], groupsCreatedAt: new Date().toISOString() };
    }
    return new LocalUserPool(file, state);
  }

  /** The user a sign-in of this identity stands for: made at the first one, as Cognito makes a federated user. */
  userSigningIn(identity: TestIdentity): PoolUser {
    const username = `${LOCAL_PROVIDER_NAME}_${identity.sub}`;
    const existing = this.state.users.find((user) => user.username === username);
    if (existing) return existing;
    const now = new Date().toISOString();
    const user: PoolUser = {
      username,
      attributes: {
        sub: identity.sub,
        given_name: identity.givenName,
        family_name: identity.familyName,
        email: identity.email,
        'custom:fiscal_code': identity.fiscalCode,
        ...(identity.workingEntityId ? { 'custom:working_entity': identity.workingEntityId } : {}),
      },
      groups: [...identity.groups],
      createdAt: now,
      modifiedAt: now,
    };
    this.state.users.push(user);
    this.save();
    return user;
  }

  /** Answers one request of Cognito's API: POST / with the operation in X-Amz-Target. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const operation = text(req.headers['x-amz-target']).slice(TARGET_PREFIX.length);
    let body = '';
    for await (const chunk of req) body += chunk;
    try {
      // Every admin operation needs IAM credentials: the SDK signs with SigV4 (the signature itself is not checked here).
      if (!text(req.headers.authorization).startsWith('AWS4-HMAC-SHA256 ')) {
        throw new CognitoError('MissingAuthenticationTokenException', 'Missing Authentication Token');
      }
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body || '{}');
      } catch {
        throw new CognitoError('SerializationException', 'Start of structure or map found where not expected.');
      }
      const answer = this.operate(operation, input);
      send(res, 200, answer);
    } catch (error) {
      if (!(error instanceof CognitoError)) throw error;
      send(res, 400, { __type: error.type, message: error.message }, error.type);
    }
  }

  private operate(operation: string, input: Record<string, unknown>): Record<string, unknown> {
    if (text(input.UserPoolId) !== LOCAL_USER_POOL_ID) {
      throw new CognitoError('ResourceNotFoundException', `User pool ${text(input.UserPoolId)} does not exist.`);
    }
    switch (operation) {
      case 'ListUsers':
        return this.listUsers(input);
      case 'AdminGetUser': {
        const { Attributes, ...user } = userType(this.user(input.Username));
        return { ...user, UserAttributes: Attributes };
      }
      case 'AdminListGroupsForUser': {
        const user = this.user(input.Username);
        return { Groups: user.groups.map((group) => this.groupType(group)) };
      }
      case 'AdminAddUserToGroup': {
        const user = this.user(input.Username);
        const group = this.group(input.GroupName);
        if (!user.groups.includes(group)) this.change(user, () => user.groups.push(group));
        return {};
      }
      case 'AdminRemoveUserFromGroup': {
        const user = this.user(input.Username);
        const group = this.group(input.GroupName);
        if (user.groups.includes(group)) this.change(user, () => user.groups.splice(user.groups.indexOf(group), 1));
        return {};
      }
      case 'AdminUpdateUserAttributes': {
        const user = this.user(input.Username);
        const attributes = Array.isArray(input.UserAttributes)
          ? (input.UserAttributes as { Name?: unknown; Value?: unknown }[])
          : [];
        for (const { Name, Value } of attributes) {
          const name = this.attribute(Name);
          if (IMMUTABLE.has(name))
            throw new CognitoError('InvalidParameterException', `Cannot modify an immutable attribute: ${name}`);
          if (text(Value).length > SCHEMA[name])
            throw new CognitoError(
              'InvalidParameterException',
              `String attributes cannot have a length of more than ${SCHEMA[name]}`,
            );
        }
        this.change(user, () => {
          for (const { Name, Value } of attributes) user.attributes[text(Name)] = text(Value);
        });
        return {};
      }
      case 'AdminDeleteUserAttributes': {
        const user = this.user(input.Username);
        const names = Array.isArray(input.UserAttributeNames)
          ? input.UserAttributeNames.map((name) => this.attribute(name))
          : [];
        this.change(user, () => {
          for (const name of names) delete user.attributes[name];
        });
        return {};
      }
      default:
        throw new CognitoError(
          'UnknownOperationException',
          `The local user pool does not implement ${operation || 'this operation'}.`,
        );
    }
  }

  /** ListUsers: an optional filter on one standard attribute ("name = \"value\"" or "name ^= \"value\""), pages of at most 60. */
  private listUsers(input: Record<string, unknown>) {
    const limit = input.Limit === undefined ? LIST_USERS_MAX : Number(input.Limit);
    if (!Number.isInteger(limit) || limit < 0 || limit > LIST_USERS_MAX) {
      throw new CognitoError(
        'InvalidParameterException',
        `1 validation error detected: Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value less than or equal to ${LIST_USERS_MAX}`,
      );
    }
    const matches = userFilter(text(input.Filter));
    const users = this.state.users.filter(matches);
    const start =
      input.PaginationToken === undefined
        ? 0
        : Number(Buffer.from(text(input.PaginationToken), 'base64url').toString('utf8'));
    if (!Number.isInteger(start) || start < 0 || start > users.length)
      throw new CognitoError('InvalidParameterException', 'Invalid pagination token.');
    const page = users.slice(start, start + limit);
    const wanted = Array.isArray(input.AttributesToGet) ? new Set(input.AttributesToGet.map(String)) : null;
    return {
      Users: page.map((user) => userType(user, wanted)),
      ...(start + limit < users.length
        ? { PaginationToken: Buffer.from(String(start + limit)).toString('base64url') }
        : {}),
    };
  }

  private user(username: unknown): PoolUser {
    const user = this.state.users.find((u) => u.username === text(username));
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    return user;
  }

  private group(name: unknown): string {
    const group = roles.find((role) => role === text(name));
    if (!group) throw new CognitoError('ResourceNotFoundException', 'Group not found.');
    return group;
  }

  private attribute(name: unknown): string {
    const attribute = text(name);
    if (!(attribute in SCHEMA))
      throw new CognitoError('InvalidParameterException', `Attribute does not exist in the schema.`);
    return attribute;
  }

  private groupType(group: string) {
    return {
      GroupName: group,
      UserPoolId: LOCAL_USER_POOL_ID,
      Description: `Ruolo ${group} del portale`,
      CreationDate: seconds(this.state.groupsCreatedAt),
      LastModifiedDate: seconds(this.state.groupsCreatedAt),
    };
  }

  private change(user: PoolUser, apply: () => void) {
    apply();
    user.modifiedAt = new Date().toISOString();
    this.save();
  }

  private save() {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${randomUUID()}`;
    fs.writeFileSync(temporary, JSON.stringify(this.state, null, 2));
    fs.renameSync(temporary, this.file);
  }
}

/** A user as Cognito answers one (UserType); a federated user's status is EXTERNAL_PROVIDER. */
function userType(user: PoolUser, wanted: Set<string> | null = null) {
  return {
    Username: user.username,
    Attributes: Object.entries(user.attributes)
      .filter(([name]) => !wanted || wanted.has(name))
      .map(([Name, Value]) => ({ Name, Value })),
    UserCreateDate: seconds(user.createdAt),
    UserLastModifiedDate: seconds(user.modifiedAt),
    Enabled: true,
    UserStatus: 'EXTERNAL_PROVIDER',
  };
}

/** Whether a request is for Cognito's API (the rest of the provider's address is OpenID Connect). */
export const isCognitoRequest = (req: http.IncomingMessage) =>
  req.method === 'POST' && text(req.headers['x-amz-target']).startsWith(TARGET_PREFIX);

/** The users a ListUsers filter keeps; a filter on a custom or unknown attribute is refused, as Cognito does. */
function userFilter(filter: string): (user: PoolUser) => boolean {
  if (filter.trim() === '') return () => true;
  const parsed = /^\s*"?([\w:]+)"?\s*(\^?=)\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(filter);
  if (!parsed) throw new CognitoError('InvalidParameterException', 'Error while parsing filter.');
  const [, name, operator, quoted] = parsed;
  if (!SEARCHABLE.has(name)) throw new CognitoError('InvalidParameterException', `Invalid search attribute: ${name}`);
  const wanted = quoted.replace(/\\(.)/g, '$1');
  const caseless = name === 'cognito:user_status';
  const valueOf = (user: PoolUser) =>
    name === 'username'
      ? user.username
      : name === 'cognito:user_status'
        ? 'EXTERNAL_PROVIDER'
        : name === 'status'
          ? 'Enabled'
          : user.attributes[name];
  return (user) => {
    let value = valueOf(user);
    if (value === undefined) return false;
    let target = wanted;
    if (caseless) [value, target] = [value.toLowerCase(), target.toLowerCase()];
    return operator === '=' ? value === target : value.startsWith(target);
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, errorType?: string) {
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(JSON.stringify(body));
}
