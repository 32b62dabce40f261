import { createPublicKey } from 'node:crypto';
import { resolveCname, resolveNs } from 'node:dns/promises';
import { AccountClient, GetRegionOptStatusCommand } from '@aws-sdk/client-account';
import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  type Stack as CfnStack,
} from '@aws-sdk/client-cloudformation';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolDomainCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetHostedZoneCommand,
  ListHostedZonesCommand,
  ListResourceRecordSetsCommand,
  Route53Client,
  type HostedZone,
} from '@aws-sdk/client-route-53';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { App } from 'aws-cdk-lib';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { portalContext, type PortalContext } from './context.ts';
import { stageContext, type Stage } from './stage-config.ts';

/**
 * `npm run preflight -- <stage>`: read-only checks of the account a stage deploys to, each missing piece printed
 * with the command or console step that fixes it. Nothing here writes, and no secret value is ever printed:
 * the checks say which field is missing, never what a field holds.
 */
export type CheckStatus = 'ok' | 'missing' | 'later';
export interface Check {
  /** What is checked, for the operator. */
  title: string;
  status: CheckStatus;
  /** What was found (never a secret's value). */
  detail?: string;
  /** The commands or console steps that fix it. */
  fix?: string[];
}

/** The AWS clients the checks use, one per region; tests give the SDK's own (mocked with aws-sdk-client-mock). */
export interface PreflightClients {
  sts(): STSClient;
  account(): AccountClient;
  cloudFormation(region: string): CloudFormationClient;
  secrets(region: string): SecretsManagerClient;
  ses(region: string): SESv2Client;
  acm(region: string): ACMClient;
  cognito(region: string): CognitoIdentityProviderClient;
  lambda(region: string): LambdaClient;
  kms(region: string): KMSClient;
  /** Route 53 (global): the account's own hosted zones, where an alias record is read. */
  route53(): Route53Client;
  /** The public DNS: the CNAME and NS records of a name (node:dns; tests give their own). */
  dns(): { resolveCname(name: string): Promise<string[]>; resolveNs(name: string): Promise<string[]> };
}

export function awsClients(): PreflightClients {
  const cache = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T =>
    cache.has(key) ? (cache.get(key) as T) : (cache.set(key, make()), cache.get(key) as T);
  return {
    sts: () => once('sts', () => new STSClient({})),
    account: () => once('account', () => new AccountClient({ region: 'us-east-1' })),
    cloudFormation: (region) => once(`cfn:${region}`, () => new CloudFormationClient({ region })),
    secrets: (region) => once(`sm:${region}`, () => new SecretsManagerClient({ region })),
    ses: (region) => once(`ses:${region}`, () => new SESv2Client({ region })),
    acm: (region) => once(`acm:${region}`, () => new ACMClient({ region })),
    cognito: (region) => once(`cognito:${region}`, () => new CognitoIdentityProviderClient({ region })),
    lambda: (region) => once(`lambda:${region}`, () => new LambdaClient({ region })),
    kms: (region) => once(`kms:${region}`, () => new KMSClient({ region })),
    route53: () => once('route53', () => new Route53Client({ region: 'us-east-1' })),
    dns: () => ({ resolveCname, resolveNs }),
  };
}

/** The stage's settings with lib/context.ts's defaults applied, as the CDK app reads them. */
export function settingsOf(stage: Stage): PortalContext {
  return portalContext(new App({ context: stageContext(stage) }).node);
}

/** The oldest bootstrap template the CDK CLI of this repository deploys with (its assets and lookups roles). */
export const MIN_BOOTSTRAP_VERSION = 6;
/**
 * Lambda's concurrent executions the portal needs at least: a new account's quota can be as low as 10,
 * which one busy minute of the API exhausts (every throttle then is a 503 to a citizen).
 */
export const MIN_LAMBDA_CONCURRENCY = 1000;

