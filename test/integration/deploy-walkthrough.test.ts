/**
 * The README's deploy section ("From an empty account to a running portal"), walked against stand-ins: the
 * stage's file → the preflight (on a stand-in account that answers the SDK's commands from its state) → the synth
 * of the stage → the smoke test on the local stack. Each step fails as the README says when its piece is missing.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passed, preflight, type PreflightClients } from '../../lib/preflight.ts';
import { scratchApp } from '../../lib/scratch-app.ts';
import { smoke } from '../../lib/smoke.ts';
import { loadStage } from '../../lib/stage-config.ts';
import { completeProduction } from '../support/stages.ts';
import { startTestStack } from '../support/stack.ts';

const ACCOUNT = '111122223333';
const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = await calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as JWK);

/** Step 1: the stage's file, every outside setting filled in. */
const stageFile = {
  ...completeProduction,
  account: ACCOUNT,
  certificateArn: `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/3f8a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b`,
  pdndKid: kid,
};

/** The account as the README's steps 2–9 leave it. */
interface Account {
  enabledRegions: Set<string>;
  bootstrapped: Set<string>;
  secrets: Map<string, string>;
  verifiedIdentities: Set<string>;
  outOfSandbox: boolean;
  concurrency: number;
  dataStackDeployed: boolean;
  /** The council's DNS: the CNAME records it publishes. */
  cnames: Map<string, string>;
  /** Or a hosted zone of the account's in Route 53: its alias records (name → target), and whether it is delegated. */
  zone?: { name: string; aliases: Map<string, string>; delegated: boolean };
}
const ZONE_SERVERS = ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.net'];
/** The regional domain the data stack's ApiDomain gets (its output ApiDomainTarget). */
const API_DOMAIN_TARGET = 'd-abc123xyz.execute-api.eu-south-1.amazonaws.com';
const readyAccount = (): Account => ({
  enabledRegions: new Set(['eu-south-1', 'eu-central-1', 'us-east-1']),
  bootstrapped: new Set(['eu-south-1', 'us-east-1']),
  secrets: new Map([
    ['portale-servizi-sociali/spid-gateway-client-secret', 'the-gateway-secret'],
    [
      'portale-servizi-sociali/mypay',
      JSON.stringify({
        endpoint: 'https://mypay.example.test/pa',
        codIpa: 'C_F999',
        password: 'pw',
        creditorFiscalCode: '80012340123',
      }),
    ],
    ['portale-servizi-sociali/io-api-key', JSON.stringify({ apiKey: 'key', organizationFiscalCode: '80012340123' })],
  ]),
  verifiedIdentities: new Set(['comune.fantasia.it']),
  outOfSandbox: true,
  concurrency: 1000,
  dataStackDeployed: true,
  cnames: new Map([[stageFile.apiDomainName, API_DOMAIN_TARGET]]),
});

const error = (name: string) => Object.assign(new Error(name), { name });

