import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from './api-stack.ts';
import { AuthStack } from './auth-stack.ts';
import { portalContext, settingsReadBy } from './context.ts';
import { DataStack } from './data-stack.ts';
import { IseeExtraction } from './isee-extraction.ts';
import { EdgeAlarmsStack } from './edge-alarms-stack.ts';
import { EdgeStack } from './edge-stack.ts';
import { OperationsStack } from './operations-stack.ts';
import { repoRoot } from './portal-function.ts';
import {
  loadStage,
  placeholdersOf,
  requiredSettings,
  stageContext,
  stageWarnings,
  type Stage,
} from './stage-config.ts';
import { WebStack } from './web-stack.ts';

export interface BuildAppOptions {
  /** Folder of the built web app; default web/dist (context webAssetPath overrides it too). */
  webAssetPath?: string;
  /** Context values, as `-c key=value` would give them. */
  context?: Record<string, unknown>;
  outdir?: string;
  env?: Environment;
  /** Folder of the stages' files (default config/): tests use their own. */
  configDir?: string;
  /** Run cdk-nag's AwsSolutions pack at synth (default true; a test turns it off to list raw findings). */
  nag?: boolean;
}

/**
 * Context `stage` (`cdk synth -c stage=prod`) names config/<stage>.json: its settings become the app's context,
 * as `-c key=value` would make them. A setting also given on the command line with another value is refused:
 * every deploy of a stage reads its file, nothing else.
 */
function applyStage(app: App, configDir?: string): Stage | undefined {
  const name = app.node.tryGetContext('stage');
  if (name === undefined || name === null || name === '') return undefined;
  const stage = loadStage(String(name), configDir);
  for (const [key, value] of Object.entries(stageContext(stage))) {
    const given = app.node.tryGetContext(key);
    if (given !== undefined && String(given) !== String(value)) {
      throw new Error(
        `${key} is set in ${stage.file} (${String(value)}) and on the command line (${String(given)}): change it in ${stage.file} only`,
      );
    }
    app.node.setContext(key, value);
  }
  return stage;
}