/** Every secret the stacks resolve, with the fields the code (or this preflight) reads. */
export function secretsOf(settings: PortalContext): { name: string; what: string; fields: string[] | 'plain' }[] {
  // The payment platform's: MyPay's access, or on pagoPA GPD the subscription keys (checkoutKey is optional).
  const platform =
    settings.paymentPlatform === 'gpd'
      ? {
          name: settings.gpd.secretName!,
          what: `the council’s pagoPA GPD keys (${settings.gpd.environment})`,
          fields: ['apiKey', 'receiptsKey'],
        }
      : {
          name: settings.mypaySecretName,
          what: 'the council’s MyPay access',
          fields: ['endpoint', 'codIpa', 'password', 'creditorFiscalCode'],
        };
  return [
    { name: settings.spidGateway.clientSecretName, what: 'the SPID/CIE gateway client secret', fields: 'plain' },
    platform,
    { name: settings.io.secretName, what: 'the IO service’s key', fields: ['apiKey', 'organizationFiscalCode'] },
  ];
}

const errorName = (error: unknown) => (error as { name?: string }).name ?? '';
const template = (fields: string[]) => `'{${fields.map((f) => `"${f}":"<${f}>"`).join(',')}}'`;

async function identity(clients: PreflightClients, stage: Stage): Promise<{ check: Check; account?: string }> {
  try {
    const { Account } = await clients.sts().send(new GetCallerIdentityCommand({}));
    const expected = stage.settings.account;
    if (expected && Account !== expected) {
      return {
        account: Account,
        check: {
          title: `credentials for the stage's account ${expected}`,
          status: 'missing',
          detail: `the credentials in use are for account ${Account}, not the one ${stage.file} names`,
          fix: [
            `use a profile of account ${expected}: AWS_PROFILE=<profile of ${expected}> npm run preflight -- ${stage.name}`,
          ],
        },
      };
    }
    return { account: Account, check: { title: `credentials for account ${Account}`, status: 'ok' } };
  } catch (error) {
    return {
      check: {
        title: 'AWS credentials',
        status: 'missing',
        detail: `${errorName(error)}: ${(error as Error).message}`,
        fix: ['aws configure sso   (or export AWS_PROFILE=<profile>), then: aws sts get-caller-identity'],
      },
    };
  }
}

async function regionEnabled(clients: PreflightClients, region: string, why: string): Promise<Check> {
  const title = `region ${region} enabled (${why})`;
  const { RegionOptStatus } = await clients.account().send(new GetRegionOptStatusCommand({ RegionName: region }));
  if (RegionOptStatus === 'ENABLED' || RegionOptStatus === 'ENABLED_BY_DEFAULT') return { title, status: 'ok' };
  return {
    title,
    status: 'missing',
    detail: `the region is ${RegionOptStatus ?? 'unknown'}${RegionOptStatus === 'ENABLING' ? ' (wait until it is ENABLED: minutes, sometimes hours)' : ''}`,
    fix:
      RegionOptStatus === 'ENABLING'
        ? [`aws account get-region-opt-status --region-name ${region}   (until ENABLED)`]
        : [
            `aws account enable-region --region-name ${region}`,
            `aws account get-region-opt-status --region-name ${region}   (until ENABLED)`,
            `or: console → account menu → Account → AWS Regions → ${region} → Enable`,
          ],
  };
}

async function describeStack(client: CloudFormationClient, name: string): Promise<CfnStack | undefined> {
  try {
    return (await client.send(new DescribeStacksCommand({ StackName: name }))).Stacks?.[0];
  } catch (error) {
    if (errorName(error) === 'ValidationError') return undefined; // "Stack with id … does not exist"
    throw error;
  }
}

async function bootstrapped(clients: PreflightClients, account: string, region: string, why: string): Promise<Check> {
  const title = `CDK bootstrap in ${region} (${why})`;
  const fix = [`npx cdk bootstrap aws://${account}/${region}`];
  const stack = await describeStack(clients.cloudFormation(region), 'CDKToolkit');
  if (!stack) return { title, status: 'missing', detail: 'no CDKToolkit stack', fix };
  if (!/_COMPLETE$/.test(stack.StackStatus ?? '') || /ROLLBACK_COMPLETE|DELETE/.test(stack.StackStatus ?? '')) {
    return { title, status: 'missing', detail: `CDKToolkit is ${stack.StackStatus}`, fix };
  }
  const version = Number(stack.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue);
  if (!(version >= MIN_BOOTSTRAP_VERSION))
    return {
      title,
      status: 'missing',
      detail: `bootstrap version ${version || 'unknown'}, at least ${MIN_BOOTSTRAP_VERSION} needed`,
      fix,
    };
  return { title, status: 'ok', detail: `version ${version}` };
}

