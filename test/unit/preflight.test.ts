import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccountClient, GetRegionOptStatusCommand } from '@aws-sdk/client-account';
import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
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
} from '@aws-sdk/client-route-53';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { deployPlan } from '../../lib/deploy-plan.ts';
import { awsClients, passed, preflight, report, type Check } from '../../lib/preflight.ts';
import { loadStage } from '../../lib/stage-config.ts';

/**
 * npm run preflight -- <stage> against mocked AWS answers: for each piece of the account, the answer that says
 * it is there and the one that says it is missing, with the fix the operator is told to run.
 */
const ACCOUNT = '111122223333';
const dir = mkdtempSync(path.join(os.tmpdir(), 'portale-preflight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const settings = {
  production: true,
  account: ACCOUNT,
  stackPrefix: 'PortaleProd',
  webDomainName: 'servizisociali.comune.fantasia.it',
  certificateArn: `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/3f8a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b`,
  apiDomainName: 'api.servizisociali.comune.fantasia.it',
  apiCertificateArn: `arn:aws:acm:eu-south-1:${ACCOUNT}:certificate/9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a`,
  authDomainPrefix: 'servizisociali-fantasia',
  mailFrom: 'noreply@comune.fantasia.it',
};
const stage = () => loadStage('prod', dir);

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const der = publicKey.export({ type: 'spki', format: 'der' });
const kid = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK);
writeFileSync(path.join(dir, 'prod.json'), JSON.stringify({ ...settings, pdndKid: kid }));

const PASSWORD = 'MyPay-Pa$$word-42';
const IO_KEY = 'io-subscription-key-0123456789';
const sts = mockClient(STSClient);
const account = mockClient(AccountClient);
const cfn = mockClient(CloudFormationClient);
const secrets = mockClient(SecretsManagerClient);
const ses = mockClient(SESv2Client);
const acm = mockClient(ACMClient);
const cognito = mockClient(CognitoIdentityProviderClient);
const lambda = mockClient(LambdaClient);
const kms = mockClient(KMSClient);
const route53 = mockClient(Route53Client);

const notFound = (name: string, message = 'not found') => Object.assign(new Error(message), { name });
const secretValues: Record<string, string> = {
  'portale-servizi-sociali/spid-gateway-client-secret': 'Sp1dCl13ntS3cr3tValue',
  'portale-servizi-sociali/mypay': JSON.stringify({
    endpoint: 'https://mypay.regione.example/pa',
    codIpa: 'C_F999',
    password: PASSWORD,
    creditorFiscalCode: '80012340123',
  }),
  'portale-servizi-sociali/io-api-key': JSON.stringify({ apiKey: IO_KEY, organizationFiscalCode: '80012340123' }),
};

