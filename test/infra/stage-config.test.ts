import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CfnResource } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { CONFIG_DIR, loadStage, stackNamesOf, stageConfigSchema } from '../../lib/stage-config.ts';
import { scratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';
import { completeProduction } from '../support/stages.ts';

/**
 * A stage's settings are one versioned file, config/<stage>.json, read by every synth of that stage
 * (`cdk synth -c stage=<stage>`): a production stage refuses placeholders and names them; staging warns.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'portale-stages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (stage: string, settings: unknown) =>
  writeFileSync(path.join(dir, `${stage}.json`), JSON.stringify(settings, null, 2));

const synth = (stage: string, context: Record<string, unknown> = {}) =>
  scratchApp({ bundle: false, nag: false, configDir: dir, context: { stage, ...context } });
const variablesOf = (portal: ReturnType<typeof synth>, fn: PortalFunction) => {
  const template = Template.fromStack(portal.api);
  const id = portal.api.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string;
  return template.findResources('AWS::Lambda::Function')[id]!.Properties.Environment.Variables as Record<
    string,
    unknown
  >;
};
/** The secrets a function's role may read (GetSecretValue), each resource as its template JSON (an ARN built with Fn::Join). */
const secretsReadBy = (portal: ReturnType<typeof synth>, fn: PortalFunction): string[] => {
  const template = Template.fromStack(portal.api);
  const role = portal.api.resolve((fn.role!.node.defaultChild as CfnResource).logicalId) as string;
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
    .flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    )
    .filter((statement) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'))
    .flatMap((statement) => [statement.Resource].flat().map((resource) => JSON.stringify(resource)));
};

describe('a production stage', () => {
  it('is built from its file alone: stack names, the sender, PDND and the alarm recipient come from config/<stage>.json', () => {
    write('prod', completeProduction);
    const portal = synth('prod');
    try {
      expect(portal.warnings).toEqual([]);
      // No webAclArn in the file: the portal's own web ACL, in us-east-1, is deployed first; CloudFront's alarms, in us-east-1, last.
      expect(portal.stacks.map((s) => s.stackName)).toEqual(
        stackNamesOf('PortaleProd', { edge: true, edgeAlarms: true }),
      );
      expect(stackNamesOf('PortaleProd', { edge: true, edgeAlarms: true })).toEqual([
        'PortaleProdEdge',
        'PortaleProdData',
        'PortaleProdAuth',
        'PortaleProdWeb',
        'PortaleProdApi',
        'PortaleProdIseeExtraction',
        'PortaleProdOperations',
        'PortaleProdEdgeAlarms',
      ]);
      expect(portal.edge!.region).toBe('us-east-1');
      expect(portal.edgeAlarms.region).toBe('us-east-1');
      expect(variablesOf(portal, portal.api.functions.tickets)).toMatchObject({
        MAIL_FROM: 'noreply@comune.fantasia.it',
        SUPPORT_EMAIL: 'servizisociali@comune.fantasia.it',
      });
      expect(variablesOf(portal, portal.api.functions.isee)).toMatchObject({
        PDND_CLIENT_ID: completeProduction.pdndClientId,
        PDND_KID: completeProduction.pdndKid,
      });
      const topic = Template.fromStack(portal.operations);
      topic.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'reperibile@comune.fantasia.it',
      });
    } finally {
      portal.dispose();
    }
  });

  it('on pagoPA GPD takes the payment platform and GPD’s settings from the file, with no setting left unread', () => {
    write('prod-gpd', {
      ...completeProduction,
      paymentPlatform: 'gpd',
      gpdEnvironment: 'uat',
      gpdSecretName: 'portale/gpd',
      gpdOrganizationFiscalCode: '00488410010',
      gpdCompanyName: 'Comune di Fantasia',
      gpdSegregationCode: '47',
      gpdIban: 'IT60X0542811101000000123456',
      gpdTaxonomyCode: '9/0101108TS/',
    });
    const portal = synth('prod-gpd');
    try {
      expect(portal.warnings).toEqual([]);
      // The functions that call the payment platform get GPD's settings and its secret's name, not MyPay's.
      const { PaymentJobs } = portal.api.backgroundJobs.jobFunctions;
      const callers = [portal.api.functions['user-positions'], PaymentJobs, portal.api.paymentExport.taskFunction];
      for (const fn of callers) {
        const variables = variablesOf(portal, fn);
        expect(variables).toMatchObject({
          PAYMENT_PLATFORM: 'gpd',
          GPD_BASE_URL: 'https://api.uat.platform.pagopa.it',
          GPD_SECRET_NAME: 'portale/gpd',
          GPD_ORGANIZATION_FISCAL_CODE: '00488410010',
          GPD_COMPANY_NAME: 'Comune di Fantasia',
          GPD_SEGREGATION_CODE: '47',
          GPD_IBAN: 'IT60X0542811101000000123456',
          GPD_TAXONOMY_CODE: '9/0101108TS/',
        });
        expect(variables).not.toHaveProperty('MYPAY_SECRET_NAME');
        const secrets = secretsReadBy(portal, fn);
        expect(secrets.filter((arn) => arn.includes('secret:portale/gpd-??????'))).toHaveLength(1);
        expect(secrets.some((arn) => arn.includes('mypay'))).toBe(false);
      }
      // The flows API learns only the platform's name (the flows page's title and what a flow shows), no secret.
      expect(variablesOf(portal, portal.api.functions.flows)).toMatchObject({ PAYMENT_PLATFORM: 'gpd' });
      expect(variablesOf(portal, portal.api.functions.flows)).not.toHaveProperty('GPD_SECRET_NAME');
      // A function that does not call the platform gets neither.
      expect(variablesOf(portal, portal.api.functions.tickets)).not.toHaveProperty('GPD_SECRET_NAME');
      expect(secretsReadBy(portal, portal.api.functions.tickets).some((arn) => arn.includes('portale/gpd'))).toBe(
        false,
      );
    } finally {
      portal.dispose();
    }
  });

  it('refuses every placeholder left, naming each setting and the file to change', () => {
    write('prod-placeholders', {
      production: true,
      stackPrefix: 'PortaleProd',
      mailFrom: 'noreply@comune.example.it',
      pdndKid: 'placeholder-kid-set-by-pdnd-back-office-000',
    });
    let message = '';
    try {
      synth('prod-placeholders').dispose();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('prod-placeholders.json is a production stage and still has placeholders');
    for (const key of [
      'webDomainName',
      'certificateArn',
      'apiDomainName',
      'apiCertificateArn',
      'authDomainPrefix',
      'supportEmail',
      'alarmEmail',
      'spidGatewayIssuer',
      'spidGatewayClientId',
      'pdndClientId',
      'inpsAttestazioneEndpoint',
      'inpsPurposeAttestazione',
      'inpsPurposeIndicatore',
      'inpsUserId',
      'accessibilityStatementUrl',
    ]) {
      expect(message).toMatch(new RegExp(`- ${key} is not set`));
    }
    expect(message).toContain('- mailFrom is the placeholder "noreply@comune.example.it"');
    expect(message).toContain('- pdndKid is the placeholder "placeholder-kid-set-by-pdnd-back-office-000"');
  });

  it('refuses the documented example as it is (its values are examples), and one placeholder alone', () => {
    expect(() => scratchApp({ bundle: false, nag: false, context: { stage: 'example' } })).toThrow(
      /config\/example\.json is a production stage[\s\S]*mailFrom is the placeholder "noreply@comune\.example\.it"/,
    );
    write('prod-one', { ...completeProduction, inpsUserId: '00000000000' });
    expect(() => synth('prod-one')).toThrow(
      /prod-one\.json is a production stage[\s\S]*- inpsUserId is the placeholder "00000000000"/,
    );
  });

  it('lets npm run deploy -- <stage> --data-only build the data stack before PDND has given a kid, but not without the domain', () => {
    write('prod-first', { ...completeProduction, pdndKid: undefined, pdndClientId: undefined });
    expect(() => synth('prod-first')).toThrow(/pdndKid is not set/);
    const portal = synth('prod-first', { dataOnly: 'true' });
    try {
      expect(portal.warnings.some((w) => w.includes('pdndKid is not set'))).toBe(true);
    } finally {
      portal.dispose();
    }
    write('prod-first-nodomain', {
      ...completeProduction,
      webDomainName: undefined,
      certificateArn: undefined,
      pdndKid: undefined,
    });
    expect(() => synth('prod-first-nodomain', { dataOnly: 'true' })).toThrow(/webDomainName is not set/);
    // The data stack makes the API's own domain too, whose DNS target the council publishes before the full deploy.
    write('prod-first-noapi', {
      ...completeProduction,
      apiDomainName: undefined,
      apiCertificateArn: undefined,
      pdndKid: undefined,
    });
    expect(() => synth('prod-first-noapi', { dataOnly: 'true' })).toThrow(/apiDomainName is not set/);
  });

  it('refuses a setting given on the command line against its file', () => {
    write('prod', completeProduction);
    expect(() => synth('prod', { mailFrom: 'altro@comune.fantasia.it' })).toThrow(
      /mailFrom is set in .*prod\.json \(noreply@comune\.fantasia\.it\) and on the command line \(altro@comune\.fantasia\.it\): change it in .*prod\.json only/,
    );
  });
});