/** The secret's JSON fields (or its plain string), for the checks that compare two of them; never printed. */
type SecretFields = Record<string, unknown> | string;

async function secretPresent(
  clients: PreflightClients,
  region: string,
  secret: ReturnType<typeof secretsOf>[number],
): Promise<{ check: Check; value?: SecretFields }> {
  const title = `secret ${secret.name} (${secret.what})`;
  const create =
    secret.fields === 'plain'
      ? `aws secretsmanager create-secret --region ${region} --name ${secret.name} --secret-string '<the value>'`
      : `aws secretsmanager create-secret --region ${region} --name ${secret.name} --secret-string ${template(secret.fields)}`;
  let text: string | undefined;
  try {
    text = (await clients.secrets(region).send(new GetSecretValueCommand({ SecretId: secret.name }))).SecretString;
  } catch (error) {
    if (errorName(error) === 'ResourceNotFoundException')
      return { check: { title, status: 'missing', detail: `no secret of this name in ${region}`, fix: [create] } };
    throw error;
  }
  if (!text?.trim())
    return {
      check: {
        title,
        status: 'missing',
        detail: 'the secret has no string value',
        fix: [create.replace('create-secret', 'put-secret-value').replace('--name', '--secret-id')],
      },
    };
  if (secret.fields === 'plain') return { check: { title, status: 'ok' }, value: text };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object');
  } catch {
    return {
      check: {
        title,
        status: 'missing',
        detail: `the value is not a JSON object with the fields ${secret.fields.join(', ')}`,
        fix: [create.replace('create-secret', 'put-secret-value').replace('--name', '--secret-id')],
      },
    };
  }
  const missing = secret.fields.filter((field) => typeof json[field] !== 'string' || !(json[field] as string).trim());
  if (missing.length > 0) {
    return {
      check: {
        title,
        status: 'missing',
        detail: `missing or empty field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
        fix: [
          `aws secretsmanager put-secret-value --region ${region} --secret-id ${secret.name} --secret-string ${template(secret.fields)}   (all the fields: the new value replaces the old)`,
        ],
      },
      value: json,
    };
  }
  return { check: { title, status: 'ok', detail: `fields ${secret.fields.join(', ')} present` }, value: json };
}

async function sesReady(
  clients: PreflightClients,
  region: string,
  settings: PortalContext,
  webDomain: string | undefined,
): Promise<Check[]> {
  const identity = settings.mail.identityArn?.split('/').pop() ?? settings.mail.from.split('@').pop()!;
  const ses = clients.ses(region);
  const identityCheck: Check = {
    title: `SES identity ${identity} verified in ${region} (sender ${settings.mail.from})`,
    status: 'ok',
  };
  try {
    const answer = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    if (!answer.VerifiedForSendingStatus) {
      Object.assign(identityCheck, {
        status: 'missing',
        detail: `the identity exists but is not verified (DKIM ${answer.DkimAttributes?.Status ?? 'unknown'})`,
        fix: [
          `aws sesv2 get-email-identity --region ${region} --email-identity ${identity} --query DkimAttributes.Tokens   then publish the three CNAME records <token>._domainkey.${identity} → <token>.dkim.amazonses.com in the domain's DNS`,
        ],
      });
    }
  } catch (error) {
    if (errorName(error) !== 'NotFoundException') throw error;
    Object.assign(identityCheck, {
      status: 'missing',
      detail: 'no such identity',
      fix: [
        `aws sesv2 create-email-identity --region ${region} --email-identity ${identity}`,
        `then publish the three DKIM CNAME records it answers in the DNS of ${identity.split('@').pop()}`,
      ],
    });
  }
  const account = await ses.send(new GetAccountCommand({}));
  const sandbox: Check = account.ProductionAccessEnabled
    ? { title: `SES account out of the sandbox in ${region}`, status: 'ok' }
    : {
        title: `SES account out of the sandbox in ${region}`,
        status: 'missing',
        detail: 'in the sandbox SES delivers only to verified addresses: citizens would get no e-mail',
        fix: [
          `aws sesv2 put-account-details --region ${region} --production-access-enabled --mail-type TRANSACTIONAL --website-url https://${webDomain ?? '<the portal address>'} --use-case-description "Ricevute e avvisi del portale dei servizi sociali ai cittadini registrati"`,
          'or: console → Amazon SES → Account dashboard → Request production access (AWS answers within a day)',
        ],
      };
  return [identityCheck, sandbox];
}

