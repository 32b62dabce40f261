/**
 * The local user pool (lib/local/user-pool.ts) answers @aws-sdk/client-cognito-identity-provider as Cognito does,
 * and the local sign-in provider puts its groups and attributes into the tokens it signs. Each request, answer and
 * error below follows AWS's own API reference, Amazon Cognito user pools API reference:
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ListUsers.html
 *     (Filter "AttributeName Filter-Type \"AttributeValue\"", = or ^=, one standard attribute at a time, `sub`
 *     among them, "Custom attributes aren't searchable"; Limit at most 60; PaginationToken; UserType)
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminGetUser.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminListGroupsForUser.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminAddUserToGroup.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminRemoveUserFromGroup.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminUpdateUserAttributes.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminDeleteUserAttributes.html
 *   https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/CommonErrors.html
 * (errors: UserNotFoundException, ResourceNotFoundException for a missing group or pool, InvalidParameterException).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserAttributesCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityProvider } from '../../lib/local/idp.ts';
import { LOCAL_USER_POOL_ID } from '../../lib/local/user-pool.ts';
import { freePort } from '../support/ports.ts';
import { authorize, CookieBrowser, exchangeCode } from '../support/sign-in.ts';

let dataDir: string;
let port: number;
let issuer: string;
let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
let cognito: CognitoIdentityProviderClient;
const appUrl = 'http://localhost:39998';
const UserPoolId = LOCAL_USER_POOL_ID;
const giuseppe = 'SpidCie_giuseppe.verdi';

const start = () => startIdentityProvider({ issuer, port, appUrl, dataDir });
/** A new sign-in (a fresh browser): the token carries the user's groups as they are now. */
const freshClaims = async (sub: string) =>
  decodeJwt((await exchangeCode(await authorize({ issuer, appUrl, sub }, new CookieBrowser()))).accessToken);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: Error & { $metadata?: { httpStatusCode?: number } }) => ({
      name: error.name,
      message: error.message,
      status: error.$metadata?.httpStatusCode,
    }),
  );

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'user-pool-test-'));
  port = await freePort();
  issuer = `http://localhost:${port}`;
  idp = await start();
  cognito = new CognitoIdentityProviderClient({
    endpoint: issuer,
    region: 'eu-south-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Federated users are made at their first sign-in.
  await freshClaims('giuseppe.verdi');
  await freshClaims('laura.bianchi');
});

afterAll(async () => {
  cognito?.destroy();
  await idp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('local user pool: ListUsers', () => {
  it('lists the users made by their first sign-in, as federated users', async () => {
    const { Users = [] } = await cognito.send(new ListUsersCommand({ UserPoolId }));
    expect(Users.map((u) => u.Username).sort()).toEqual(['SpidCie_giuseppe.verdi', 'SpidCie_laura.bianchi']);
    const user = Users.find((u) => u.Username === giuseppe)!;
    expect(user).toMatchObject({ Enabled: true, UserStatus: 'EXTERNAL_PROVIDER' });
    expect(user.UserCreateDate).toBeInstanceOf(Date);
    expect(user.Attributes).toEqual(
      expect.arrayContaining([
        { Name: 'sub', Value: 'giuseppe.verdi' },
        { Name: 'custom:fiscal_code', Value: 'VRDGPP90P07F839R' },
      ]),
    );
  });

  it('filters on sub, exactly or by prefix, but refuses a custom attribute and a filter it cannot read', async () => {
    const exact = await cognito.send(new ListUsersCommand({ UserPoolId, Filter: 'sub = "giuseppe.verdi"' }));
    expect(exact.Users?.map((u) => u.Username)).toEqual([giuseppe]);
    const prefix = await cognito.send(new ListUsersCommand({ UserPoolId, Filter: 'sub ^= "laura"' }));
    expect(prefix.Users?.map((u) => u.Username)).toEqual(['SpidCie_laura.bianchi']);
    expect((await cognito.send(new ListUsersCommand({ UserPoolId, Filter: 'sub = "giuseppe"' }))).Users).toEqual([]);

    expect(
      await failure(
        cognito.send(new ListUsersCommand({ UserPoolId, Filter: 'custom:fiscal_code = "VRDGPP90P07F839R"' })),
      ),
    ).toEqual({
      name: 'InvalidParameterException',
      message: 'Invalid search attribute: custom:fiscal_code',
      status: 400,
    });
    expect(await failure(cognito.send(new ListUsersCommand({ UserPoolId, Filter: 'sub giuseppe' })))).toMatchObject({
      name: 'InvalidParameterException',
      message: 'Error while parsing filter.',
    });
  });

  it('answers pages of at most 60 users, with a pagination token', async () => {
    const first = await cognito.send(new ListUsersCommand({ UserPoolId, Limit: 1 }));
    expect(first.Users).toHaveLength(1);
    expect(first.PaginationToken).toBeTruthy();
    const second = await cognito.send(
      new ListUsersCommand({ UserPoolId, Limit: 1, PaginationToken: first.PaginationToken }),
    );
    expect(second.Users).toHaveLength(1);
    expect(second.Users![0].Username).not.toBe(first.Users![0].Username);
    expect(second.PaginationToken).toBeUndefined();
    expect(await failure(cognito.send(new ListUsersCommand({ UserPoolId, Limit: 61 })))).toMatchObject({
      name: 'InvalidParameterException',
    });
  });

  it('refuses another pool and an unsigned request', async () => {
    expect(await failure(cognito.send(new ListUsersCommand({ UserPoolId: 'eu-south-1_Altro' })))).toMatchObject({
      name: 'ResourceNotFoundException',
      status: 400,
    });
    const unsigned = await fetch(issuer, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.ListUsers',
      },
      body: JSON.stringify({ UserPoolId }),
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ __type: 'MissingAuthenticationTokenException' });
  });
});

