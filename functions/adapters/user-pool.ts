/**
 * The Cognito user pool's admin operations, for the roles command (bin/roles.ts): no Lambda uses them. The
 * same code runs against the local stand-in (lib/local/user-pool.ts) when COGNITO_ENDPOINT is set, as the
 * DynamoDB, S3, SES and Step Functions clients do with their endpoints.
 */
import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserAttributesCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  paginateAdminListGroupsForUser,
} from '@aws-sdk/client-cognito-identity-provider';
import type { UserPoolAdmin } from './ports/users.ts';

/** A ListUsers filter value: quotation marks and backslashes escaped with a backslash (API_ListUsers, Filter). */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

export function cognitoUserPool(
  UserPoolId: string,
  client = new CognitoIdentityProviderClient({ endpoint: process.env.COGNITO_ENDPOINT || undefined }),
): UserPoolAdmin {
  return {
    async usernameWithSub(sub) {
      // `sub` is one of the standard attributes ListUsers can filter on; the fiscal code, a custom one, is not.
      const { Users = [] } = await client.send(
        new ListUsersCommand({ UserPoolId, Filter: `sub = ${quoted(sub)}`, Limit: 1 }),
      );
      return Users[0]?.Username ?? null;
    },
    async attributesOf(Username) {
      const { UserAttributes = [] } = await client.send(new AdminGetUserCommand({ UserPoolId, Username }));
      return Object.fromEntries(UserAttributes.map(({ Name, Value }) => [Name ?? '', Value ?? '']));
    },
    async groupsOf(Username) {
      const groups: string[] = [];
      for await (const page of paginateAdminListGroupsForUser({ client }, { UserPoolId, Username })) {
        for (const group of page.Groups ?? []) if (group.GroupName) groups.push(group.GroupName);
      }
      return groups;
    },
    async addToGroup(Username, GroupName) {
      await client.send(new AdminAddUserToGroupCommand({ UserPoolId, Username, GroupName }));
    },
    async removeFromGroup(Username, GroupName) {
      await client.send(new AdminRemoveUserFromGroupCommand({ UserPoolId, Username, GroupName }));
    },
    async setAttribute(Username, Name, Value) {
      await client.send(
        new AdminUpdateUserAttributesCommand({ UserPoolId, Username, UserAttributes: [{ Name, Value }] }),
      );
    },
    async deleteAttribute(Username, name) {
      await client.send(new AdminDeleteUserAttributesCommand({ UserPoolId, Username, UserAttributeNames: [name] }));
    },
  };
}