/** `*.example.it` covers `a.example.it`, not `example.it` nor `a.b.example.it`. */
const covers = (name: string, domain: string) =>
  name === domain || (name.startsWith('*.') && domain.split('.').slice(1).join('.') === name.slice(2));

/** A certificate to check: the site's (CloudFront's, in us-east-1) or the API's (in the stage's region). */
interface WantedCertificate {
  domain: string;
  arn: string;
  region: string;
  /** Who uses it, for the title. */
  user: string;
  /** The setting that names it. */
  setting: 'certificateArn' | 'apiCertificateArn';
}

async function certificateValid(
  clients: PreflightClients,
  { domain, arn, region, user, setting }: WantedCertificate,
  now: Date,
): Promise<Check> {
  const title = `certificate for ${domain} in ${region} (${user})`;
  const request = [
    `aws acm request-certificate --region ${region} --domain-name ${domain} --validation-method DNS`,
    `publish the CNAME record it asks for (aws acm describe-certificate --region ${region} --certificate-arn <arn>), then set ${setting} to its ARN`,
  ];
  try {
    const { Certificate } = await clients.acm(region).send(new DescribeCertificateCommand({ CertificateArn: arn }));
    const names = [
      ...new Set(
        [Certificate?.DomainName, ...(Certificate?.SubjectAlternativeNames ?? [])].filter((n): n is string => !!n),
      ),
    ];
    if (Certificate?.Status !== 'ISSUED') {
      return {
        title,
        status: 'missing',
        detail: `the certificate is ${Certificate?.Status ?? 'unknown'}`,
        fix:
          Certificate?.Status === 'PENDING_VALIDATION'
            ? [
                `publish the validation CNAME: aws acm describe-certificate --region ${region} --certificate-arn ${arn} --query Certificate.DomainValidationOptions`,
              ]
            : request,
      };
    }
    if (!names.some((name) => covers(name, domain)))
      return {
        title,
        status: 'missing',
        detail: `the certificate is for ${names.join(', ')}, not ${domain}`,
        fix: request,
      };
    if (Certificate.NotAfter && Certificate.NotAfter.getTime() <= now.getTime())
      return {
        title,
        status: 'missing',
        detail: `the certificate expired on ${Certificate.NotAfter.toISOString().slice(0, 10)}`,
        fix: request,
      };
    return { title, status: 'ok', detail: `issued for ${names.join(', ')}` };
  } catch (error) {
    if (errorName(error) !== 'ResourceNotFoundException' && errorName(error) !== 'InvalidArnException') throw error;
    return { title, status: 'missing', detail: `no certificate ${arn} in ${region}`, fix: request };
  }
}

async function cognitoDomainFree(clients: PreflightClients, region: string, settings: PortalContext): Promise<Check> {
  const prefix = settings.authDomainPrefix!;
  const title = `Cognito domain ${prefix}.auth.${region}.amazoncognito.com free (or the stage's own)`;
  const { DomainDescription } = await clients
    .cognito(region)
    .send(new DescribeUserPoolDomainCommand({ Domain: prefix }));
  const taken = DomainDescription?.UserPoolId;
  if (!taken)
    return {
      title,
      status: 'ok',
      detail: `SPID/CIE redirect URI: https://${prefix}.auth.${region}.amazoncognito.com/oauth2/idpresponse`,
    };
  let ownPool: string | undefined;
  try {
    const { StackResources } = await clients
      .cloudFormation(region)
      .send(new DescribeStackResourcesCommand({ StackName: `${settings.stackPrefix}Auth` }));
    ownPool = StackResources?.find((r) => r.ResourceType === 'AWS::Cognito::UserPool')?.PhysicalResourceId;
  } catch (error) {
    if (errorName(error) !== 'ValidationError') throw error;
  }
  if (ownPool === taken)
    return { title, status: 'ok', detail: `the domain of this stage's user pool (${settings.stackPrefix}Auth)` };
  return {
    title,
    status: 'missing',
    detail: 'the prefix is taken by another user pool (Cognito prefixes are unique in the region)',
    fix: [`choose another authDomainPrefix in the stage's file, then tell the SPID/CIE gateway the new redirect URI`],
  };
}