/** An account where everything the portal needs is in place. */
function everythingPresent() {
  for (const mock of [sts, account, cfn, secrets, ses, acm, cognito, lambda, kms, route53]) mock.reset();
  sts.on(GetCallerIdentityCommand).resolves({ Account: ACCOUNT });
  account.on(GetRegionOptStatusCommand).resolves({ RegionOptStatus: 'ENABLED' });
  cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
    Stacks: [
      {
        StackName: 'CDKToolkit',
        StackStatus: 'UPDATE_COMPLETE',
        CreationTime: new Date(),
        Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '28' }],
      },
    ],
  });
  cfn.on(DescribeStacksCommand, { StackName: 'PortaleProdData' }).resolves({
    Stacks: [
      {
        StackName: 'PortaleProdData',
        StackStatus: 'CREATE_COMPLETE',
        CreationTime: new Date(),
        Outputs: [
          { OutputKey: 'PdndClientKeyArn', OutputValue: `arn:aws:kms:eu-south-1:${ACCOUNT}:key/abc` },
          { OutputKey: 'ApiDomainTarget', OutputValue: API_DOMAIN_TARGET },
          { OutputKey: 'ApiDomainHostedZoneId', OutputValue: API_DOMAIN_ZONE },
        ],
      },
    ],
  });
  // A redeploy: the web stack is there, its distribution the target of the portal's domain.
  cfn.on(DescribeStacksCommand, { StackName: 'PortaleProdWeb' }).resolves({
    Stacks: [
      {
        StackName: 'PortaleProdWeb',
        StackStatus: 'UPDATE_COMPLETE',
        CreationTime: new Date(),
        Outputs: [{ OutputKey: 'DistributionDomainName', OutputValue: DISTRIBUTION }],
      },
    ],
  });
  // No hosted zone in the account: the council's DNS is elsewhere.
  route53.on(ListHostedZonesCommand).resolves({ HostedZones: [], IsTruncated: false, Marker: '', MaxItems: 100 });
  cfn
    .on(DescribeStackResourcesCommand)
    .rejects(notFound('ValidationError', 'Stack with id PortaleProdAuth does not exist'));
  secrets.on(GetSecretValueCommand).callsFake(({ SecretId }: { SecretId: string }) => {
    if (!(SecretId in secretValues))
      throw notFound('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return { SecretString: secretValues[SecretId] };
  });
  ses.on(GetEmailIdentityCommand).resolves({ VerifiedForSendingStatus: true });
  ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, SendingEnabled: true });
  acm.on(DescribeCertificateCommand).resolves({
    Certificate: {
      Status: 'ISSUED',
      DomainName: '*.comune.fantasia.it',
      SubjectAlternativeNames: ['*.comune.fantasia.it'],
      NotAfter: new Date('2027-06-01T00:00:00Z'),
    },
  });
  acm.on(DescribeCertificateCommand, { CertificateArn: settings.apiCertificateArn }).resolves({
    Certificate: {
      Status: 'ISSUED',
      DomainName: 'api.servizisociali.comune.fantasia.it',
      NotAfter: new Date('2027-06-01T00:00:00Z'),
    },
  });
  cognito.on(DescribeUserPoolDomainCommand).resolves({ DomainDescription: {} });
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 1000 } });
  kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(der) });
}