/** A production stage refuses any placeholder setting; another stage keeps them, with a warning each. */
function checkStage(app: App, stage: Stage): string[] {
  const settings = Object.fromEntries(Object.keys(requiredSettings).map((key) => [key, app.node.tryGetContext(key)]));
  const placeholders = placeholdersOf(settings);
  if (placeholders.length === 0) return [];
  // npm run deploy -- <stage> --data-only, before PDND has given a kid for the key this stack makes: the data
  // stack reads none of the placeholders but the domains (its uploads' CORS origin, the API's own domain).
  const dataOnly = String(app.node.tryGetContext('dataOnly')) === 'true';
  const readByData = ['webDomainName ', 'apiDomainName ', 'apiCertificateArn '];
  if (stage.production && !(dataOnly && !placeholders.some((p) => readByData.some((key) => p.startsWith(key))))) {
    throw new Error(
      `${stage.file} is a production stage and still has placeholders; set them in ${stage.file}:\n${placeholders.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return placeholders.map((p) => `${stage.file} (stage ${stage.name}, not production): ${p}`);
}

/** The feature flags of cdk.json, so an app built in-process (tests) behaves as `cdk synth` does. */
function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')).context ?? {};
}

/**
 * The whole cloud portal, in deployment order: data and auth (stateful), then web (CloudFront, the API
 * endpoint, the web app's client), then the API (functions and routes). Used by bin/app.ts and the tests.
 */
export function buildApp(options: BuildAppOptions = {}) {
  const app = new App({ outdir: options.outdir, context: { ...cdkJsonContext(), ...options.context } });
  const stage = applyStage(app, options.configDir);
  const warnings = stage ? [...checkStage(app, stage), ...stageWarnings(stage)] : [];
  const context = portalContext(app.node);
  // The region comes from context, not from CDK_DEFAULT_REGION: the CLI fills that with the profile's
  // region, or us-east-1 when there is none, and the portal's data must stay in Italy.
  const env: Environment = options.env ?? {
    account: stage?.settings.account ?? process.env.CDK_DEFAULT_ACCOUNT,
    region: context.region,
  };
  const prefix = context.stackPrefix;
  const webAssetPath = path.resolve(repoRoot, options.webAssetPath ?? context.webAssetPath ?? path.join('web', 'dist'));

  const data = new DataStack(app, `${prefix}Data`, {
    env,
    description: 'Portale servizi sociali: data (DynamoDB table, S3 buckets)',
    // The default CloudFront domain is only known once the web stack exists, after this one: without a
    // custom domain, presigned uploads are allowed from CloudFront domains. CORS only decides whether a
    // page may read the upload's response; the presigned signature is what authorizes it.
    uploadOrigins: context.webDomainName ? [`https://${context.webDomainName}`] : ['https://*.cloudfront.net'],
    backup: context.backup,
    iseeDocumentsYears: context.retention.iseeDocuments,
    apiDomain:
      context.apiDomainName && context.apiCertificateArn
        ? { domainName: context.apiDomainName, certificateArn: context.apiCertificateArn }
        : undefined,
  });
  const auth = new AuthStack(app, `${prefix}Auth`, {
    env,
    description: 'Portale servizi sociali: Cognito user pool federating the SPID/CIE gateway',
    spidGateway: context.spidGateway,
    authDomainPrefix: context.authDomainPrefix,
  });
  // The distribution's web ACL: the stage's own, or ours, made in us-east-1 (CLOUDFRONT scope exists only there)
  // and handed to the web stack by a cross-region reference.
  const edge = context.webAclArn
    ? undefined
    : new EdgeStack(app, `${prefix}Edge`, {
        env: { account: env.account, region: 'us-east-1' },
        description:
          'Portale servizi sociali: the web ACL of CloudFront (rate limit per IP, AWS managed rules), in us-east-1',
        prefix,
        crossRegionReferences: true,
      });
  const web = new WebStack(app, `${prefix}Web`, {
    env,
    // It reads the web ACL of the edge stack, and the edge alarms' stack reads its distribution: both in us-east-1.
    crossRegionReferences: true,
    description: 'Portale servizi sociali: CloudFront, web app, API endpoint, web app client',
    webAssetPath,
    userPool: auth.userPool,
    authDomain: auth.domain,
    spidGateway: auth.spidGateway,
    spidGatewayProviderName: context.spidGateway.providerName,
    webDomainName: context.webDomainName,
    certificateArn: context.certificateArn,
    apiDomain: data.apiDomain && { domain: data.apiDomain, name: context.apiDomainName! },
    webAclArn: context.webAclArn ?? edge!.webAcl.attrArn,
    accessibilityStatementUrl: context.accessibilityStatementUrl,
    paymentPlatform: context.paymentPlatform,
    documentsBucket: data.documents,
  });
  const api = new ApiStack(app, `${prefix}Api`, {
    env,
    description: 'Portale servizi sociali: one Lambda per resource, routes and JWT authorizer',
    httpApi: web.httpApi,
    authorizer: web.authorizer,
    originVerifySecret: web.originVerifySecret,
    data,
    mypaySecretName: context.mypaySecretName,
    mypayModelloUnico: context.mypayModelloUnico,
    mypayScadenzaObbligatoria: context.mypayScadenzaObbligatoria,
    mypayApplicationCode: context.mypayApplicationCode,
    mypayImportMaxWaitMinutes: context.mypayImportMaxWaitMinutes,
    paymentPlatform: context.paymentPlatform,
    gpd: context.gpd,
    mail: context.mail,
    io: context.io,
    pdnd: context.pdnd,
    inps: context.inps,
    iseeReminderFrom: context.iseeReminderFrom,
    portalUrl: web.webUrl,
  });

  // The ISEE reading: stateless like the API, in its own stack so each redeploys alone.
  const extraction = new Stack(app, `${prefix}IseeExtraction`, {
    env,
    description: `Portale servizi sociali: automatic reading of ISEE attestations (EventBridge, Step Functions, PDF text layer, Textract in ${context.textractRegion})`,
  });
  const iseeExtraction = new IseeExtraction(extraction, 'IseeExtraction', {
    table: data.table,
    documents: data.documents,
    textractRegion: context.textractRegion,
  });

  // Running it: alarms on every function and state machine of the stacks above (found in them: a new stack
  // goes before this one), the dashboard, the data migrations. Deployed last.
  const operations = new OperationsStack(app, `${prefix}Operations`, {
    env,
    description: 'Portale servizi sociali: alarms, dashboard and data migrations',
    stackPrefix: prefix,
    alarmEmail: context.alarmEmail,
    table: data.table,
    httpApi: web.httpApi,
    apiAccessLogs: web.apiAccessLogs,
    apiFunctions: api.functions,
    paymentExport: api.paymentExport.stateMachine,
    migrateAfter: [api],
    signIn: { userPool: auth.userPool, client: web.client, providerName: context.spidGateway.providerName },
  });

  // CloudFront's metrics exist only in us-east-1, and an alarm lives in its metric's region: its alarms, after the web stack.
  const edgeAlarms = new EdgeAlarmsStack(app, `${prefix}EdgeAlarms`, {
    env: { account: env.account, region: 'us-east-1' },
    description:
      'Portale servizi sociali: the alarms on CloudFront (its metrics exist only in us-east-1) and their topic',
    stackPrefix: prefix,
    alarmEmail: context.alarmEmail,
    distributionId: web.distribution.distributionId,
    crossRegionReferences: true,
  });

  // cdk-nag 3 is a policy-validation plugin: any finding not acknowledged (lib/nag.ts) fails the synth.
  if (options.nag !== false) Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  if (stage) {
    const read = settingsReadBy(app.node);
    for (const key of Object.keys(stageContext(stage)).filter((k) => !read.has(k)))
      warnings.push(`${stage.file}: the setting ${key} is read by nothing (a typo, or a setting retired): remove it`);
  }
  return {
    app,
    stage,
    warnings,
    edge,
    data,
    auth,
    web,
    api,
    extraction,
    iseeExtraction,
    operations,
    edgeAlarms,
    stacks: [...(edge ? [edge] : []), data, auth, web, api, extraction, operations, edgeAlarms],
  };
}

export type PortalApp = ReturnType<typeof buildApp>;