const bare = (host = '') => host.toLowerCase().replace(/\.$/, '');

/** A DNS query that finds nothing answers an empty list, not an error. */
async function lookup(query: () => Promise<string[]>): Promise<string[]> {
  try {
    return (await query()).map(bare);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
    throw error;
  }
}

/** The account's public hosted zone that holds `name` (the longest suffix of it), if there is one. */
async function hostedZoneOf(route53: Route53Client, name: string): Promise<HostedZone | undefined> {
  const zones: HostedZone[] = [];
  let Marker: string | undefined;
  do {
    const page = await route53.send(new ListHostedZonesCommand({ Marker }));
    zones.push(...(page.HostedZones ?? []));
    Marker = page.IsTruncated ? page.NextMarker : undefined;
  } while (Marker);
  return zones
    .filter((zone) => !zone.Config?.PrivateZone && (name === bare(zone.Name) || name.endsWith(`.${bare(zone.Name)}`)))
    .sort((a, b) => bare(b.Name).length - bare(a.Name).length)[0];
}

/** A name the council publishes, where it must lead, and the target's own hosted zone (what a Route 53 alias names). */
interface DnsTarget {
  name: string;
  target: string;
  targetZoneId: string;
}

/**
 * Does the public DNS lead `name` to `target`? A CNAME is read from the public DNS. A Route 53 alias is an A record
 * that resolves to addresses, not to a name, so it is read from the account's hosted zone through Route 53's API;
 * it counts only if that zone is the one the internet asks (delegated to the zone's name servers).
 */
async function dnsLeadsTo(
  clients: PreflightClients,
  { name, target, targetZoneId }: DnsTarget,
): Promise<Pick<Check, 'status' | 'detail' | 'fix'>> {
  const cname = [
    `in the council's DNS: ${name} CNAME ${target}`,
    `then wait until it resolves: dig +short CNAME ${name}`,
  ];
  const found = await lookup(() => clients.dns().resolveCname(name));
  if (found.includes(bare(target))) return { status: 'ok', detail: `CNAME ${target}` };
  if (found.length > 0)
    return { status: 'missing', detail: `${name} is a CNAME of ${found.join(', ')}, not ${target}`, fix: cname };
  const route53 = clients.route53();
  const zone = await hostedZoneOf(route53, bare(name));
  if (!zone)
    return {
      status: 'missing',
      detail: `${name} has no CNAME record, and no Route 53 hosted zone of this account holds it`,
      fix: cname,
    };
  const zoneId = (zone.Id ?? '').replace(/^\/hostedzone\//, '');
  const zoneName = bare(zone.Name);
  const { ResourceRecordSets = [] } = await route53.send(
    new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: name, MaxItems: 10 }),
  );
  const records = ResourceRecordSets.filter((record) => bare(record.Name) === bare(name));
  const leads = records.find(
    (record) =>
      ((record.Type === 'A' || record.Type === 'AAAA') && bare(record.AliasTarget?.DNSName) === bare(target)) ||
      (record.Type === 'CNAME' && record.ResourceRecords?.some((r) => bare(r.Value) === bare(target))),
  );
  if (!leads) {
    const alias = {
      Changes: [
        {
          Action: 'UPSERT',
          ResourceRecordSet: {
            Name: name,
            Type: 'A',
            AliasTarget: { HostedZoneId: targetZoneId, DNSName: target, EvaluateTargetHealth: false },
          },
        },
      ],
    };
    const held = records.map((r) =>
      r.AliasTarget ? `an alias ${r.Type} to ${bare(r.AliasTarget.DNSName)}` : `a ${r.Type}`,
    );
    return {
      status: 'missing',
      detail: `${name} has no CNAME record, and the Route 53 zone ${zoneName} (${zoneId}) of this account has ${held.length ? `${held.join(', ')} for it, not one to ${target}` : 'no alias record for it'}`,
      fix: [
        `aws route53 change-resource-record-sets --hosted-zone-id ${zoneId} --change-batch '${JSON.stringify(alias)}'`,
      ],
    };
  }
  const kind = leads.Type === 'CNAME' ? 'CNAME' : `alias ${leads.Type} record`;
  const { DelegationSet } = await route53.send(new GetHostedZoneCommand({ Id: zoneId }));
  const servers = (DelegationSet?.NameServers ?? []).map(bare);
  const asked = await lookup(() => clients.dns().resolveNs(zoneName));
  if (asked.some((server) => servers.includes(server)))
    return { status: 'ok', detail: `Route 53 ${kind} in the zone ${zoneName} → ${target}` };
  return {
    status: 'missing',
    detail: `the Route 53 zone ${zoneName} (${zoneId}) has the ${kind}, but the internet asks other name servers for ${zoneName} (${asked.join(', ') || 'none'})`,
    fix: [
      `delegate ${zoneName} to the zone's name servers (NS records at its parent or registrar): ${servers.join(' ')}`,
    ],
  };
}