/** A stand-in of the account: each SDK command the preflight sends is answered from the account's state. */
function standIn(account: Account): PreflightClients {
  const answer = (region: string) => ({
    send: async (command: { constructor: { name: string }; input: Record<string, string> }) => {
      const input = command.input;
      switch (command.constructor.name) {
        case 'GetCallerIdentityCommand':
          return { Account: ACCOUNT };
        case 'GetRegionOptStatusCommand':
          return { RegionOptStatus: account.enabledRegions.has(input.RegionName!) ? 'ENABLED' : 'DISABLED' };
        case 'DescribeStacksCommand':
          if (input.StackName === 'CDKToolkit' && account.bootstrapped.has(region))
            return {
              Stacks: [
                { StackStatus: 'CREATE_COMPLETE', Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '28' }] },
              ],
            };
          if (input.StackName === 'PortaleProdData' && account.dataStackDeployed)
            return {
              Stacks: [
                {
                  StackStatus: 'CREATE_COMPLETE',
                  Outputs: [
                    { OutputKey: 'PdndClientKeyArn', OutputValue: 'arn:aws:kms:eu-south-1:111122223333:key/k' },
                    { OutputKey: 'ApiDomainTarget', OutputValue: API_DOMAIN_TARGET },
                  ],
                },
              ],
            };
          throw error('ValidationError');
        case 'DescribeStackResourcesCommand':
          throw error('ValidationError');
        case 'GetSecretValueCommand':
          if (!account.secrets.has(input.SecretId!)) throw error('ResourceNotFoundException');
          return { SecretString: account.secrets.get(input.SecretId!) };
        case 'GetEmailIdentityCommand':
          if (!account.verifiedIdentities.has(input.EmailIdentity!)) throw error('NotFoundException');
          return { VerifiedForSendingStatus: true };
        case 'GetAccountCommand':
          return { ProductionAccessEnabled: account.outOfSandbox };
        case 'DescribeCertificateCommand':
          return {
            Certificate: {
              Status: 'ISSUED',
              DomainName:
                input.CertificateArn === stageFile.apiCertificateArn
                  ? stageFile.apiDomainName
                  : stageFile.webDomainName,
              NotAfter: new Date(Date.now() + 90 * 86_400_000),
            },
          };
        case 'DescribeUserPoolDomainCommand':
          return { DomainDescription: {} };
        case 'GetAccountSettingsCommand':
          return { AccountLimit: { ConcurrentExecutions: account.concurrency } };
        case 'ListHostedZonesCommand':
          return {
            HostedZones: account.zone
              ? [{ Id: '/hostedzone/ZCOUNCIL', Name: `${account.zone.name}.`, Config: {} }]
              : [],
          };
        case 'ListResourceRecordSetsCommand':
          return {
            ResourceRecordSets: [...account.zone!.aliases].map(([name, target]) => ({
              Name: `${name}.`,
              Type: 'A',
              AliasTarget: { DNSName: `${target}.`, HostedZoneId: 'ZAPIGW', EvaluateTargetHealth: false },
            })),
          };
        case 'GetHostedZoneCommand':
          return { DelegationSet: { NameServers: ZONE_SERVERS } };
        case 'GetPublicKeyCommand':
          return { PublicKey: new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })) };
        default:
          throw new Error(`the stand-in account does not answer ${command.constructor.name}`);
      }
    },
  });
  const client = (region = 'us-east-1') => answer(region) as never;
  return {
    sts: client,
    account: client,
    cloudFormation: client,
    secrets: client,
    ses: client,
    acm: client,
    cognito: client,
    lambda: client,
    kms: client,
    route53: client,
    dns: () => ({
      resolveCname: async (name: string) => {
        const target = account.cnames.get(name);
        if (!target) throw Object.assign(new Error(`queryCname ENODATA ${name}`), { code: 'ENODATA' });
        return [target];
      },
      resolveNs: async (name: string) => {
        if (account.zone?.name !== name || !account.zone.delegated)
          throw Object.assign(new Error(`queryNs ENODATA ${name}`), { code: 'ENODATA' });
        return ZONE_SERVERS;
      },
    }),
  };
}

let dir: string;
let site: string;
let stack: Awaited<ReturnType<typeof startTestStack>>;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-walkthrough-'));
  await fs.writeFile(path.join(dir, 'prod.json'), JSON.stringify(stageFile, null, 2));
  site = await fs.mkdtemp(path.join(os.tmpdir(), 'portale-walkthrough-site-'));
  await fs.writeFile(path.join(site, 'index.html'), '<!doctype html><html lang="it"><title>Portale</title></html>');
  stack = await startTestStack({ web: 'dist', seed: false, webDist: site });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(site, { recursive: true, force: true });
});

const stage = () => loadStage('prod', dir);
const missing = async (account: Account) =>
  (await preflight(stage(), standIn(account))).filter((c) => c.status === 'missing');

