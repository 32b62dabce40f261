import { CfnOutput, Duration, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import type { RuntimeConfig } from '../web/src/lib/runtime-config.ts';
import { SESSION_LENGTH } from './auth-stack.ts';
import { privateBucketDefaults } from './data-stack.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { spaRewriteCode } from './spa-rewrite.ts';
import { secretsRevisionOf } from './context.ts';
import { ORIGIN_VERIFY_HEADER } from '../functions/adapters/origin-verify.ts';

export interface WebStackProps extends StackProps {
  /** Folder of the built web app (web/dist); tests pass a folder with a placeholder index.html. */
  webAssetPath: string;
  userPool: cognito.UserPool;
  authDomain: cognito.UserPoolDomain;
  spidGateway: cognito.UserPoolIdentityProviderOidc;
  /** The gateway's name in the user pool (context spidGatewayProviderName), sent as identity_provider. */
  spidGatewayProviderName: string;
  /** Custom domain and its us-east-1 certificate; without them CloudFront's own domain is used. */
  webDomainName?: string;
  certificateArn?: string;
  /** An existing WAF web ACL (CLOUDFRONT scope, us-east-1) to attach to the distribution. */
  webAclArn?: string;
  /**
   * The API's custom domain (made by the data stack, in this stack's region): CloudFront's origin for /api/*, and the
   * execute-api address is turned off. Without it (a development copy) CloudFront goes to the execute-api address.
   */
  apiDomain?: { domain: apigwv2.IDomainName; name: string };
  /** The accessibility statement's address, for the footer (config.json). */
  accessibilityStatementUrl: string;
  /** The platform the council bills through (context paymentPlatform), for the web's wording (config.json). */
  paymentPlatform?: 'mypay' | 'gpd';
  /** The browser uploads to it (presigned POST) and opens files from it (presigned GET). */
  documentsBucket: s3.IBucket;
}

const OAUTH_SCOPES = [cognito.OAuthScope.OPENID, cognito.OAuthScope.PROFILE, cognito.OAuthScope.EMAIL];

/**
 * Everything with a public address: the CloudFront distribution (the React app from a private bucket,
 * /api/* to the HTTP API), the HTTP API endpoint itself, and the web app's Cognito client.
 *
 * Why the HTTP API endpoint and the app client live here (the ordering problem): the client's callback
 * URL needs the distribution's domain, the distribution needs the API's domain for /api/*, and the
 * API's JWT authorizer needs the client id as audience. As resources that is a chain, not a cycle:
 * HttpApi → Distribution → UserPoolClient → JWT authorizer → routes. This stack creates the endpoint,
 * the distribution, the client and the authorizer; the API stack, deployed after it, adds the functions
 * and the routes. Plain CloudFormation references: no
 * custom resource patching the client after the fact, which CloudFormation would silently undo at
 * the next update of the client.
 */
export class WebStack extends Stack {
  readonly httpApi: apigwv2.HttpApi;
  /** The API's access log (one JSON line per request: route, status, latency). */
  readonly apiAccessLogs: logs.LogGroup;
  readonly distribution: cloudfront.Distribution;
  readonly client: cognito.UserPoolClient;
  /** Accepts access tokens of the user pool issued to the web app's client; the API stack uses it on its routes. */
  readonly authorizer: HttpJwtAuthorizer;
  /** https://<web domain>, without a trailing slash. */
  readonly webUrl: string;
  /**
   * The value CloudFront sends the API in the X-Origin-Verify header, and the API functions check
   * (functions/adapters/origin-verify.ts): a request that did not come through CloudFront (and its WAF) is refused.
   */
  readonly originVerifySecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    const apiDomain = props.apiDomain;
    const created = this.createHttpApi(Boolean(apiDomain));
    ({ httpApi: this.httpApi, accessLogs: this.apiAccessLogs } = created);
    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerifySecret', {
      description: `The ${ORIGIN_VERIFY_HEADER} header CloudFront sends the API, which refuses a request without it`,
      // { "current": <generated> }; a rotation adds "previous", which the API accepts until the next one.
      generateSecretString: {
        secretStringTemplate: '{}',
        generateStringKey: 'current',
        passwordLength: 48,
        excludePunctuation: true,
      },
    });
    acknowledge(this.originVerifySecret, {
      'AwsSolutions-SMG4':
        'Rotated by hand (docs/operations.md, "Rotating secrets"): the API accepts the current and the previous value, so a new value and then a deploy of the web stack change it with no refused request.',
    });
    const apiOriginDomain = apiDomain
      ? this.mapApiDomain(apiDomain.domain, apiDomain.name, created.stage)
      : Fn.select(2, Fn.split('/', this.httpApi.apiEndpoint));

    const logBucket = new s3.Bucket(this, 'Logs', {
      ...privateBucketDefaults,
      // CloudFront standard logs are delivered with an ACL grant, so this bucket keeps ACLs enabled.
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });

    const site = new s3.Bucket(this, 'Site', {
      ...privateBucketDefaults,
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 'site/',
    });

    const customDomain = props.webDomainName && props.certificateArn ? props.webDomainName : undefined;
    const securityHeaders = this.securityHeaders(props.authDomain, props.documentsBucket);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      // A new secretsRevision changes the distribution, so CloudFormation resolves the origin-verify secret again
      // (a dynamic reference is resolved only when its resource is updated).
      comment: `Portale servizi sociali${secretsRevisionOf(this.node) ? ` (segreti ${secretsRevisionOf(this.node)})` : ''}`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
      ...(customDomain && {
        domainNames: [customDomain],
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn!),
        minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(site),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'SpaRewrite', {
              code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
            }),
          },
        ],
      },
      additionalBehaviors: {
        // Same origin for the app and its API: apiBaseUrl is '' and the browser needs no CORS.
        '/api/*': {
          origin: new origins.HttpOrigin(apiOriginDomain, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
            // Resolved by CloudFormation from Secrets Manager at deploy (a dynamic reference): not in the template.
            customHeaders: {
              [ORIGIN_VERIFY_HEADER]: this.originVerifySecret.secretValueFromJson('current').unsafeUnwrap(),
            },
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
        },
      },
    });
    this.acknowledgeDistributionFindings(Boolean(customDomain), Boolean(props.webAclArn));

    this.webUrl = `https://${customDomain ?? this.distribution.distributionDomainName}`;

    this.client = new cognito.UserPoolClient(this, 'WebClient', {
      userPool: props.userPool,
      // A public client (a browser app): no secret, authorization code only; Cognito requires PKCE
      // from clients without a secret.
      generateSecret: false,
      // No username/password or SRP sign-in: only the hosted federation flow and token refresh.
      authFlows: { userPassword: false, userSrp: false, custom: false, adminUserPassword: false, user: false },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: OAUTH_SCOPES,
        callbackUrls: [`${this.webUrl}/auth/callback`],
        logoutUrls: [`${this.webUrl}/`],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.custom(props.spidGateway.providerName)],
      // Attributes the SPID/CIE mapping writes; the working entity is set by administrators only.
      writeAttributes: new cognito.ClientAttributes()
        .withStandardAttributes({ givenName: true, familyName: true, email: true })
        .withCustomAttributes('fiscal_code'),
      accessTokenValidity: SESSION_LENGTH,
      idTokenValidity: SESSION_LENGTH,
      refreshTokenValidity: SESSION_LENGTH,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
    });
    this.client.node.addDependency(props.spidGateway);

    // Cognito access tokens carry no `aud`: API Gateway then checks their client_id against the audience.
    this.authorizer = new HttpJwtAuthorizer('CognitoJwt', props.userPool.userPoolProviderUrl, {
      jwtAudience: [this.client.userPoolClientId],
    });

    const runtimeConfig: RuntimeConfig = {
      apiBaseUrl: '',
      issuer: props.userPool.userPoolProviderUrl,
      clientId: this.client.userPoolClientId,
      scope: OAUTH_SCOPES.map((s) => s.scopeName).join(' '),
      // Cognito's /logout wants client_id and logout_uri (one of the client's logoutUrls, `${webUrl}/`): the app
      // builds the request (web/src/lib/auth.tsx, cognitoLogoutUrl), so the address is encoded in the browser.
      logoutEndpoint: `${props.authDomain.baseUrl()}/logout`,
      // Straight to the SPID/CIE gateway, without Cognito's own sign-in page.
      identityProvider: props.spidGatewayProviderName,
      accessibilityStatementUrl: props.accessibilityStatementUrl,
      paymentPlatform: props.paymentPlatform ?? 'mypay',
    };
    // Vite names every file under assets/ by its content: cached for a year and never pruned, so a tab opened
    // before a deployment still finds its chunks. index.html and config.json change under the same name: browsers
    // revalidate them on every visit (the web app fetches config.json with the default cache mode).
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [s3deploy.Source.asset(props.webAssetPath)],
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      destinationBucket: site,
      memoryLimit: 512,
    });
    const deployment = new s3deploy.BucketDeployment(this, 'DeploySite', {
      sources: [s3deploy.Source.asset(props.webAssetPath), s3deploy.Source.jsonData('config.json', runtimeConfig)],
      exclude: ['assets/*'],
      cacheControl: [s3deploy.CacheControl.noCache()],
      destinationBucket: site,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    deployment.node.addDependency(assets);
    this.acknowledgeDeploymentHelper(deployment, site);

    new CfnOutput(this, 'WebUrl', { value: this.webUrl });
    new CfnOutput(this, 'DistributionDomainName', {
      description: 'Where the council’s DNS points webDomainName (a CNAME, or a Route 53 alias)',
      value: this.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'ApiEndpoint', {
      value: apiDomain ? `https://${apiDomain.name}` : this.httpApi.apiEndpoint,
    });
    new CfnOutput(this, 'UserPoolClientId', { value: this.client.userPoolClientId });
  }

  /**
   * The API's one stage mapped onto its custom domain, which the data stack made: the council's DNS already points
   * the domain at it (README, "From an empty account to a running portal"), so CloudFront reaches the API at once.
   */
  private mapApiDomain(domain: apigwv2.IDomainName, name: string, stage: apigwv2.IHttpStage): string {
    new apigwv2.ApiMapping(this, 'ApiDomainMapping', { api: this.httpApi, domainName: domain, stage });
    return name;
  }

  /** The API endpoint and its one stage; the routes come from the API stack. */
  private createHttpApi(customDomain: boolean): {
    httpApi: apigwv2.HttpApi;
    accessLogs: logs.LogGroup;
    stage: apigwv2.HttpStage;
  } {
    const httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'Portale servizi sociali: API (routes from functions/routes.ts)',
      createDefaultStage: false,
      // With its own domain the API answers only there, i.e. to CloudFront (API Gateway, "Disable the default
      // endpoint for HTTP APIs").
      disableExecuteApiEndpoint: customDomain,
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logs.RetentionDays.SIX_MONTHS });
    const stage = httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          // responseLatency is written as a number (not a string), so a metric filter can take its value (lib/alarms.ts).
          // API Gateway writes '-' for a variable without a value: every other one is quoted, so such a line stays
          // JSON; a line without a latency is not JSON, and the latency's filter (a JSON pattern) skips it.
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
          }).replace('"$context.responseLatency"', '$context.responseLatency'),
        ),
      },
    });
    return { httpApi, accessLogs, stage };
  }

  private securityHeaders(
    authDomain: cognito.UserPoolDomain,
    documentsBucket: s3.IBucket,
  ): cloudfront.ResponseHeadersPolicy {
    const cognitoDomain = authDomain.baseUrl();
    const storage = `https://${documentsBucket.bucketRegionalDomainName}`;
    // oidc-client-ts reads the discovery document from the issuer (cognito-idp) and redeems the code
    // at the Cognito domain; the sign-in page is a navigation to that domain (form-action covers the
    // redirect chain of its forms).
    const cognitoIdp = `https://cognito-idp.${this.region}.amazonaws.com`;
    const contentSecurityPolicy = [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'", // Amplify UI injects its theme as inline CSS
      `img-src 'self' data: blob: ${storage}`,
      "font-src 'self'",
      `connect-src 'self' ${cognitoDomain} ${cognitoIdp} ${storage}`,
      `frame-src 'self' blob: ${storage}`,
      "object-src 'none'",
      "base-uri 'self'",
      `form-action 'self' ${cognitoDomain}`,
      "frame-ancestors 'none'",
    ].join('; ');
    return new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Portale servizi sociali: security headers and CSP',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()', override: true },
        ],
      },
    });
  }

  private acknowledgeDistributionFindings(customDomain: boolean, waf: boolean) {
    acknowledge(this.distribution, {
      'AwsSolutions-CFR1':
        'No geo restriction: citizens and their delegates may use the portal from abroad (SPID and CIE work worldwide).',
    });
    if (!waf) {
      acknowledge(this.distribution, {
        'AwsSolutions-CFR2':
          "A CloudFront web ACL lives in us-east-1 and is the municipality's to share: pass its ARN as context webAclArn to attach it. Until then the API is guarded by the JWT authorizer and the stage throttling.",
      });
    }
    if (!customDomain) {
      acknowledge(this.distribution, {
        'AwsSolutions-CFR4':
          "Without webDomainName/certificateArn the distribution serves CloudFront's default *.cloudfront.net certificate, whose viewer policy cannot be raised; with a custom domain it uses TLSv1.2_2021.",
      });
    }
  }

  /**
   * BucketDeployment's helper Lambda is CDK's own singleton (one per stack): its role, its grants and its
   * runtime are CDK's. It only runs during deployments.
   */
  private acknowledgeDeploymentHelper(deployment: s3deploy.BucketDeployment, site: s3.IBucket) {
    const helper = this.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!helper) throw new Error('BucketDeployment helper not found: has aws-cdk-lib renamed it?');
    const grants =
      'CDK grant of the BucketDeployment helper, which copies the built site from the asset bucket into the site bucket';
    acknowledge(helper, {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        "CDK's BucketDeployment helper writes its own logs with the AWS managed basic execution policy; it runs only during deployments.",
      'AwsSolutions-IAM5[Action::s3:GetObject*]': `${grants} (read).`,
      'AwsSolutions-IAM5[Action::s3:GetBucket*]': `${grants} (read).`,
      'AwsSolutions-IAM5[Action::s3:List*]': `${grants} (read).`,
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]': `${grants} (prune files no longer in the build).`,
      'AwsSolutions-IAM5[Action::s3:Abort*]': `${grants} (multipart uploads).`,
      'AwsSolutions-IAM5[Resource::*]':
        'CDK grant of the BucketDeployment helper: cloudfront:CreateInvalidation/GetInvalidation after each deployment of the site.',
      'AwsSolutions-L1': "The runtime of CDK's BucketDeployment helper is chosen by aws-cdk-lib, not by this project.",
    });
    acknowledgeWildcardResource(helper, site.arnForObjects('*'), `${grants}: any file name the build produces.`);
    // The built site, config.json and the AWS CLI layer are file assets of this stack: one bucket.
    const asset = deployment.node.findAll().find((c): c is Asset => c instanceof Asset)!;
    acknowledgeWildcardResource(
      helper,
      asset.bucket.arnForObjects('*'),
      `${grants}: the deployment's own asset objects.`,
    );
  }
}