const output = (stack: CfnStack | undefined, key: string) =>
  stack?.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;

/** A name the council publishes for the portal, and the stack output it must lead to. */
interface PublishedDomain {
  name: string;
  /** What the name reaches, for the title ('the API', 'the site'). */
  reaches: string;
  stack: string;
  /** The stack output holding the target's domain name. */
  targetOutput: string;
  /** The target's own hosted zone (what a Route 53 alias names), from the stack's outputs. */
  targetZoneId: (stack: CfnStack | undefined) => string;
  /** What the check says while the stack has no target yet. */
  beforeTarget: Pick<Check, 'status' | 'detail' | 'fix'>;
}

/** Does the published name lead to its stack's output? Checked once that stack has made the target. */
async function domainPublished(clients: PreflightClients, region: string, domain: PublishedDomain): Promise<Check> {
  const { name, reaches, stack, targetOutput } = domain;
  const title = `DNS record ${name} → ${reaches} (CNAME or Route 53 alias to the output ${targetOutput} of ${stack})`;
  const deployed = await describeStack(clients.cloudFormation(region), stack);
  const target = output(deployed, targetOutput);
  if (!target) return { title, ...domain.beforeTarget };
  return { title, ...(await dnsLeadsTo(clients, { name, target, targetZoneId: domain.targetZoneId(deployed) })) };
}

/**
 * CloudFront reaches the API at apiDomainName, so the council's DNS must point it at the regional domain the data
 * stack made (its output ApiDomainTarget) before the web stack is deployed: otherwise every API call is a 502.
 */
function apiDomain(settings: PortalContext, region: string, stage: Stage): PublishedDomain {
  const name = settings.apiDomainName!;
  const dataStack = `${settings.stackPrefix}Data`;
  return {
    name,
    reaches: 'the API',
    stack: dataStack,
    targetOutput: 'ApiDomainTarget',
    targetZoneId: (data) =>
      output(data, 'ApiDomainHostedZoneId') ?? `<the output ApiDomainHostedZoneId of ${dataStack}>`,
    beforeTarget: {
      status: 'missing',
      detail: `the API's domain is made by ${dataStack}, not deployed yet (or deployed without apiDomainName)`,
      fix: [
        `npm run deploy -- ${stage.name} --data-only`,
        `then in the council's DNS: ${name} CNAME <the output ApiDomainTarget of ${dataStack}> (aws cloudformation describe-stacks --region ${region} --stack-name ${dataStack} --query "Stacks[0].Outputs")`,
      ],
    },
  };
}