describe('the README’s deploy section, step by step', () => {
  it('goes through: the file, the preflight, the synth, the smoke test', async () => {
    const checks = await preflight(stage(), standIn(readyAccount()));
    // The one piece for after the deploy: the portal's domain, which leads to a distribution not made yet.
    expect(checks.filter((c) => c.status !== 'ok').map((c) => [c.status, c.title])).toEqual([
      [
        'later',
        `DNS record ${stageFile.webDomainName} → the site (CNAME or Route 53 alias to the output DistributionDomainName of PortaleProdWeb)`,
      ],
    ]);
    expect(passed(checks)).toBe(true);

    const portal = scratchApp({ bundle: false, nag: false, configDir: dir, context: { stage: 'prod' } });
    try {
      expect(portal.warnings).toEqual([]);
      expect(portal.stacks.map((s) => s.stackName).slice(0, 2)).toEqual(['PortaleProdEdge', 'PortaleProdData']);
    } finally {
      portal.dispose();
    }

    const smoked = await smoke({ siteUrl: stack.appUrl, expectedProvider: stack.issuer });
    expect(smoked.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(smoked).toHaveLength(4);
  }, 300_000);

  it('stops at the preflight on a missing secret, naming it and the command that creates it', async () => {
    const account = readyAccount();
    account.secrets.delete('portale-servizi-sociali/io-api-key');
    const [problem, ...others] = await missing(account);
    expect(others).toEqual([]);
    expect(problem!.title).toContain('secret portale-servizi-sociali/io-api-key');
    expect(problem!.fix![0]).toContain(
      'aws secretsmanager create-secret --region eu-south-1 --name portale-servizi-sociali/io-api-key',
    );
  });

  it('stops at the preflight on the opt-in region not enabled', async () => {
    const account = readyAccount();
    account.enabledRegions.delete('eu-south-1');
    const problems = await missing(account);
    expect(problems.map((p) => p.title)).toEqual(['region eu-south-1 enabled (every stack)']);
    expect(problems[0]!.fix).toContain('aws account enable-region --region-name eu-south-1');
  });

  it('stops at the preflight on an SES identity not verified', async () => {
    const account = readyAccount();
    account.verifiedIdentities.clear();
    const problems = await missing(account);
    expect(problems.map((p) => p.title)).toEqual([
      'SES identity comune.fantasia.it verified in eu-south-1 (sender noreply@comune.fantasia.it)',
    ]);
  });

  it('stops at the preflight until the API’s domain points at the data stack’s ApiDomainTarget (CloudFront’s origin)', async () => {
    // A fresh account: the data stack (npm run deploy -- prod --data-only) makes the API's domain and its target.
    const fresh = readyAccount();
    fresh.dataStackDeployed = false;
    fresh.cnames.clear();
    const before = (await missing(fresh)).find((p) => p.title.startsWith('DNS record'))!;
    expect(before.title).toBe(
      `DNS record ${stageFile.apiDomainName} → the API (CNAME or Route 53 alias to the output ApiDomainTarget of PortaleProdData)`,
    );
    expect(before.fix![0]).toBe('npm run deploy -- prod --data-only');

    // Deployed, but the council has not published the record yet: the preflight names the record to publish.
    const deployed = readyAccount();
    deployed.cnames.clear();
    const problems = await missing(deployed);
    expect(problems.map((p) => [p.detail, p.fix?.[0]])).toEqual([
      [
        `${stageFile.apiDomainName} has no CNAME record, and no Route 53 hosted zone of this account holds it`,
        `in the council's DNS: ${stageFile.apiDomainName} CNAME ${API_DOMAIN_TARGET}`,
      ],
    ]);

    // The council's zone in Route 53 instead: an alias record, which counts once the zone is delegated.
    const route53 = readyAccount();
    route53.cnames.clear();
    route53.zone = {
      name: 'comune.fantasia.it',
      aliases: new Map([[stageFile.apiDomainName, API_DOMAIN_TARGET]]),
      delegated: false,
    };
    expect((await missing(route53)).map((p) => p.fix?.[0])).toEqual([
      `delegate comune.fantasia.it to the zone's name servers (NS records at its parent or registrar): ${ZONE_SERVERS.join(' ')}`,
    ]);
    route53.zone.delegated = true;
    expect(await missing(route53)).toEqual([]);
  });

  it('stops at the synth on a placeholder in production', async () => {
    await fs.writeFile(
      path.join(dir, 'prod-placeholder.json'),
      JSON.stringify({ ...stageFile, mailFrom: 'noreply@comune.example.it' }),
    );
    expect(() =>
      scratchApp({ bundle: false, nag: false, configDir: dir, context: { stage: 'prod-placeholder' } }),
    ).toThrow(
      /prod-placeholder\.json is a production stage and still has placeholders[\s\S]*mailFrom is the placeholder "noreply@comune\.example\.it"/,
    );
  }, 120_000);
});
