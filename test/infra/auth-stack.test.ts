import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../functions/domain/roles.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

const context = {
  spidGatewayIssuer: 'https://login.comune.example.it/oidc',
  spidGatewayClientId: 'portale-test',
  spidGatewayClientSecretName: 'portale/test-secret',
  spidGatewayFiscalCodeClaim: 'https://attributes.eid.gov.it/fiscal_number',
  authDomainPrefix: 'portale-sociali-test',
};

let portal: ScratchApp;
let auth: Template;
let web: Template;

beforeAll(() => {
  portal = scratchApp({ bundle: false, context });
  auth = Template.fromStack(portal.auth);
  web = Template.fromStack(portal.web);
});
afterAll(() => portal.dispose());

describe('auth stack', () => {
  it('has a user pool nobody can sign up to, kept when the stack goes', () => {
    expect(portal.auth.terminationProtection).toBe(true);
    auth.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        DeletionProtection: 'ACTIVE',
        UserPoolTier: 'ESSENTIALS',
      }),
    });
  });

  it('keeps the fiscal code and the working entity as custom attributes', () => {
    const [pool] = Object.values(auth.findResources('AWS::Cognito::UserPool'));
    const schema = pool.Properties.Schema as { Name: string; Mutable: boolean }[];
    expect(schema).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Name: 'fiscal_code', AttributeDataType: 'String', Mutable: true }),
        expect.objectContaining({ Name: 'working_entity', AttributeDataType: 'String', Mutable: true }),
        expect.objectContaining({ Name: 'given_name' }),
        expect.objectContaining({ Name: 'family_name' }),
        expect.objectContaining({ Name: 'email' }),
      ]),
    );
  });

  it('gives the user pool id as an output, for npm run roles (USER_POOL_ID)', () => {
    const [poolId] = Object.keys(auth.findResources('AWS::Cognito::UserPool'));
    auth.hasOutput('UserPoolId', { Value: { Ref: poolId } });
  });

  it('has one group per role of the portal', () => {
    const groups = Object.values(auth.findResources('AWS::Cognito::UserPoolGroup')).map((g) => g.Properties.GroupName);
    expect(groups.sort()).toEqual([...roles].sort());
    expect(groups.sort()).toEqual(['CITIZEN', 'DELEGATE', 'OPERATOR']);
  });

  it('federates the SPID/CIE gateway named in context, mapping its fiscal code claim', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderType: 'OIDC',
      ProviderName: 'SpidCie',
      ProviderDetails: Match.objectLike({
        oidc_issuer: context.spidGatewayIssuer,
        client_id: context.spidGatewayClientId,
        // Resolved by CloudFormation from Secrets Manager: the secret is never in the template.
        client_secret: '{{resolve:secretsmanager:portale/test-secret:SecretString:::}}',
      }),
      AttributeMapping: Match.objectLike({
        'custom:fiscal_code': context.spidGatewayFiscalCodeClaim,
        given_name: 'given_name',
        family_name: 'family_name',
        email: 'email',
      }),
    });
  });

  it('calls the pre-token-generation trigger (V2, which can change access tokens)', () => {
    const [fnId] = Object.keys(auth.findResources('AWS::Lambda::Function'));
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [fnId, 'Arn'] }, LambdaVersion: 'V2_0' } },
    });
    auth.hasResourceProperties('AWS::Lambda::Function', { Runtime: 'nodejs22.x', Architectures: ['arm64'] });
  });

  it('has the Cognito domain from context', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'portale-sociali-test' });
  });
});

describe("the web app's client (in the web stack, see WebStack)", () => {
  it('is public: no secret, authorization code only, the OIDC scopes, the SPID/CIE provider only', () => {
    web.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    web.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'profile', 'email'],
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
    });
    // The provider is referenced (not spelt out), so the client is created after it.
    const [client] = Object.values(web.findResources('AWS::Cognito::UserPoolClient'));
    expect(client.Properties.SupportedIdentityProviders).toHaveLength(1);
    expect(JSON.stringify(client.Properties.SupportedIdentityProviders)).toMatch(/SpidCieGateway/);
  });

  it('issues tokens for the 9-hour session', () => {
    web.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AccessTokenValidity: 540,
      IdTokenValidity: 540,
      RefreshTokenValidity: 540,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
    });
  });

  it('cannot write the working entity, which only administrators set', () => {
    const [client] = Object.values(web.findResources('AWS::Cognito::UserPoolClient'));
    expect(client.Properties.WriteAttributes).toContain('custom:fiscal_code');
    expect(client.Properties.WriteAttributes).not.toContain('custom:working_entity');
  });
});