/**
 * The portal's own domain must lead to the distribution. It exists from the first full deploy on: before it the
 * check is for later, after it (a redeploy, a rollback) it is checked like the API's.
 */
function webDomain(settings: PortalContext, stage: Stage): PublishedDomain {
  const name = settings.webDomainName!;
  const webStack = `${settings.stackPrefix}Web`;
  return {
    name,
    reaches: 'the site',
    stack: webStack,
    targetOutput: 'DistributionDomainName',
    targetZoneId: () => CloudFrontTarget.CLOUDFRONT_ZONE_ID,
    beforeTarget: {
      status: 'later',
      detail: `the distribution is made by ${webStack}, not deployed yet`,
      fix: [
        `after npm run deploy -- ${stage.name}: in the council's DNS, ${name} CNAME <the output DistributionDomainName of ${webStack}> (or a Route 53 alias A record to it, hosted zone ${CloudFrontTarget.CLOUDFRONT_ZONE_ID})`,
      ],
    },
  };
}

async function lambdaConcurrency(clients: PreflightClients, region: string): Promise<Check> {
  const title = `Lambda concurrency quota in ${region} (at least ${MIN_LAMBDA_CONCURRENCY})`;
  const { AccountLimit } = await clients.lambda(region).send(new GetAccountSettingsCommand({}));
  const limit = AccountLimit?.ConcurrentExecutions ?? 0;
  if (limit >= MIN_LAMBDA_CONCURRENCY) return { title, status: 'ok', detail: `${limit}` };
  return {
    title,
    status: 'missing',
    detail: `the account may run ${limit} functions at once`,
    fix: [
      `aws service-quotas request-service-quota-increase --region ${region} --service-code lambda --quota-code L-B99A9384 --desired-value ${MIN_LAMBDA_CONCURRENCY}`,
      'or: console → Service Quotas → AWS Lambda → Concurrent executions → Request increase',
    ],
  };
}

/** The kid PDND gives a key: its JWK thumbprint (RFC 7638), as lib/local/pdnd-simulator.ts computes it. */
export async function kidOfPublicKey(der: Uint8Array): Promise<string> {
  return calculateJwkThumbprint(
    createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }).export({ format: 'jwk' }) as JWK,
  );
}

async function pdndKid(
  clients: PreflightClients,
  region: string,
  settings: PortalContext,
  stage: Stage,
): Promise<Check> {
  const title = `PDND key's kid equal to pdndKid in ${stage.file}`;
  const data = await describeStack(clients.cloudFormation(region), `${settings.stackPrefix}Data`);
  const keyArn = output(data, 'PdndClientKeyArn');
  if (!keyArn) {
    return {
      title,
      status: 'later',
      detail: `the key is made by ${settings.stackPrefix}Data, not deployed yet`,
      fix: [
        `npm run deploy -- ${stage.name} --data-only`,
        'then upload its public key to PDND (README, "Before the first deploy") and set pdndKid to the kid PDND shows',
      ],
    };
  }
  const { PublicKey } = await clients.kms(region).send(new GetPublicKeyCommand({ KeyId: keyArn }));
  const kid = await kidOfPublicKey(PublicKey!);
  if (kid === settings.pdnd.kid) return { title, status: 'ok' };
  return {
    title,
    status: 'missing',
    detail: `the data stack's key has kid ${kid}; ${stage.file} says ${settings.pdnd.kid}`,
    fix: [
      `if PDND's back office shows ${kid} for this client's key: set "pdndKid": "${kid}" in ${stage.file}`,
      `else upload the key again: aws kms get-public-key --region ${region} --key-id ${keyArn} --query PublicKey --output text | base64 -d | openssl pkey -pubin -inform DER -out pdnd.pem`,
    ],
  };
}

