import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '../../web/src/lib/runtime-config.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';
import { spaRewriteCode } from '../../lib/spa-rewrite.ts';

// CloudFront's managed policies (AWS documentation, "Use managed cache/origin request policies").
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let portal: ScratchApp;
let web: Template;

beforeAll(() => {
  portal = sharedPortal({ bundle: false });
  web = Template.fromStack(portal.web);
});
afterAll(() => portal.dispose());

const only = (type: string) => {
  const found = Object.entries(web.findResources(type));
  expect(found, type).toHaveLength(1);
  const [[id, resource]] = found;
  return { id, ...resource.Properties } as Record<string, any> & { id: string };
};
const distributionConfig = () => only('AWS::CloudFront::Distribution').DistributionConfig;
const csp = (): string => {
  const value = only('AWS::CloudFront::ResponseHeadersPolicy').ResponseHeadersPolicyConfig.SecurityHeadersConfig
    .ContentSecurityPolicy.ContentSecurityPolicy;
  // Tokens (the Cognito domain) are joined in by CloudFormation: keep the literal parts.
  return typeof value === 'string'
    ? value
    : value['Fn::Join'][1].map((p: unknown) => (typeof p === 'string' ? p : '<token>')).join('');
};

const deployments = () => Object.values(web.findResources('Custom::CDKBucketDeployment')).map((r) => r.Properties);
/** The deployment of index.html, config.json and the other files not named by their content. */
const siteDeployment = () => {
  const found = deployments().filter((d) =>
    (d.SourceMarkers ?? []).some((markers: object) => Object.keys(markers).length > 0),
  );
  expect(found).toHaveLength(1);
  return found[0];
};

/** config.json as deployed: its markers replaced by the CloudFormation expressions they stand for. */
function deployedConfig(): Record<keyof RuntimeConfig, unknown> {
  const deployment = siteDeployment();
  const index = deployment.SourceMarkers.findIndex((markers: object) => Object.keys(markers).length > 0);
  const hash = String(deployment.SourceObjectKeys[index]).replace(/\.zip$/, '');
  const raw = JSON.parse(readFileSync(path.join(portal.app.outdir, `asset.${hash}`, 'config.json'), 'utf8'));
  const markers: Record<string, unknown> = deployment.SourceMarkers[index];
  const expand = (value: string): unknown => (value in markers ? markers[value] : value);
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, expand(String(value))])) as never;
}

describe('web stack: the site', () => {
  it('caches the content-named assets for a year and keeps old ones; index.html and config.json are revalidated on every visit', () => {
    const site = siteDeployment();
    expect(site.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(site.Exclude).toEqual(['assets/*']);
    expect(site.Prune).not.toBe(false);
    const assets = deployments().filter((d) => d !== site);
    expect(assets).toHaveLength(1);
    expect(assets[0]).toMatchObject({ Exclude: ['*'], Include: ['assets/*'], Prune: false });
    expect(assets[0].SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('reads the site from a private bucket through origin access control only', () => {
    const [siteOrigin] = distributionConfig().Origins;
    expect(siteOrigin.OriginAccessControlId).toBeDefined();
    expect(siteOrigin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    web.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
          }),
        ]),
      },
    });
  });

  it('serves index.html for the app routes, without turning errors into the app page', () => {
    const config = distributionConfig();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: { 'Fn::GetAtt': [only('AWS::CloudFront::Function').id, 'FunctionARN'] },
      },
    ]);
    web.hasResourceProperties('AWS::CloudFront::Function', { FunctionCode: spaRewriteCode });
  });

  it('rewrites an extension-less path to /index.html and leaves files alone', () => {
    const handler = new Function(`${spaRewriteCode}; return handler;`)() as (e: { request: { uri: string } }) => {
      uri: string;
    };
    const uriFor = (uri: string) => handler({ request: { uri } }).uri;
    expect(uriFor('/')).toBe('/index.html');
    expect(uriFor('/iscrizioni')).toBe('/index.html');
    expect(uriFor('/bandi/42/modifica')).toBe('/index.html');
    expect(uriFor('/auth/callback')).toBe('/index.html');
    expect(uriFor('/assets/index-1a2b3c.js')).toBe('/assets/index-1a2b3c.js');
    expect(uriFor('/config.json')).toBe('/config.json');
  });

  it('sends security headers with a strict Content-Security-Policy', () => {
    const policy = csp();
    expect(policy).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(policy).toMatch(/(^|; )object-src 'none'(;|$)/);
    expect(policy).toContain(
      "connect-src 'self' https://<token>.auth.eu-south-1.amazoncognito.com https://cognito-idp.eu-south-1.amazonaws.com",
    );
    expect(policy).toContain("form-action 'self' https://<token>.auth.eu-south-1.amazoncognito.com");
    web.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 63072000, Override: true }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
        }),
      },
    });
    const behaviours = [distributionConfig().DefaultCacheBehavior, ...distributionConfig().CacheBehaviors];
    for (const behaviour of behaviours)
      expect(behaviour.ResponseHeadersPolicyId).toEqual({ Ref: only('AWS::CloudFront::ResponseHeadersPolicy').id });
  });

  it('logs requests to a bucket of its own', () => {
    expect(distributionConfig().Logging).toEqual({ Bucket: expect.anything(), Prefix: 'cloudfront/' });
  });
});

