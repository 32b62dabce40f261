import { CfnOutput, Duration, Fn, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import { roles } from '../functions/domain/roles.ts';
import type { PortalContext } from './context.ts';
import { acknowledge } from './nag.ts';
import { PortalFunction } from './portal-function.ts';

export interface AuthStackProps extends StackProps {
  spidGateway: PortalContext['spidGateway'];
  authDomainPrefix?: string;
}

/**
 * Cognito as the portal's OIDC issuer, federating the municipality's SPID/CIE gateway. Stateful (the
 * pool holds the users, their groups and working entities). The web app's client lives in the web
 * stack, which knows the web address its callback URLs need.
 */
export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly domain: cognito.UserPoolDomain;
  readonly spidGateway: cognito.UserPoolIdentityProviderOidc;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, { terminationProtection: true, ...props });

    this.userPool = new cognito.UserPool(this, 'Users', {
      // People are created by their first SPID/CIE sign-in, never by signing up or with a password.
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      accountRecovery: cognito.AccountRecovery.NONE,
      // ESSENTIALS lets the pre-token-generation trigger (V2) add claims to access tokens.
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      standardAttributes: {
        givenName: { required: false, mutable: true },
        familyName: { required: false, mutable: true },
        email: { required: false, mutable: true },
      },
      // Federated attributes are rewritten at every sign-in: they must stay mutable.
      customAttributes: {
        fiscal_code: new cognito.StringAttribute({ minLen: 1, maxLen: 64, mutable: true }),
        working_entity: new cognito.StringAttribute({ minLen: 1, maxLen: 128, mutable: true }),
        // The SPID/CIE level of the last sign-in (the gateway's acr): INPS's audit information carries it.
        loa: new cognito.StringAttribute({ minLen: 1, maxLen: 64, mutable: true }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.userPool, {
      'AwsSolutions-COG2':
        'Nobody signs in with a Cognito password: every sign-in is federated to SPID/CIE, which authenticates at level 2 or higher (two factors) before Cognito issues tokens.',
      'AwsSolutions-COG8':
        "The PLUS plan's threat protection scores username/password sign-ins against the pool; this pool has only federated SPID/CIE sign-ins, so ESSENTIALS (needed for access-token claims) is the right plan.",
    });

    for (const role of roles) {
      this.userPool.addGroup(role, { groupName: role, description: `Ruolo ${role} del portale` });
    }

    const tokenClaims = new PortalFunction(this, 'PreTokenGeneration', {
      entry: 'functions/entry/pre-token-generation.ts',
      serviceName: 'auth',
      description: 'Copies the fiscal code and the working entity into the access token',
      powertools: false,
    });
    this.userPool.addTrigger(
      cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
      tokenClaims,
      cognito.LambdaVersion.V2_0,
    );

    const gateway = props.spidGateway;
    this.spidGateway = new cognito.UserPoolIdentityProviderOidc(this, 'SpidCieGateway', {
      userPool: this.userPool,
      name: gateway.providerName,
      issuerUrl: gateway.issuer,
      clientId: gateway.clientId,
      // A CloudFormation dynamic reference: resolved by CloudFormation at deploy time, the secret
      // itself never appears in the template or in cdk.out.
      clientSecret: SecretValue.secretsManager(gateway.clientSecretName).unsafeUnwrap(),
      scopes: gateway.scopes,
      attributeMapping: {
        givenName: cognito.ProviderAttribute.other('given_name'),
        familyName: cognito.ProviderAttribute.other('family_name'),
        email: cognito.ProviderAttribute.other('email'),
        // SPID sends 'TINIT-<code>'; the API strips the prefix.
        custom: {
          'custom:fiscal_code': cognito.ProviderAttribute.other(gateway.fiscalCodeClaim),
          'custom:loa': cognito.ProviderAttribute.other('acr'),
        },
      },
    });

    // Domain prefixes are global across AWS accounts: without one in context, a prefix unique to this
    // stack (the first block of its id) avoids clashing with another deployment.
    const domainPrefix =
      props.authDomainPrefix ??
      `portale-sociali-${Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', this.stackId))))}`;
    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix } });

    new CfnOutput(this, 'Issuer', { value: this.issuer });
    // USER_POOL_ID of `npm run roles` (README, "After the first deploy").
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    // The redirect URI to register with the SPID/CIE gateway for this client.
    new CfnOutput(this, 'SpidGatewayRedirectUri', { value: `${this.domain.baseUrl()}/oauth2/idpresponse` });
  }

  /** The issuer of the pool's tokens, as the JWT authorizer and the web app's OIDC client see it. */
  get issuer(): string {
    return this.userPool.userPoolProviderUrl;
  }
}

/** Session length of the spec (part 2 §6): 9 hours. */
export const SESSION_LENGTH = Duration.hours(9);