/** The council's DNS: the CNAME records it publishes (the API's domain points at the data stack's ApiDomainTarget). */
const API_DOMAIN_TARGET = 'd-abc123xyz.execute-api.eu-south-1.amazonaws.com';
/** API Gateway's regional hosted zone in eu-south-1, as the data stack's output ApiDomainHostedZoneId gives it. */
const API_DOMAIN_ZONE = 'Z3BT4WSQ9TDYZV';
const DISTRIBUTION = 'd111111abcdef8.cloudfront.net';
const cnames = new Map<string, string>();
/** The public DNS's name servers of each zone. */
const nameServers = new Map<string, string[]>();
beforeEach(() => {
  cnames.clear();
  nameServers.clear();
  cnames.set('api.servizisociali.comune.fantasia.it', `${API_DOMAIN_TARGET}.`);
  cnames.set('servizisociali.comune.fantasia.it', DISTRIBUTION);
});
const answer = (records: Map<string, string | string[]>, query: string) => async (name: string) => {
  const found = records.get(name);
  if (!found) throw Object.assign(new Error(`${query} ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return [found].flat();
};
const clients = () => ({
  ...awsClients(),
  dns: () => ({ resolveCname: answer(cnames, 'queryCname'), resolveNs: answer(nameServers, 'queryNs') }),
});
const run = () => preflight(stage(), clients(), new Date('2026-11-28T12:00:00Z'));
const find = (checks: Check[], start: string) => {
  const found = checks.find((c) => c.title.startsWith(start));
  if (!found) throw new Error(`no check "${start}" in:\n${report(checks)}`);
  return found;
};

beforeEach(everythingPresent);

describe('a ready account', () => {
  it('passes every check, and the report prints no secret value', async () => {
    const checks = await run();
    expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(passed(checks)).toBe(true);
    expect(checks.map((c) => c.title)).toEqual([
      `credentials for account ${ACCOUNT}`,
      'region eu-south-1 enabled (every stack)',
      'region eu-central-1 enabled (Textract for scanned attestations)',
      'CDK bootstrap in eu-south-1 (every stack)',
      'CDK bootstrap in us-east-1 (CloudFront: its certificate, web ACL and alarms)',
      'secret portale-servizi-sociali/spid-gateway-client-secret (the SPID/CIE gateway client secret)',
      'secret portale-servizi-sociali/mypay (the council’s MyPay access)',
      'secret portale-servizi-sociali/io-api-key (the IO service’s key)',
      "the IO service's organisation is MyPay's creditor entity (organizationFiscalCode of portale-servizi-sociali/io-api-key = creditorFiscalCode of portale-servizi-sociali/mypay)",
      'SES identity comune.fantasia.it verified in eu-south-1 (sender noreply@comune.fantasia.it)',
      'SES account out of the sandbox in eu-south-1',
      'certificate for servizisociali.comune.fantasia.it in us-east-1 (CloudFront)',
      'DNS record servizisociali.comune.fantasia.it → the site (CNAME or Route 53 alias to the output DistributionDomainName of PortaleProdWeb)',
      'certificate for api.servizisociali.comune.fantasia.it in eu-south-1 (the API’s own domain, CloudFront’s origin)',
      'DNS record api.servizisociali.comune.fantasia.it → the API (CNAME or Route 53 alias to the output ApiDomainTarget of PortaleProdData)',
      "Cognito domain servizisociali-fantasia.auth.eu-south-1.amazoncognito.com free (or the stage's own)",
      'Lambda concurrency quota in eu-south-1 (at least 1000)',
      expect.stringMatching(/^PDND key's kid equal to pdndKid in .*prod\.json$/),
    ]);
    expect(find(checks, 'Cognito domain').detail).toBe(
      'SPID/CIE redirect URI: https://servizisociali-fantasia.auth.eu-south-1.amazoncognito.com/oauth2/idpresponse',
    );
    const printed = report(checks);
    for (const value of [PASSWORD, IO_KEY, 'Sp1dCl13ntS3cr3tValue', '80012340123', 'C_F999'])
      expect(printed).not.toContain(value);
  });
});

describe('npm run deploy -- <stage> --data-only (the first deploy, before the PDND kid and the secrets exist)', () => {
  const { needs } = deployPlan({ stackPrefix: 'PortaleProd' }, true);

  it('needs only the account, the regions, the bootstrap and the API domain’s certificate', async () => {
    expect((await run()).filter(needs!).map((c) => c.title)).toEqual([
      `credentials for account ${ACCOUNT}`,
      'region eu-south-1 enabled (every stack)',
      'region eu-central-1 enabled (Textract for scanned attestations)',
      'CDK bootstrap in eu-south-1 (every stack)',
      'CDK bootstrap in us-east-1 (CloudFront: its certificate, web ACL and alarms)',
      'certificate for api.servizisociali.comune.fantasia.it in eu-south-1 (the API’s own domain, CloudFront’s origin)',
    ]);
  });

  it('goes on without the MyPay secret, and stops without the bootstrap', async () => {
    delete secretValues['portale-servizi-sociali/mypay'];
    try {
      const checks = await run();
      expect(passed(checks)).toBe(false);
      expect(passed(checks.filter(needs!))).toBe(true);
    } finally {
      everythingPresentSecrets();
    }
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).rejects(notFound('ValidationError', 'no CDKToolkit'));
    expect(passed((await run()).filter(needs!))).toBe(false);
  });
});

describe('each missing piece, with its fix', () => {
  it('credentials of another account', async () => {
    sts.on(GetCallerIdentityCommand).resolves({ Account: '444455556666' });
    const checks = await run();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: 'missing', detail: expect.stringContaining('444455556666') });
    expect(checks[0]!.fix![0]).toContain(`AWS_PROFILE=<profile of ${ACCOUNT}>`);
  });

  it('the opt-in region not enabled: nothing else is read there', async () => {
    account.on(GetRegionOptStatusCommand, { RegionName: 'eu-south-1' }).resolves({ RegionOptStatus: 'DISABLED' });
    const checks = await run();
    expect(find(checks, 'region eu-south-1')).toMatchObject({
      status: 'missing',
      detail: 'the region is DISABLED',
      fix: expect.arrayContaining(['aws account enable-region --region-name eu-south-1']),
    });
    expect(checks.some((c) => c.title.startsWith('CDK bootstrap'))).toBe(false);
    expect(passed(checks)).toBe(false);
  });

  it('a region still being enabled: wait', async () => {
    account.on(GetRegionOptStatusCommand, { RegionName: 'eu-south-1' }).resolves({ RegionOptStatus: 'ENABLING' });
    expect(find(await run(), 'region eu-south-1').fix).toEqual([
      'aws account get-region-opt-status --region-name eu-south-1   (until ENABLED)',
    ]);
  });

  it('no CDK bootstrap in us-east-1, or an old one in Milan', async () => {
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).callsFake(async (_input, getClient) => {
      if ((await getClient().config.region()) === 'us-east-1')
        throw notFound('ValidationError', 'Stack with id CDKToolkit does not exist');
      return {
        Stacks: [
          {
            StackName: 'CDKToolkit',
            StackStatus: 'CREATE_COMPLETE',
            CreationTime: new Date(),
            Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '4' }],
          },
        ],
      };
    });
    const checks = await run();
    expect(find(checks, 'CDK bootstrap in us-east-1')).toMatchObject({
      status: 'missing',
      detail: 'no CDKToolkit stack',
      fix: [`npx cdk bootstrap aws://${ACCOUNT}/us-east-1`],
    });
    expect(find(checks, 'CDK bootstrap in eu-south-1')).toMatchObject({
      status: 'missing',
      detail: 'bootstrap version 4, at least 6 needed',
      fix: [`npx cdk bootstrap aws://${ACCOUNT}/eu-south-1`],
    });
  });

  it('a missing secret: the command that creates it, with its fields and no value', async () => {
    delete secretValues['portale-servizi-sociali/mypay'];
    try {
      const check = find(await run(), 'secret portale-servizi-sociali/mypay');
      expect(check).toMatchObject({ status: 'missing', detail: 'no secret of this name in eu-south-1' });
      expect(check.fix).toEqual([
        `aws secretsmanager create-secret --region eu-south-1 --name portale-servizi-sociali/mypay --secret-string '{"endpoint":"<endpoint>","codIpa":"<codIpa>","password":"<password>","creditorFiscalCode":"<creditorFiscalCode>"}'`,
      ]);
    } finally {
      everythingPresentSecrets();
    }
  });

  it('a secret without a field the code reads, or not JSON', async () => {
    secretValues['portale-servizi-sociali/io-api-key'] = JSON.stringify({ organizationFiscalCode: '80012340123' });
    secretValues['portale-servizi-sociali/mypay'] = 'just-a-password';
    try {
      const checks = await run();
      expect(find(checks, 'secret portale-servizi-sociali/io-api-key')).toMatchObject({
        status: 'missing',
        detail: 'missing or empty field: apiKey',
      });
      expect(find(checks, 'secret portale-servizi-sociali/mypay')).toMatchObject({
        status: 'missing',
        detail: expect.stringContaining('not a JSON object'),
      });
      expect(report(checks)).not.toContain('just-a-password');
    } finally {
      everythingPresentSecrets();
    }
  });

  it('the IO service of another body than MyPay’s creditor', async () => {
    secretValues['portale-servizi-sociali/io-api-key'] = JSON.stringify({
      apiKey: IO_KEY,
      organizationFiscalCode: '00000000001',
    });
    try {
      const checks = await run();
      expect(find(checks, "the IO service's organisation")).toMatchObject({
        status: 'missing',
        detail: expect.stringContaining('differ'),
      });
      expect(report(checks)).not.toContain('00000000001');
    } finally {
      everythingPresentSecrets();
    }
  });

  it('on pagoPA GPD: the GPD keys’ secret instead of MyPay’s, its fields checked, and IO’s organisation against gpdOrganizationFiscalCode', async () => {
    const gpdSettings = {
      paymentPlatform: 'gpd',
      gpdEnvironment: 'uat',
      gpdSecretName: 'portale/gpd-uat',
      gpdOrganizationFiscalCode: '80012340123',
      gpdCompanyName: 'Comune di Fantasia',
      gpdSegregationCode: '47',
      gpdIban: 'IT60X0542811101000000123456',
      gpdTaxonomyCode: '9/0101108TS/',
    };
    writeFileSync(path.join(dir, 'prod-gpd.json'), JSON.stringify({ ...settings, pdndKid: kid, ...gpdSettings }));
    const runGpd = () => preflight(loadStage('prod-gpd', dir), clients(), new Date('2026-11-28T12:00:00Z'));
    delete secretValues['portale-servizi-sociali/mypay'];
    secretValues['portale/gpd-uat'] = JSON.stringify({
      apiKey: 'gpd-key-0123456789',
      receiptsKey: 'receipts-key-0123456789',
    });
    try {
      let checks = await runGpd();
      expect(checks.filter((c) => c.status !== 'ok')).toEqual([]);
      expect(checks.some((c) => c.title.includes('portale-servizi-sociali/mypay'))).toBe(false);
      expect(find(checks, 'secret portale/gpd-uat')).toMatchObject({
        title: 'secret portale/gpd-uat (the council’s pagoPA GPD keys (uat))',
        detail: 'fields apiKey, receiptsKey present',
      });
      expect(find(checks, "the IO service's organisation is pagoPA GPD's creditor entity").status).toBe('ok');
      expect(report(checks)).not.toMatch(/gpd-key-0123456789|receipts-key-0123456789/);

      secretValues['portale/gpd-uat'] = JSON.stringify({ apiKey: 'gpd-key-0123456789' });
      secretValues['portale-servizi-sociali/io-api-key'] = JSON.stringify({
        apiKey: IO_KEY,
        organizationFiscalCode: '00000000001',
      });
      checks = await runGpd();
      expect(find(checks, 'secret portale/gpd-uat')).toMatchObject({
        status: 'missing',
        detail: 'missing or empty field: receiptsKey',
        fix: [
          expect.stringContaining(
            `--secret-id portale/gpd-uat --secret-string '{"apiKey":"<apiKey>","receiptsKey":"<receiptsKey>"}'`,
          ),
        ],
      });
      expect(find(checks, "the IO service's organisation is pagoPA GPD's creditor entity")).toMatchObject({
        status: 'missing',
        fix: expect.arrayContaining([expect.stringContaining('gpdOrganizationFiscalCode in')]),
      });
      expect(passed(checks)).toBe(false);
    } finally {
      delete secretValues['portale/gpd-uat'];
      everythingPresentSecrets();
    }
  });

  it('the SES identity missing, or not verified', async () => {
    ses.on(GetEmailIdentityCommand).rejects(notFound('NotFoundException'));
    expect(find(await run(), 'SES identity')).toMatchObject({
      status: 'missing',
      fix: expect.arrayContaining([
        'aws sesv2 create-email-identity --region eu-south-1 --email-identity comune.fantasia.it',
      ]),
    });
    ses
      .on(GetEmailIdentityCommand)
      .resolves({ VerifiedForSendingStatus: false, DkimAttributes: { Status: 'PENDING' } });
    expect(find(await run(), 'SES identity')).toMatchObject({
      status: 'missing',
      detail: expect.stringContaining('DKIM PENDING'),
    });
  });

  it('the SES account in the sandbox', async () => {
    ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: false });
    const check = find(await run(), 'SES account out of the sandbox');
    expect(check.status).toBe('missing');
    expect(check.fix![0]).toContain(
      'aws sesv2 put-account-details --region eu-south-1 --production-access-enabled --mail-type TRANSACTIONAL --website-url https://servizisociali.comune.fantasia.it',
    );
  });

  it('a certificate pending, for another domain, expired, or absent', async () => {
    acm
      .on(DescribeCertificateCommand)
      .resolves({ Certificate: { Status: 'PENDING_VALIDATION', DomainName: 'servizisociali.comune.fantasia.it' } });
    expect(find(await run(), 'certificate')).toMatchObject({
      status: 'missing',
      detail: 'the certificate is PENDING_VALIDATION',
    });
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: {
        Status: 'ISSUED',
        DomainName: 'www.comune.fantasia.it',
        SubjectAlternativeNames: ['*.other.fantasia.it'],
      },
    });
    expect(find(await run(), 'certificate')).toMatchObject({
      status: 'missing',
      detail:
        'the certificate is for www.comune.fantasia.it, *.other.fantasia.it, not servizisociali.comune.fantasia.it',
    });
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: {
        Status: 'ISSUED',
        DomainName: 'servizisociali.comune.fantasia.it',
        NotAfter: new Date('2026-01-01T00:00:00Z'),
      },
    });
    expect(find(await run(), 'certificate')).toMatchObject({
      status: 'missing',
      detail: 'the certificate expired on 2026-01-01',
    });
    acm.on(DescribeCertificateCommand).rejects(notFound('ResourceNotFoundException'));
    expect(find(await run(), 'certificate').fix![0]).toBe(
      'aws acm request-certificate --region us-east-1 --domain-name servizisociali.comune.fantasia.it --validation-method DNS',
    );
  });

  it('the API’s certificate looked for in the stage’s region, and absent there', async () => {
    acm
      .on(DescribeCertificateCommand, { CertificateArn: settings.apiCertificateArn })
      .rejects(notFound('ResourceNotFoundException'));
    const checks = await run();
    expect(find(checks, 'certificate for servizisociali')).toMatchObject({ status: 'ok' });
    expect(find(checks, 'certificate for api.')).toMatchObject({
      status: 'missing',
      detail: `no certificate ${settings.apiCertificateArn} in eu-south-1`,
      fix: [
        'aws acm request-certificate --region eu-south-1 --domain-name api.servizisociali.comune.fantasia.it --validation-method DNS',
        'publish the CNAME record it asks for (aws acm describe-certificate --region eu-south-1 --certificate-arn <arn>), then set apiCertificateArn to its ARN',
      ],
    });
    expect(acm.commandCalls(DescribeCertificateCommand, { CertificateArn: settings.apiCertificateArn })).toHaveLength(
      1,
    );
    const region = await acm
      .commandCalls(DescribeCertificateCommand, { CertificateArn: settings.apiCertificateArn })[0]!
      .thisValue.config.region();
    expect(region).toBe('eu-south-1');
  });

  it('the API’s domain not pointed at the data stack’s ApiDomainTarget, or the data stack not deployed yet', async () => {
    const title = 'DNS record api.';
    cnames.set('api.servizisociali.comune.fantasia.it', 'servizisociali.comune.fantasia.it');
    expect(find(await run(), title)).toMatchObject({
      status: 'missing',
      detail: `api.servizisociali.comune.fantasia.it is a CNAME of servizisociali.comune.fantasia.it, not ${API_DOMAIN_TARGET}`,
      fix: [
        `in the council's DNS: api.servizisociali.comune.fantasia.it CNAME ${API_DOMAIN_TARGET}`,
        'then wait until it resolves: dig +short CNAME api.servizisociali.comune.fantasia.it',
      ],
    });
    cnames.clear();
    expect(find(await run(), title)).toMatchObject({
      status: 'missing',
      detail:
        'api.servizisociali.comune.fantasia.it has no CNAME record, and no Route 53 hosted zone of this account holds it',
    });
    cfn
      .on(DescribeStacksCommand, { StackName: 'PortaleProdData' })
      .rejects(notFound('ValidationError', 'Stack with id PortaleProdData does not exist'));
    const checks = await run();
    expect(find(checks, title)).toMatchObject({
      status: 'missing',
      fix: [
        'npm run deploy -- prod --data-only',
        expect.stringContaining("then in the council's DNS: api.servizisociali.comune.fantasia.it CNAME <the output"),
      ],
    });
    expect(passed(checks)).toBe(false);
  });

  it('the API’s domain as a Route 53 alias (an A record: no CNAME in the public DNS), read from the account’s hosted zone', async () => {
    const title = 'DNS record api.';
    cnames.delete('api.servizisociali.comune.fantasia.it');
    const zone = (Id: string, Name: string, PrivateZone = false) => ({
      Id: `/hostedzone/${Id}`,
      Name,
      CallerReference: Id,
      Config: { PrivateZone },
    });
    // The longest public zone that holds the name is the one read; a private zone of that name never is.
    route53.on(ListHostedZonesCommand).resolves({
      HostedZones: [
        zone('ZPARENT', 'fantasia.it.'),
        zone('ZCOMUNE', 'comune.fantasia.it.'),
        zone('ZPRIVATE', 'servizisociali.comune.fantasia.it.', true),
      ],
      IsTruncated: false,
      Marker: '',
      MaxItems: 100,
    });
    const aliasTo = (DNSName: string) => ({
      ResourceRecordSets: [
        {
          Name: 'api.servizisociali.comune.fantasia.it.',
          Type: 'A' as const,
          AliasTarget: { HostedZoneId: API_DOMAIN_ZONE, DNSName, EvaluateTargetHealth: false },
        },
        {
          Name: 'b.servizisociali.comune.fantasia.it.',
          Type: 'A' as const,
          AliasTarget: { HostedZoneId: API_DOMAIN_ZONE, DNSName: `${API_DOMAIN_TARGET}.`, EvaluateTargetHealth: false },
        },
      ],
      IsTruncated: false,
      MaxItems: 10,
    });
    route53
      .on(ListResourceRecordSetsCommand, { HostedZoneId: 'ZCOMUNE' })
      .resolves(aliasTo(`${API_DOMAIN_TARGET.toUpperCase()}.`));
    const servers = ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'];
    route53.on(GetHostedZoneCommand, { Id: 'ZCOMUNE' }).resolves({
      HostedZone: zone('ZCOMUNE', 'comune.fantasia.it.'),
      DelegationSet: { NameServers: servers },
    });
    // Delegated: the internet asks the zone's name servers.
    nameServers.set('comune.fantasia.it', [`${servers[1]}.`]);
    expect(find(await run(), title)).toMatchObject({
      status: 'ok',
      detail: `Route 53 alias A record in the zone comune.fantasia.it → ${API_DOMAIN_TARGET}`,
    });
    expect(route53.commandCalls(ListResourceRecordSetsCommand)[0]!.args[0].input).toMatchObject({
      HostedZoneId: 'ZCOMUNE',
      StartRecordName: 'api.servizisociali.comune.fantasia.it',
    });

    // The zone is in the account, but the domain's registrar still sends the internet elsewhere.
    nameServers.set('comune.fantasia.it', ['dns1.provider.example']);
    expect(find(await run(), title)).toMatchObject({
      status: 'missing',
      detail:
        'the Route 53 zone comune.fantasia.it (ZCOMUNE) has the alias A record, but the internet asks other name servers for comune.fantasia.it (dns1.provider.example)',
      fix: [
        `delegate comune.fantasia.it to the zone's name servers (NS records at its parent or registrar): ${servers.join(' ')}`,
      ],
    });

    // An alias to something else (the distribution: CloudFront would ask itself), and none at all.
    nameServers.set('comune.fantasia.it', servers);
    route53.on(ListResourceRecordSetsCommand, { HostedZoneId: 'ZCOMUNE' }).resolves(aliasTo(`${DISTRIBUTION}.`));
    const wrong = find(await run(), title);
    expect(wrong).toMatchObject({
      status: 'missing',
      detail: `api.servizisociali.comune.fantasia.it has no CNAME record, and the Route 53 zone comune.fantasia.it (ZCOMUNE) of this account has an alias A to ${DISTRIBUTION} for it, not one to ${API_DOMAIN_TARGET}`,
    });
    route53
      .on(ListResourceRecordSetsCommand, { HostedZoneId: 'ZCOMUNE' })
      .resolves({ ResourceRecordSets: [], IsTruncated: false, MaxItems: 10 });
    const none = find(await run(), title);
    expect(none.detail).toBe(
      'api.servizisociali.comune.fantasia.it has no CNAME record, and the Route 53 zone comune.fantasia.it (ZCOMUNE) of this account has no alias record for it',
    );
    // The fix makes the alias with the target's own hosted zone (the data stack's output ApiDomainHostedZoneId).
    const command = none.fix![0]!;
    expect(command.startsWith('aws route53 change-resource-record-sets --hosted-zone-id ZCOMUNE --change-batch ')).toBe(
      true,
    );
    expect(JSON.parse(command.match(/--change-batch '(.+)'$/)![1]!)).toEqual({
      Changes: [
        {
          Action: 'UPSERT',
          ResourceRecordSet: {
            Name: 'api.servizisociali.comune.fantasia.it',
            Type: 'A',
            AliasTarget: { HostedZoneId: API_DOMAIN_ZONE, DNSName: API_DOMAIN_TARGET, EvaluateTargetHealth: false },
          },
        },
      ],
    });
    expect(passed(await run())).toBe(false);
  });

  it('the portal’s domain: for later before the first deploy, then a CNAME or an alias to the distribution', async () => {
    const title = 'DNS record servizisociali.';
    cfn
      .on(DescribeStacksCommand, { StackName: 'PortaleProdWeb' })
      .rejects(notFound('ValidationError', 'Stack with id PortaleProdWeb does not exist'));
    const first = await run();
    expect(find(first, title)).toMatchObject({
      status: 'later',
      fix: [
        "after npm run deploy -- prod: in the council's DNS, servizisociali.comune.fantasia.it CNAME <the output DistributionDomainName of PortaleProdWeb> (or a Route 53 alias A record to it, hosted zone Z2FDTNDATAQYW2)",
      ],
    });
    expect(passed(first)).toBe(true);

    everythingPresent();
    cnames.set('servizisociali.comune.fantasia.it', 'old-portal.comune.fantasia.it');
    const redeploy = await run();
    expect(find(redeploy, title)).toMatchObject({
      status: 'missing',
      detail: `servizisociali.comune.fantasia.it is a CNAME of old-portal.comune.fantasia.it, not ${DISTRIBUTION}`,
    });
    expect(passed(redeploy)).toBe(false);
  });

  it('the Cognito domain prefix taken by another pool, and accepted when it is the stage’s own', async () => {
    cognito
      .on(DescribeUserPoolDomainCommand)
      .resolves({ DomainDescription: { UserPoolId: 'eu-south-1_Other', Domain: 'servizisociali-fantasia' } });
    expect(find(await run(), 'Cognito domain')).toMatchObject({
      status: 'missing',
      detail: expect.stringContaining('taken by another user pool'),
    });
    cognito
      .on(DescribeUserPoolDomainCommand)
      .resolves({ DomainDescription: { UserPoolId: 'eu-south-1_Ours', Domain: 'servizisociali-fantasia' } });
    cfn.on(DescribeStackResourcesCommand, { StackName: 'PortaleProdAuth' }).resolves({
      StackResources: [
        {
          LogicalResourceId: 'Users',
          ResourceType: 'AWS::Cognito::UserPool',
          PhysicalResourceId: 'eu-south-1_Ours',
          ResourceStatus: 'CREATE_COMPLETE',
          Timestamp: new Date(),
        },
      ],
    });
    expect(find(await run(), 'Cognito domain')).toMatchObject({
      status: 'ok',
      detail: "the domain of this stage's user pool (PortaleProdAuth)",
    });
  });

  it('a new account’s Lambda concurrency quota', async () => {
    lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 10 } });
    const check = find(await run(), 'Lambda concurrency');
    expect(check).toMatchObject({ status: 'missing', detail: 'the account may run 10 functions at once' });
    expect(check.fix![0]).toBe(
      'aws service-quotas request-service-quota-increase --region eu-south-1 --service-code lambda --quota-code L-B99A9384 --desired-value 1000',
    );
  });

  it('a kid that is not the PDND key’s, and no data stack yet', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' });
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(other) });
    const wrong = find(await run(), "PDND key's kid");
    expect(wrong.status).toBe('missing');
    expect(wrong.detail).toContain(`says ${kid}`);
    cfn
      .on(DescribeStacksCommand, { StackName: 'PortaleProdData' })
      .rejects(notFound('ValidationError', 'Stack with id PortaleProdData does not exist'));
    const later = find(await run(), "PDND key's kid");
    expect(later).toMatchObject({
      status: 'later',
      fix: expect.arrayContaining(['npm run deploy -- prod --data-only']),
    });
    expect(passed([later])).toBe(true);
  });
});

function everythingPresentSecrets() {
  secretValues['portale-servizi-sociali/mypay'] = JSON.stringify({
    endpoint: 'https://mypay.regione.example/pa',
    codIpa: 'C_F999',
    password: PASSWORD,
    creditorFiscalCode: '80012340123',
  });
  secretValues['portale-servizi-sociali/io-api-key'] = JSON.stringify({
    apiKey: IO_KEY,
    organizationFiscalCode: '80012340123',
  });
}