describe('web stack: the API behind the same domain', () => {
  it('routes /api/* to the HTTP API, uncached, with every method and the viewer headers but Host', () => {
    const config = distributionConfig();
    const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']),
    });
    expect(api.FunctionAssociations).toBeUndefined();
    const origin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(origin.DomainName).toEqual({
      'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [only('AWS::ApiGatewayV2::Api').id, 'ApiEndpoint'] }] }],
    });
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
  });

  it('sends the API the origin-verify header, its value resolved from Secrets Manager at deploy (not in the template)', () => {
    const config = distributionConfig();
    const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    const origin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    const secret = only('AWS::SecretsManager::Secret');
    expect(secret.GenerateSecretString).toMatchObject({ GenerateStringKey: 'current', PasswordLength: 48 });
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: 'x-origin-verify',
        HeaderValue: {
          'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secret.id }, ':SecretString:current::}}']],
        },
      },
    ]);
    // The site's own origin (the bucket) gets no such header.
    const site = config.Origins.find((o: { Id: string }) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
    expect(site.OriginCustomHeaders).toBeUndefined();
  });

  it('leaves the execute-api address on without an API domain (a development copy): CloudFront goes there', () => {
    expect(only('AWS::ApiGatewayV2::Api').DisableExecuteApiEndpoint).toBeFalsy();
    expect(web.findResources('AWS::ApiGatewayV2::DomainName')).toEqual({});
  });

  it('logs every API request and throttles the stage', () => {
    const accessLogs = Object.keys(web.findResources('AWS::Logs::LogGroup')).find((id) =>
      id.startsWith('ApiAccessLogs'),
    );
    web.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [accessLogs, 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context.requestId'),
      },
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
    });
  });

  it('accepts tokens of the user pool for the web app client only (JWT authorizer)', () => {
    const authorizer = only('AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.AuthorizerType).toBe('JWT');
    expect(authorizer.IdentitySource).toEqual(['$request.header.Authorization']);
    expect(authorizer.JwtConfiguration.Audience).toEqual([{ Ref: only('AWS::Cognito::UserPoolClient').id }]);
    expect(JSON.stringify(authorizer.JwtConfiguration.Issuer)).toMatch(/PortaleAuth.*ProviderURL/);
  });
});

describe('web stack: config.json and sign-in addresses', () => {
  it('tells the web app to call the API on its own origin, with the issuer and client the API trusts', () => {
    const config = deployedConfig();
    const authorizer = only('AWS::ApiGatewayV2::Authorizer');
    expect(config.apiBaseUrl).toBe('');
    expect(config.scope).toBe('openid profile email');
    expect(config.issuer).toEqual(authorizer.JwtConfiguration.Issuer);
    expect(config.clientId).toEqual(authorizer.JwtConfiguration.Audience[0]);
    expect(config.resource).toBeUndefined();
  });

  it('gives the app Cognito’s /logout (it adds client_id and logout_uri) and the gateway’s name for identity_provider', () => {
    const config = deployedConfig();
    // The Cognito domain (its prefix a CloudFormation value), path /logout and nothing else: the app adds the query.
    expect(config.logoutEndpoint).toMatch(/^https:\/\/[^/?]+\.auth\.eu-south-1\.amazoncognito\.com\/logout$/);
    expect(config.identityProvider).toBe('SpidCie');
    expect(config).not.toHaveProperty('signOutUrl');
    const idp = Template.fromStack(portal.auth).findResources('AWS::Cognito::UserPoolIdentityProvider');
    expect(Object.values(idp).map((r) => r.Properties.ProviderName)).toEqual(['SpidCie']);
  });

  it("registers the CloudFront domain as the client's callback and logout address when there is no custom domain", () => {
    const client = only('AWS::Cognito::UserPoolClient');
    const domain = { 'Fn::GetAtt': [only('AWS::CloudFront::Distribution').id, 'DomainName'] };
    expect(client.CallbackURLs).toEqual([{ 'Fn::Join': ['', ['https://', domain, '/auth/callback']] }]);
    expect(client.LogoutURLs).toEqual([{ 'Fn::Join': ['', ['https://', domain, '/']] }]);
  });
});

