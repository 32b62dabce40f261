import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { actorFromClaims } from '../../functions/domain/roles.ts';
import { accessTokenClaims, handler } from '../../functions/entry/pre-token-generation.ts';

const event = (userAttributes: Record<string, string>, groups: string[] = []): PreTokenGenerationV2TriggerEvent => ({
  version: '2',
  triggerSource: 'TokenGeneration_HostedAuth',
  region: 'eu-south-1',
  userPoolId: 'eu-south-1_test',
  userName: 'SpidCie_abc',
  callerContext: { awsSdkVersion: '3', clientId: 'web-client' },
  request: { userAttributes, groupConfiguration: { groupsToOverride: groups }, scopes: ['openid'] },
  response: { claimsAndScopeOverrideDetails: {} },
});

describe('pre-token-generation trigger', () => {
  it("puts a SPID citizen's fiscal code and names in the access token", async () => {
    const result = await handler(
      event({
        sub: 's-1',
        'custom:fiscal_code': 'TINIT-RSSMRA80A01H501U',
        given_name: 'Mario',
        family_name: 'Rossi',
        email: 'mario@example.it',
      }),
    );
    expect(result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride).toEqual({
      fiscal_code: 'TINIT-RSSMRA80A01H501U',
      given_name: 'Mario',
      family_name: 'Rossi',
      email: 'mario@example.it',
    });
  });

  it("adds an operator's working entity, which makes the API see an operator", async () => {
    const result = await handler(
      event({ sub: 's-2', 'custom:fiscal_code': 'TINIT-VRDLGI70B02F205X', 'custom:working_entity': 'ente-42' }),
    );
    const claims = result.response.claimsAndScopeOverrideDetails.accessTokenGeneration!.claimsToAddOrOverride!;
    expect(claims.working_entity_id).toBe('ente-42');
    // The API's own reading of the token (role, fiscal code without the SPID prefix).
    const actor = actorFromClaims({ sub: 's-2', ...claims });
    expect(actor.role).toBe('OPERATOR');
    expect(actor.fiscalCode).toBe('VRDLGI70B02F205X');
  });

  it('adds nothing for attributes that are missing or blank', () => {
    expect(accessTokenClaims({ sub: 's-3', 'custom:working_entity': '  ', email: '' })).toEqual({});
  });

  it('leaves other overrides in place (groups stay as Cognito put them)', async () => {
    const input = event({ 'custom:fiscal_code': 'TINIT-X' }, ['DELEGATE']);
    input.response.claimsAndScopeOverrideDetails = {
      idTokenGeneration: { claimsToAddOrOverride: { locale: 'it' } },
      accessTokenGeneration: { claimsToAddOrOverride: { extra: 'kept' }, scopesToAdd: ['x'] },
    };
    const result = await handler(input);
    expect(result.response.claimsAndScopeOverrideDetails).toEqual({
      idTokenGeneration: { claimsToAddOrOverride: { locale: 'it' } },
      accessTokenGeneration: { claimsToAddOrOverride: { extra: 'kept', fiscal_code: 'TINIT-X' }, scopesToAdd: ['x'] },
    });
    expect(result.request.groupConfiguration.groupsToOverride).toEqual(['DELEGATE']);
  });
});