describe('local user pool: groups and attributes, and the tokens of the next sign-in', () => {
  it('adds a user to a group, lists it, and the next sign-in carries it in cognito:groups', async () => {
    expect(await freshClaims('giuseppe.verdi')).not.toHaveProperty('cognito:groups');
    expect(
      await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: giuseppe, GroupName: 'OPERATOR' })),
    ).toMatchObject({ $metadata: { httpStatusCode: 200 } });
    const { Groups = [] } = await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId, Username: giuseppe }));
    expect(Groups).toEqual([expect.objectContaining({ GroupName: 'OPERATOR', UserPoolId })]);
    expect(Groups[0].CreationDate).toBeInstanceOf(Date);
    expect((await freshClaims('giuseppe.verdi'))['cognito:groups']).toEqual(['OPERATOR']);

    await cognito.send(new AdminRemoveUserFromGroupCommand({ UserPoolId, Username: giuseppe, GroupName: 'OPERATOR' }));
    expect((await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId, Username: giuseppe }))).Groups).toEqual(
      [],
    );
    expect(await freshClaims('giuseppe.verdi')).not.toHaveProperty('cognito:groups');
  });

  it('refuses a group the pool does not have and a user it does not have', async () => {
    expect(
      await failure(
        cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: giuseppe, GroupName: 'ADMIN' })),
      ),
    ).toMatchObject({ name: 'ResourceNotFoundException', message: 'Group not found.' });
    expect(
      await failure(
        cognito.send(
          new AdminAddUserToGroupCommand({ UserPoolId, Username: 'SpidCie_nessuno', GroupName: 'OPERATOR' }),
        ),
      ),
    ).toMatchObject({ name: 'UserNotFoundException', message: 'User does not exist.' });
    expect(
      await failure(cognito.send(new AdminGetUserCommand({ UserPoolId, Username: 'giuseppe.verdi' }))),
    ).toMatchObject({ name: 'UserNotFoundException' });
  });

  it('sets and deletes the working entity; the token of the next sign-in follows (the trigger’s claim)', async () => {
    await cognito.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId,
        Username: giuseppe,
        UserAttributes: [{ Name: 'custom:working_entity', Value: 'ENTE-9' }],
      }),
    );
    const { UserAttributes = [] } = await cognito.send(new AdminGetUserCommand({ UserPoolId, Username: giuseppe }));
    expect(UserAttributes).toContainEqual({ Name: 'custom:working_entity', Value: 'ENTE-9' });
    expect((await freshClaims('giuseppe.verdi')).working_entity_id).toBe('ENTE-9');

    await cognito.send(
      new AdminDeleteUserAttributesCommand({
        UserPoolId,
        Username: giuseppe,
        UserAttributeNames: ['custom:working_entity'],
      }),
    );
    expect(await freshClaims('giuseppe.verdi')).not.toHaveProperty('working_entity_id');

    expect(
      await failure(
        cognito.send(
          new AdminUpdateUserAttributesCommand({
            UserPoolId,
            Username: giuseppe,
            UserAttributes: [{ Name: 'custom:ruolo', Value: 'x' }],
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterException', message: 'Attribute does not exist in the schema.' });
    expect(
      await failure(
        cognito.send(
          new AdminUpdateUserAttributesCommand({
            UserPoolId,
            Username: giuseppe,
            UserAttributes: [{ Name: 'custom:working_entity', Value: 'x'.repeat(129) }],
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterException' });
  });

  it('keeps its users and groups across a restart (<dataDir>/idp/user-pool.json)', async () => {
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: giuseppe, GroupName: 'DELEGATE' }));
    await idp.close();
    idp = await start();
    expect(
      (await cognito.send(new AdminListGroupsForUserCommand({ UserPoolId, Username: giuseppe }))).Groups?.map(
        (g) => g.GroupName,
      ),
    ).toEqual(['DELEGATE']);
    expect((await freshClaims('giuseppe.verdi'))['cognito:groups']).toEqual(['DELEGATE']);
  });
});