describe('web stack with a custom domain', () => {
  let custom: ScratchApp;
  let template: Template;
  beforeAll(() => {
    custom = scratchApp({
      bundle: false,
      context: {
        webDomainName: 'servizisociali.comune.example.it',
        certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
      },
    });
    template = Template.fromStack(custom.web);
  });
  afterAll(() => custom.dispose());

  it('serves the domain with its certificate and TLS 1.2 at least', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['servizisociali.comune.example.it'],
        ViewerCertificate: {
          AcmCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc',
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
      }),
    });
  });

  it('gives the distribution’s domain, where the council’s DNS points the portal’s domain (checked by the preflight)', () => {
    const [distributionId] = Object.keys(template.findResources('AWS::CloudFront::Distribution'));
    template.hasOutput('DistributionDomainName', { Value: { 'Fn::GetAtt': [distributionId, 'DomainName'] } });
  });

  it('sends Cognito back to the custom domain', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      CallbackURLs: ['https://servizisociali.comune.example.it/auth/callback'],
      LogoutURLs: ['https://servizisociali.comune.example.it/'],
    });
  });
});

describe('web stack with the API’s own domain (apiDomainName)', () => {
  let custom: ScratchApp;
  let template: Template;
  const apiDomainName = 'api.servizisociali.comune.example.it';
  const apiCertificateArn = 'arn:aws:acm:eu-south-1:111111111111:certificate/api';
  beforeAll(() => {
    custom = scratchApp({ bundle: false, context: { apiDomainName, apiCertificateArn } });
    template = Template.fromStack(custom.web);
  });
  afterAll(() => custom.dispose());

  it('turns the execute-api address off, so the API answers only at its domain', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
  });

  it('serves the API at its domain, made by the data stack (regional, the stage’s region’s certificate, TLS 1.2), so its DNS target is known before the web stack', () => {
    expect(template.findResources('AWS::ApiGatewayV2::DomainName')).toEqual({});
    const data = Template.fromStack(custom.data);
    const domains = Object.entries(data.findResources('AWS::ApiGatewayV2::DomainName'));
    expect(domains).toHaveLength(1);
    const [[domainId, domain]] = domains;
    expect(domain.Properties).toEqual({
      DomainName: apiDomainName,
      DomainNameConfigurations: [
        { CertificateArn: apiCertificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
      ],
    });
    // The council's DNS points the domain at this target after `npm run deploy -- <stage> --data-only` (README,
    // "From an empty account to a running portal"); the preflight checks the record before the full deploy.
    data.hasOutput('ApiDomainTarget', { Value: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] } });
    // A Route 53 alias record names the target's hosted zone as well (the preflight's fix prints it).
    data.hasOutput('ApiDomainHostedZoneId', { Value: { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] } });

    // The web stack maps the API's one stage onto that domain, read from the data stack.
    const [[apiId]] = Object.entries(template.findResources('AWS::ApiGatewayV2::Api'));
    const [mapping] = Object.values(template.findResources('AWS::ApiGatewayV2::ApiMapping'));
    expect(mapping!.Properties).toMatchObject({ ApiId: { Ref: apiId }, Stage: '$default' });
    expect(JSON.stringify(mapping!.Properties.DomainName)).toContain(custom.data.stackName);
    expect(custom.web.dependencies).toContain(custom.data);
  });

  it('has CloudFront reach the API at that domain, with the origin-verify header', () => {
    const config = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties
      .DistributionConfig;
    const api = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    const origin = config.Origins.find((o: { Id: string }) => o.Id === api.TargetOriginId);
    expect(origin.DomainName).toBe(apiDomainName);
    expect(origin.OriginCustomHeaders.map((h: { HeaderName: string }) => h.HeaderName)).toEqual(['x-origin-verify']);
  });

  it('gives every API function the secret’s ARN and the right to read that secret only', () => {
    const api = Template.fromStack(custom.api);
    const functions = Object.values(api.findResources('AWS::Lambda::Function')).filter((f) =>
      String(f.Properties.Description ?? '').startsWith('API: '),
    );
    expect(functions.length).toBeGreaterThan(10);
    const arns = functions.map((fn) => fn.Properties.Environment.Variables.ORIGIN_VERIFY_SECRET_ARN);
    for (const arn of arns)
      expect(arn).toEqual({
        'Fn::GetStackOutput': expect.objectContaining({
          StackName: custom.web.stackName,
          OutputName: expect.stringContaining('OriginVerifySecret'),
        }),
      });
    const list = (value: unknown) => (Array.isArray(value) ? value : [value]).map((v) => JSON.stringify(v));
    const reading = Object.values(api.findResources('AWS::IAM::Policy')).filter((policy) =>
      policy.Properties.PolicyDocument.Statement.some(
        (statement: { Action: unknown; Resource: unknown }) =>
          list(statement.Action).includes('"secretsmanager:GetSecretValue"') &&
          list(statement.Resource).includes(JSON.stringify(arns[0])),
      ),
    );
    expect(reading).toHaveLength(functions.length);
  });

  it('refuses an API certificate of another region, or a domain without its certificate', () => {
    expect(() =>
      scratchApp({
        bundle: false,
        nag: false,
        context: { apiDomainName, apiCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/api' },
      }),
    ).toThrow(/apiCertificateArn must be an ACM certificate in eu-south-1, the API's region/);
    expect(() => scratchApp({ bundle: false, nag: false, context: { apiDomainName } })).toThrow(
      /apiDomainName and apiCertificateArn go together/,
    );
  });
});