describe('a staging stage', () => {
  it('keeps the placeholders, with a warning for each naming the setting and the file', () => {
    write('staging', { stackPrefix: 'PortaleTest', alarmEmail: 'sviluppo@comune.fantasia.it' });
    const portal = synth('staging');
    try {
      expect(portal.data.stackName).toBe('PortaleTestData');
      expect(
        portal.warnings.some((w) => w.includes('staging.json (stage staging, not production): mailFrom is not set')),
      ).toBe(true);
      expect(portal.warnings.some((w) => w.includes('pdndKid is not set'))).toBe(true);
      expect(portal.warnings.some((w) => w.includes('alarmEmail'))).toBe(false);
    } finally {
      portal.dispose();
    }
  });
});

describe('the file', () => {
  it('passes any other key on as a setting (context), and reports a key nothing reads', () => {
    write('extra', { stackPrefix: 'PortaleExtra', retentionSupportMessagesDays: 730 });
    const portal = synth('extra');
    try {
      expect(portal.app.node.tryGetContext('retentionSupportMessagesDays')).toBe(730);
      expect(portal.warnings).toContain(
        `${portal.stage!.file}: the setting retentionSupportMessagesDays is read by nothing (a typo, or a setting retired): remove it`,
      );
      expect(portal.warnings.some((w) => w.includes('stackPrefix is read by nothing'))).toBe(false);
    } finally {
      portal.dispose();
    }
  });

  it('is checked against the schema: a bad value is named with its key', () => {
    write('bad', {
      production: true,
      mailFrom: 'not an address',
      inpsUserId: 123,
      certificateArn: 'arn:aws:acm:eu-south-1:111122223333:certificate/x',
    });
    expect(() => synth('bad')).toThrow(/bad\.json has settings that are not valid:/);
    expect(() => synth('bad')).toThrow(/- certificateArn: an ACM certificate in us-east-1/);
    expect(() => synth('bad')).toThrow(/- mailFrom: /);
    expect(() => synth('bad')).toThrow(/- inpsUserId: /);
    writeFileSync(path.join(dir, 'broken.json'), '{ "mailFrom": ');
    expect(() => synth('broken')).toThrow(/broken\.json is not valid JSON/);
    expect(() => synth('missing')).toThrow(/missing\.json does not exist: copy config\/example\.json/);
    expect(() => synth('../prod')).toThrow(/a stage is named in lowercase letters/);
  });

  it('documents every key of the schema in config/example.json', () => {
    const example = Object.keys(JSON.parse(readFileSync(path.join(CONFIG_DIR, 'example.json'), 'utf8')));
    // Only for some deployments (a Web ACL, an SES identity elsewhere, mutual TLS with INPS): the README's table documents them.
    const overrides = [
      'secretsRevision',
      'mailIdentityArn',
      'webAclArn',
      'pdndTokenUrl',
      'pdndAudience',
      'inpsAudience',
      'inpsClientCertSecretName',
    ];
    expect(
      Object.keys(stageConfigSchema.shape).filter((key) => !example.includes(key) && !overrides.includes(key)),
    ).toEqual([]);
    expect(example.filter((key) => !(key in stageConfigSchema.shape))).toEqual([]);
    expect(loadStage('example').production).toBe(true);
  });

  it('is not needed without a stage: cdk synth builds the development copy with its defaults', () => {
    const portal = sharedPortal({ bundle: false, nag: false });
    try {
      expect(portal.stage).toBeUndefined();
      expect(portal.warnings).toEqual([]);
      expect(portal.data.stackName).toBe('PortaleData');
    } finally {
      portal.dispose();
    }
  });
});