function samePayee(
  io: SecretFields | undefined,
  mypay: SecretFields | undefined,
  settings: PortalContext,
  stage: Stage,
): Check | undefined {
  const gpd = settings.paymentPlatform === 'gpd';
  if (typeof io !== 'object' || (!gpd && typeof mypay !== 'object')) return undefined;
  const organization = String(io.organizationFiscalCode ?? '').trim();
  // On GPD the creditor is the stage's gpdOrganizationFiscalCode (a setting, not a secret).
  const creditor = String(
    (gpd ? settings.gpd.organizationFiscalCode : (mypay as Record<string, unknown>).creditorFiscalCode) ?? '',
  ).trim();
  if (!organization || !creditor) return undefined;
  const platform = gpd ? 'pagoPA GPD' : 'MyPay';
  const where = gpd
    ? `gpdOrganizationFiscalCode in ${stage.file}`
    : `creditorFiscalCode of ${settings.mypaySecretName}`;
  const title = `the IO service's organisation is ${platform}'s creditor entity (organizationFiscalCode of ${settings.io.secretName} = ${where})`;
  if (organization === creditor) return { title, status: 'ok' };
  return {
    title,
    status: 'missing',
    detail: `the two fiscal codes differ: IO would show citizens notices payable to another body than the one ${platform} bills for`,
    fix: [
      `use the IO service of the council that ${platform} bills for (IO back office → Servizi), and put its key and organisation fiscal code in the IO secret`,
      `or correct ${where}`,
    ],
  };
}

/** Every check, in the order of the README's deploy section. */
export async function preflight(stage: Stage, clients: PreflightClients, now = new Date()): Promise<Check[]> {
  const settings = settingsOf(stage);
  const region = settings.region;
  const checks: Check[] = [];
  const who = await identity(clients, stage);
  checks.push(who.check);
  if (who.check.status !== 'ok') return checks;
  const account = who.account!;

  const home = await regionEnabled(clients, region, 'every stack');
  checks.push(home);
  if (settings.textractRegion !== region)
    checks.push(await regionEnabled(clients, settings.textractRegion, 'Textract for scanned attestations'));
  // Nothing else can be read in a region that is not enabled.
  if (home.status !== 'ok') return checks;

  checks.push(await bootstrapped(clients, account, region, 'every stack'));
  checks.push(await bootstrapped(clients, account, 'us-east-1', 'CloudFront: its certificate, web ACL and alarms'));

  const values = new Map<string, SecretFields | undefined>();
  for (const secret of secretsOf(settings)) {
    const { check, value } = await secretPresent(clients, region, secret);
    checks.push(check);
    values.set(secret.name, value);
  }
  const payee = samePayee(values.get(settings.io.secretName), values.get(settings.mypaySecretName), settings, stage);
  if (payee) checks.push(payee);

  checks.push(...(await sesReady(clients, region, settings, settings.webDomainName)));
  if (settings.webDomainName && settings.certificateArn)
    checks.push(
      await certificateValid(
        clients,
        {
          domain: settings.webDomainName,
          arn: settings.certificateArn,
          region: 'us-east-1',
          user: 'CloudFront',
          setting: 'certificateArn',
        },
        now,
      ),
      await domainPublished(clients, region, webDomain(settings, stage)),
    );
  if (settings.apiDomainName && settings.apiCertificateArn)
    checks.push(
      await certificateValid(
        clients,
        {
          domain: settings.apiDomainName,
          arn: settings.apiCertificateArn,
          region,
          user: 'the API’s own domain, CloudFront’s origin',
          setting: 'apiCertificateArn',
        },
        now,
      ),
      await domainPublished(clients, region, apiDomain(settings, region, stage)),
    );
  if (settings.authDomainPrefix) checks.push(await cognitoDomainFree(clients, region, settings));
  checks.push(await lambdaConcurrency(clients, region));
  checks.push(await pdndKid(clients, region, settings, stage));
  return checks;
}

/** The report, one line a check, then what fixes each missing piece. */
export function report(checks: Check[]): string {
  const mark: Record<CheckStatus, string> = { ok: '✔', missing: '✘', later: '…' };
  return checks
    .map((c) =>
      [
        `${mark[c.status]} ${c.title}${c.detail ? `: ${c.detail}` : ''}`,
        ...(c.status === 'ok' ? [] : (c.fix ?? []).map((f) => `    → ${f}`)),
      ].join('\n'),
    )
    .join('\n');
}

export const passed = (checks: Check[]) => checks.every((c) => c.status !== 'missing');
