import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../functions/routes.ts';
import type { PortalFunction } from '../../lib/portal-function.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

/**
 * PDND and INPS in the cloud (issue 24): the client's private key is an asymmetric KMS key that only signs,
 * used only by the functions that ask INPS; the settings differ between collaudo and production and come
 * from context.
 */
let portal: ScratchApp;
let api: Template;
let data: Template;

beforeAll(() => {
  portal = scratchApp({
    bundle: false,
    context: {
      pdndClientId: '3f8a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
      pdndKid: 'ZxY0wV9uTsRqPoNmLkJiHgFeDcBa_-0123456789abc',
      inpsUserId: '80012340123',
    },
  });
  api = Template.fromStack(portal.api);
  data = Template.fromStack(portal.data);
});
afterAll(() => portal.dispose());

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  portal.api.resolve((construct.node.defaultChild as CfnFunction).logicalId) as string;
type Statement = { Action: string | string[]; Resource: unknown };
const roleOf = (fn: PortalFunction) =>
  api.findResources('AWS::Lambda::Function')[logicalId(fn)].Properties.Role['Fn::GetAtt'][0] as string;
const kmsStatements = (fn: PortalFunction): Statement[] =>
  Object.values(api.findResources('AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleOf(fn) }]))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));

describe('the PDND client key', () => {
  it('is one asymmetric RSA 2048 key for signing, kept with the data', () => {
    // The data stack's other key is the backup vault's (symmetric, for encryption).
    const keys = Object.values(data.findResources('AWS::KMS::Key')).filter(
      (key) => key.Properties.KeyUsage === 'SIGN_VERIFY',
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' },
    });
  });

  it('signs for the ISEE function and the job function only, and they may only sign (kms:Sign on that key)', () => {
    const withKms = [
      ...resources.map((r) => portal.api.functions[r]),
      portal.api.paymentExport.taskFunction,
      ...Object.values(portal.api.backgroundJobs.jobFunctions),
      portal.api.backgroundJobs.scheduledJobs,
    ].filter((fn) => kmsStatements(fn).length > 0);
    expect(withKms.map((fn) => fn.node.id).sort()).toEqual(['IseeJobs', 'isee']);
    for (const fn of withKms) {
      const statements = kmsStatements(fn);
      expect(statements.flatMap((s) => [s.Action].flat())).toEqual(['kms:Sign']);
      expect(JSON.stringify(statements[0]!.Resource)).toContain('PdndClientKey');
    }
  });
});

describe('the settings', () => {
  const env = (fn: PortalFunction, template = api, app = portal) =>
    template.findResources('AWS::Lambda::Function')[
      app.api.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string
    ].Properties.Environment.Variables;

  it('give the ISEE and job functions PDND’s collaudo endpoints by default, the client, the purposes and the key', () => {
    for (const fn of [portal.api.functions.isee, portal.api.backgroundJobs.jobFunctions.IseeJobs]) {
      const variables = env(fn);
      expect(variables).toMatchObject({
        PDND_TOKEN_URL: 'https://auth.uat.interop.pagopa.it/token.oauth2',
        PDND_AUDIENCE: 'auth.uat.interop.pagopa.it/client-assertion',
        PDND_CLIENT_ID: '3f8a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
        PDND_KID: 'ZxY0wV9uTsRqPoNmLkJiHgFeDcBa_-0123456789abc',
        INPS_ENDPOINT: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
        // The e-service councils subscribe: the residents' attestation, at its own endpoint and audience.
        INPS_ATTESTAZIONE_OPERATION: 'ConsultazioneAttestazioneResidenti',
        INPS_ATTESTAZIONE_ENDPOINT:
          'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti',
        INPS_ATTESTAZIONE_AUDIENCE:
          'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti',
        INPS_INDICATORE_ENDPOINT: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
        INPS_DAILY_ESTIMATE: '1000',
        INPS_USER_ID: '80012340123',
        INPS_BENEFIT_CODE: 'A2.07',
        ISEE_REMINDER_FROM: '12-01',
      });
      expect(JSON.stringify(variables.PDND_KMS_KEY_ID)).toContain('PdndClientKey');
      expect(variables.PDND_PRIVATE_KEY_FILE).toBeUndefined();
    }
    // Nobody else knows them.
    expect(env(portal.api.functions.payments).PDND_TOKEN_URL).toBeUndefined();
  });

  it('switch to production with pdndEnvironment, and refuse what PDND or the XSD would', () => {
    const production = scratchApp({ bundle: false, context: { pdndEnvironment: 'produzione' } });
    try {
      expect(env(production.api.functions.isee, Template.fromStack(production.api), production)).toMatchObject({
        PDND_TOKEN_URL: 'https://auth.interop.pagopa.it/token.oauth2',
        PDND_AUDIENCE: 'auth.interop.pagopa.it/client-assertion',
      });
    } finally {
      production.dispose();
    }
    expect(() => scratchApp({ bundle: false, context: { pdndClientId: 'client-1' } })).toThrow(
      /pdndClientId must be a UUID/,
    );
    expect(() => scratchApp({ bundle: false, context: { pdndEnvironment: 'test' } })).toThrow(/collaudo or produzione/);
    expect(() => scratchApp({ bundle: false, context: { inpsBenefitCode: 'B1.01' } })).toThrow(/inpsBenefitCode/);
    expect(() =>
      scratchApp({ bundle: false, context: { inpsAttestazioneOperation: 'ConsultazioneIndicatore' } }),
    ).toThrow(/inpsAttestazioneOperation/);
    expect(() => scratchApp({ bundle: false, context: { inpsDailyEstimate: '0' } })).toThrow(/inpsDailyEstimate/);
  });

  it('take the v1 e-service, its endpoint and audience, when the council’s purpose is for it; no indicator purpose: none', () => {
    const v1 = scratchApp({
      bundle: false,
      context: {
        inpsAttestazioneOperation: 'ConsultazioneAttestazione',
        inpsAudience: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
        inpsPurposeIndicatore: 'none',
      },
    });
    try {
      expect(env(v1.api.functions.isee, Template.fromStack(v1.api), v1)).toMatchObject({
        INPS_ATTESTAZIONE_OPERATION: 'ConsultazioneAttestazione',
        INPS_ATTESTAZIONE_ENDPOINT: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
        INPS_ATTESTAZIONE_AUDIENCE: 'https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1',
        INPS_PURPOSE_INDICATORE: '',
      });
    } finally {
      v1.dispose();
    }
  });

  it('give the functions that ask INPS the client certificate’s secret and the right to read it, and only when the agreement asks for one', () => {
    const secretStatements = (fn: PortalFunction, template: Template, app: ScratchApp) =>
      Object.values(template.findResources('AWS::IAM::Policy'))
        .filter(
          (p) =>
            JSON.stringify(p.Properties.Roles) ===
            JSON.stringify([
              {
                Ref: template.findResources('AWS::Lambda::Function')[
                  app.api.resolve((fn.node.defaultChild as CfnFunction).logicalId) as string
                ].Properties.Role['Fn::GetAtt'][0],
              },
            ]),
        )
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
        .filter(
          (s) =>
            [s.Action].flat().includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(s.Resource).includes('inps-client-cert'),
        );
    const mtls = scratchApp({ bundle: false, context: { inpsClientCertSecretName: 'portale/inps-client-cert' } });
    try {
      const template = Template.fromStack(mtls.api);
      for (const fn of [mtls.api.functions.isee, mtls.api.backgroundJobs.jobFunctions.IseeJobs]) {
        expect(env(fn, template, mtls).INPS_CLIENT_CERT_SECRET).toBe('portale/inps-client-cert');
        // The secret's own ARN (Secrets Manager adds six characters to the name), not every secret.
        expect(JSON.stringify(secretStatements(fn, template, mtls).map((s) => s.Resource))).toContain(
          'secret:portale/inps-client-cert-??????',
        );
      }
      expect(env(mtls.api.functions.payments, template, mtls).INPS_CLIENT_CERT_SECRET).toBeUndefined();
      expect(secretStatements(mtls.api.functions.payments, template, mtls)).toEqual([]);
    } finally {
      mtls.dispose();
    }
    expect(env(portal.api.functions.isee).INPS_CLIENT_CERT_SECRET).toBeUndefined();
    expect(secretStatements(portal.api.functions.isee, api, portal)).toEqual([]);
  });

  it('raise an alarm when a query fails for the council’s configuration', () => {
    const operations = Template.fromStack(portal.operations);
    const alarms = Object.values(operations.findResources('AWS::CloudWatch::Alarm')).filter(
      (a) => a.Properties.MetricName === 'InpsConfigurationErrors',
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0].Properties).toMatchObject({
      Threshold: 1,
      AlarmDescription: expect.stringContaining('«INPS: configurazione da correggere»'),
    });
  });
});
