import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import sirv from 'sirv';
import { resources, type Resource } from '../../functions/routes.ts';
import { createApiListener, type LambdaHandler } from './api-server.ts';
import { API_AUDIENCE, OIDC_CLIENT_ID, REGION, TABLE_NAME, appUrl, issuerUrl, type LocalConfig } from './config.ts';
import { seedDemoData } from './demo-data.ts';
import { startIdentityProvider } from './idp.ts';
import { startIseeExtraction } from './isee-extraction.ts';
import { localFunctionArn, localStateMachineArn, startStepFunctions, type TaskFunction } from './step-functions.ts';
import { DEFAULT_ENTITY, startMyPaySimulator } from './mypay-simulator.ts';
import {
  DEFAULT_API_KEY as DEFAULT_GPD_API_KEY,
  DEFAULT_ORGANIZATION as DEFAULT_GPD_ORGANIZATION,
  DEFAULT_RECEIPTS_KEY as DEFAULT_GPD_RECEIPTS_KEY,
  startGpdSimulator,
} from './gpd-simulator.ts';
import { LOCAL_MAIL, startMail } from './mail.ts';
import { LOCAL_IO, startIoSimulator } from './io-simulator.ts';
import { LOCAL_PDND, localPdndClient, startPdndSimulator } from './pdnd-simulator.ts';
import { startInpsSimulator } from './inps-simulator.ts';
import { startLocalDynamo } from './dynalite-thread.ts';
import { ensureTable, startS3, type Closable } from './stores.ts';
import { startLocalSchedules } from './schedules.ts';
import { untracedFunctionEnv } from './untraced-env.ts';
import { writeOpenApiFile } from '../openapi-file.ts';
import { contextDefaults } from '../context.ts';
import { paymentPlatformName } from '../../functions/adapters/payment-platform-name.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUCKETS = { documents: 'portale-documents', exports: 'portale-exports' };

export interface LocalStack {
  appUrl: string;
  issuer: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** The MyPay simulator's page (fault switches) and its SOAP endpoint. */
  myPayUrl: string;
  myPayEndpoint: string;
  /** The GPD simulator (positions, Checkout, receipts; its page and switches at `${gpdUrl}/`), when started. */
  gpdUrl: string | null;
  /** aws-ses-v2-local: `${sesEndpoint}/` is the inbox, `${sesEndpoint}/store` the messages as JSON. */
  sesEndpoint: string;
  /** The IO app simulator: `${ioUrl}/` lists the messages, `${ioUrl}/admin/…` the switches. */
  ioUrl: string;
  /** PDND's authorization server (token endpoint, JWKS, switches under /admin/). */
  pdndUrl: string;
  /** INPS's ISEE e-service: `${inpsUrl}/` gives fiscal codes a DSU, `/admin/…` the switches. */
  inpsUrl: string;
  /** The local Step Functions endpoint (StartExecution, DescribeExecution, StopExecution). */
  stepFunctionsEndpoint: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** 'dist' serves the built app (npm start), 'dev' runs Vite with hot reload, 'none' serves only the API. */
  web: 'dist' | 'dev' | 'none';
  /** Write the demo data when the table is new. */
  seed: boolean;
  /** The built web app served in 'dist' mode (default web/dist). */
  webDist?: string;
  /**
   * Global secondary indexes see a write this many milliseconds late, as DynamoDB's may (default
   * DYNALITE_INDEX_LAG_MS, else 0; lib/local/dynalite-index-lag.ts). The integration tests run with one.
   */
  indexLagMs?: number;
  /**
   * Write units a second a partition key value takes before it is throttled, as DynamoDB's 1,000 (default
   * DYNALITE_PARTITION_WRITE_UNITS, else none; lib/local/dynalite-partition-limit.ts, switched at run time by
   * `POST <dynamoEndpoint>/__local/partition-write-limit`).
   */
  partitionWriteUnits?: number;
  /**
   * Cut an API function's invocation at its deployed timeout (lib/function-access.ts timeoutOf), as Lambda does:
   * API Gateway then answers 500 (default LOCAL_FUNCTION_TIMEOUTS=on, else off). The Step Functions tasks are always
   * cut at theirs (lib/local/step-functions.ts). The integration tests run with it.
   */
  functionTimeouts?: boolean;
}

/** The key that signs list cursors: made on first start and kept in <dataDir>/cursor-secret. */
function cursorSecret(dataDir: string): string {
  const file = path.join(dataDir, 'cursor-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

const EXPORT_MACHINE = 'PaymentExport';
/**
 * Locally MyPay answers at once: the export polls its import state four times a second instead of every ten
 * seconds (an import is seen LOAD_IMPORT and IMPORT_IN_ELAB before its outcome: three polls, 0.75 s, not 3 s).
 */
const LOCAL_IMPORT_POLL_MS = 250;

const JOBS_MACHINE = 'BackgroundJobs';

/**
 * The MyPay export's state machine, its steps run by the export's task function, and the background jobs'
 * state machine with the job functions (loaded after the environment is set).
 */
async function startLocalExport(port: number) {
  const [
    { exportDefinition, FLOW_STEPS, TASK_TIMEOUT_SECONDS },
    { runFlowStep, importMaxWaitMinutes },
    { jobDefinition, JOB_SLICE_TIMEOUT_SECONDS },
    { JOB_FUNCTIONS },
    { runScheduled },
  ] = await Promise.all([
    import('../../functions/flows/state-machine.ts'),
    // The task function of the platform this stack bills through (one bundle each in the cloud, lib/payment-export.ts).
    process.env.PAYMENT_PLATFORM === 'gpd'
      ? import('../../functions/entry/flow-task-gpd.ts')
      : import('../../functions/entry/flow-task.ts'),
    import('../../functions/jobs/state-machine.ts'),
    import('../../functions/jobs/job-functions.ts'),
    import('../../functions/entry/scheduled-jobs.ts'),
  ]);
  // Each job function's ARN resolves to its own entry's handler, as the cloud's state machine invokes its own Lambda.
  const jobFunctions = await Promise.all(
    Object.entries(JOB_FUNCTIONS).map(async ([name, { entry, kinds }]) => {
      const { runJobStep } = (await import(`../../functions/entry/${entry}.ts`)) as { runJobStep: TaskFunction };
      return { name, arn: localFunctionArn(name), kinds, runJobStep };
    }),
  );
  return startStepFunctions(port, [
    {
      name: JOBS_MACHINE,
      definition: jobDefinition(jobFunctions),
      functions: Object.fromEntries(jobFunctions.map((fn) => [fn.name, fn.runJobStep])),
      timeoutSeconds: Object.fromEntries(jobFunctions.map((fn) => [fn.name, JOB_SLICE_TIMEOUT_SECONDS])),
      // An execution that timed out or was stopped: the scheduled jobs' function, as the EventBridge rule in the cloud.
      onExecutionEnd: runScheduled,
    },
    {
      name: EXPORT_MACHINE,
      definition: exportDefinition(localFunctionArn('FlowTask'), importMaxWaitMinutes()),
      functions: { FlowTask: runFlowStep },
      timeoutSeconds: { FlowTask: TASK_TIMEOUT_SECONDS },
      waitTimeOverrides: { WaitForImport: LOCAL_IMPORT_POLL_MS },
      // Retries after a MyPay fault: half a second apart here, seconds with backoff in the cloud.
      retryIntervalOverrides: Object.fromEntries(FLOW_STEPS.map((step) => [step, 500])),
      // An execution that timed out or was stopped: the same task function, as the EventBridge rule in the cloud.
      onExecutionEnd: runFlowStep,
    },
  ]);
}

/**
 * Everything the cloud has, on this machine: dynalite, s3rver, the OIDC provider, and one HTTP server
 * with the web app and the API (the real Lambda handlers behind the API Gateway adapter).
 */
export async function startLocalStack(config: LocalConfig, options: StartOptions): Promise<LocalStack> {
  const opened: Closable[] = [];
  const close = async () => {
    for (const item of opened.reverse()) await item.close().catch(() => undefined);
  };
  try {
    const dynamoEndpoint = `http://127.0.0.1:${config.dynamoPort}`;
    const s3Endpoint = `http://127.0.0.1:${config.s3Port}`;
    const sesEndpoint = `http://127.0.0.1:${config.sesPort}`;
    const app = appUrl(config);
    const issuer = issuerUrl(config);

    // The Lambdas read their configuration at cold start, as in the cloud: set it before loading them.
    Object.assign(process.env, {
      AWS_REGION: REGION,
      // s3rver accepts only its own fixed credentials; dynalite accepts any.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      ...untracedFunctionEnv,
      TABLE_NAME,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      S3_ENDPOINT: s3Endpoint,
      DOCUMENTS_BUCKET: BUCKETS.documents,
      CURSOR_SECRET: process.env.CURSOR_SECRET || cursorSecret(config.dataDir),
      EXPORTS_BUCKET: BUCKETS.exports,
      SES_ENDPOINT: sesEndpoint,
      MAIL_FROM: process.env.MAIL_FROM || LOCAL_MAIL.from,
      SUPPORT_EMAIL: process.env.SUPPORT_EMAIL || LOCAL_MAIL.supportAddress,
      // In the cloud each function has its own service name; here one process runs them all.
      POWERTOOLS_SERVICE_NAME: 'portale-local',
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    });

    // MyPay: the simulator, with the same settings the cloud takes from the deployment (endpoint, entity,
    // password; the password from Secrets Manager there). A value already in the environment wins.
    // MyPay's mode (pa.modelloUnico): the simulator and the portal's adapter read the same setting.
    process.env.MYPAY_MODELLO_UNICO ||= 'true';
    const myPay = await startMyPaySimulator({
      port: config.myPayPort,
      host: '127.0.0.1',
      dataDir: config.dataDir,
      modelloUnico: process.env.MYPAY_MODELLO_UNICO !== 'false',
    });
    opened.push(myPay);
    process.env.MYPAY_ENDPOINT ||= myPay.endpoint;
    process.env.MYPAY_COD_IPA ||= DEFAULT_ENTITY.codIpa;
    process.env.MYPAY_PASSWORD ||= DEFAULT_ENTITY.password;
    // The portal's own address: where MyPay sends citizens back after paying (in the cloud, the web stack's URL).
    process.env.PORTAL_URL ||= app;
    // How long MyPay may keep an import in IMPORT_IN_ELAB before the flow is suspended: 48 hours in the cloud
    // (an entity with GPD enabled), ten minutes here, where the simulator holds one only when told to.
    process.env.MYPAY_IMPORT_MAX_WAIT_MINUTES ||= '10';
    // pagoPA's GPD, Checkout and receipts: the simulator beside MyPay's (cheap: a small HTTP server), with the settings
    // the cloud takes from the stage (paymentPlatform, gpd*) and the keys from Secrets Manager. A value already set wins.
    const gpd =
      config.gpdPort !== undefined || process.env.PAYMENT_PLATFORM === 'gpd'
        ? await startGpdSimulator({ port: config.gpdPort ?? 0, host: '127.0.0.1', dataDir: config.dataDir })
        : null;
    if (gpd) {
      opened.push(gpd);
      process.env.GPD_BASE_URL ||= gpd.url;
      process.env.GPD_API_KEY ||= DEFAULT_GPD_API_KEY;
      process.env.GPD_RECEIPTS_KEY ||= DEFAULT_GPD_RECEIPTS_KEY;
      process.env.GPD_ORGANIZATION_FISCAL_CODE ||= DEFAULT_GPD_ORGANIZATION.fiscalCode;
      process.env.GPD_COMPANY_NAME ||= DEFAULT_GPD_ORGANIZATION.companyName;
      process.env.GPD_SEGREGATION_CODE ||= DEFAULT_GPD_ORGANIZATION.segregationCodes[0]!;
      process.env.GPD_IBAN ||= 'IT60X0542811101000000123456';
      process.env.GPD_TAXONOMY_CODE ||= '9/0101108TS/';
    }
    // IO: the simulator, with the settings the cloud takes from context and Secrets Manager.
    const io = await startIoSimulator({ port: config.ioPort, host: '127.0.0.1' });
    opened.push(io);
    process.env.IO_BASE_URL ||= `http://127.0.0.1:${config.ioPort}`;
    process.env.IO_API_KEY ||= io.apiKey;
    // PDND's authorization server and INPS's ISEE e-service (simulators), with the settings the cloud takes from context.
    const { pdnd, inps } = await startLocalPdndAndInps(config);
    opened.push(pdnd, inps);
    process.env.SFN_ENDPOINT = `http://127.0.0.1:${config.stepFunctionsPort}`;
    process.env.EXPORT_STATE_MACHINE_ARN = localStateMachineArn(EXPORT_MACHINE);
    process.env.JOBS_STATE_MACHINE_ARN = localStateMachineArn(JOBS_MACHINE);

    // Step Functions: the export's state machine, its task the same function as in the cloud. The flows
    // function starts it through @aws-sdk/client-sfn, as in the cloud.
    const stepFunctions = await startLocalExport(config.stepFunctionsPort);
    opened.push(stepFunctions);

    opened.push(
      await startLocalDynamo(config.dataDir, config.dynamoPort, {
        indexLagMs: options.indexLagMs,
        partitionWriteUnits: options.partitionWriteUnits,
      }),
    );
    const isNew = await ensureTable(dynamoEndpoint, TABLE_NAME);
    const storage = await startS3(config.dataDir, config.s3Port, Object.values(BUCKETS), app);
    opened.push(storage);
    opened.push(await startMail(config.sesPort));
    opened.push(await startIdentityProvider({ issuer, port: config.idpPort, appUrl: app, dataDir: config.dataDir }));

    // openapi.json as the cloud's build writes it beside the public function's bundle (lib/openapi-file.ts).
    process.env.OPENAPI_FILE = path.join(config.dataDir, 'openapi.json');
    fs.mkdirSync(config.dataDir, { recursive: true });
    writeOpenApiFile(process.env.OPENAPI_FILE);
    const handlers = {} as Record<Resource, LambdaHandler>;
    for (const resource of resources) {
      handlers[resource] = (await import(`../../functions/entry/${resource}.ts`)).handler;
    }
    // The data migrations the cloud's deployment runs (functions/migrations): those not yet recorded on this
    // table, to the end. On data kept from an earlier version they say what they wrote. A new table, created
    // empty just now, holds nothing to migrate (the demo data is written by this version's code): each is
    // recorded applied at once.
    const { migrationRunner } = await import('../../functions/entry/migration-catalogue.ts');
    const migrations = migrationRunner((message, fields) => {
      if (!isNew && message === 'Migration applied')
        console.log(`Migrazione dei dati applicata: ${fields.migration} (elementi: ${fields.processed})`);
    });
    if (isNew) await migrations.recordAllApplied();
    if (isNew && options.seed) await seedDemoData();
    await migrations.runAll();
    // The ISEE reading starts when a document lands under isee/, as the S3 → EventBridge rule does in the cloud.
    opened.push(await startIseeExtraction(storage, BUCKETS.documents));
    // The reporting schedules the cloud runs with EventBridge Scheduler: daily, and after checkouts of unknown outcome.
    opened.push(startLocalSchedules());

    const handleApi = createApiListener({
      issuer,
      audience: API_AUDIENCE,
      handlers,
      cutAtTimeout: options.functionTimeouts ?? process.env.LOCAL_FUNCTION_TIMEOUTS === 'on',
    });
    const runtimeConfig = {
      apiBaseUrl: '',
      issuer,
      clientId: OIDC_CLIENT_ID,
      scope: 'openid profile email',
      // The cloud takes it from the deployment's settings (accessibilityStatementUrl).
      accessibilityStatementUrl: process.env.ACCESSIBILITY_STATEMENT_URL || contextDefaults.accessibilityStatementUrl,
      // PAYMENT_PLATFORM=gpd npm start: the web names pagoPA where the spec says MyPay ('Flussi pagoPA').
      paymentPlatform: paymentPlatformName(process.env),
    };
    const handleWeb = await webListener(options.web, runtimeConfig, s3Endpoint, opened, options.webDist);
    const server = http.createServer((req, res) => {
      const pathname = (req.url ?? '/').split('?')[0];
      const route = pathname === '/api' || pathname.startsWith('/api/') ? handleApi : handleWeb;
      route(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host === 'localhost' ? '127.0.0.1' : config.host, () => resolve());
    });
    opened.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    });
    return {
      appUrl: app,
      issuer,
      dynamoEndpoint,
      s3Endpoint,
      myPayUrl: myPay.url,
      myPayEndpoint: myPay.endpoint,
      gpdUrl: gpd?.url ?? null,
      sesEndpoint,
      ioUrl: io.url,
      pdndUrl: pdnd.url,
      inpsUrl: inps.url,
      stepFunctionsEndpoint: stepFunctions.endpoint,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * PDND and INPS on this machine: the portal's PDND client (its key kept in <dataDir>/pdnd, registered with
 * the authorization server as a council registers it in PDND's back office, linked to the two purposes) and
 * the ISEE e-service, which checks the vouchers with PDND's JWKS. The settings the cloud takes from CDK
 * context go to the environment; a value already there wins.
 */
async function startLocalPdndAndInps(config: LocalConfig) {
  const client = await localPdndClient(config.dataDir);
  const pdnd = await startPdndSimulator({ port: config.pdndPort, host: '127.0.0.1' });
  const purposes = {
    [LOCAL_PDND.purposes.attestazione]: { audience: LOCAL_PDND.inpsAudience },
    [LOCAL_PDND.purposes.indicatore]: { audience: LOCAL_PDND.inpsAudience },
    [LOCAL_PDND.residenti.purpose]: { audience: LOCAL_PDND.residenti.audience },
  };
  pdnd.register({
    clientId: client.clientId,
    consumerId: 'comune-demo',
    kid: client.kid,
    publicKeyPem: client.publicKeyPem,
    purposes,
  });
  const inps = await startInpsSimulator({
    port: config.inpsPort,
    host: '127.0.0.1',
    dataDir: config.dataDir,
    pdnd: { jwksUrl: pdnd.jwksUrl, issuer: pdnd.issuer },
    audience: LOCAL_PDND.inpsAudience,
    purposes: LOCAL_PDND.purposes,
    residenti: LOCAL_PDND.residenti,
  });
  const env = process.env;
  // The residents' e-service, as councils subscribe it (INPS_ATTESTAZIONE_OPERATION=ConsultazioneAttestazione: the v1 one).
  const residenti =
    (env.INPS_ATTESTAZIONE_OPERATION ||= 'ConsultazioneAttestazioneResidenti') === 'ConsultazioneAttestazioneResidenti';
  env.INPS_ATTESTAZIONE_ENDPOINT ||= residenti ? inps.residentiEndpoint : inps.endpoint;
  env.INPS_ATTESTAZIONE_AUDIENCE ||= residenti ? LOCAL_PDND.residenti.audience : LOCAL_PDND.inpsAudience;
  env.INPS_PURPOSE_ATTESTAZIONE ||= residenti ? LOCAL_PDND.residenti.purpose : LOCAL_PDND.purposes.attestazione;
  env.PDND_TOKEN_URL ||= pdnd.tokenUrl;
  env.PDND_CLIENT_ID ||= client.clientId;
  env.PDND_KID ||= client.kid;
  env.PDND_AUDIENCE ||= LOCAL_PDND.assertionAudience;
  if (!env.PDND_KMS_KEY_ID) env.PDND_PRIVATE_KEY_FILE ||= client.privateKeyFile;
  env.INPS_ENDPOINT ||= inps.endpoint;
  env.INPS_AUDIENCE ||= LOCAL_PDND.inpsAudience;
  env.INPS_PURPOSE_INDICATORE ||= LOCAL_PDND.purposes.indicatore;
  env.INPS_USER_ID ||= LOCAL_IO.organizationFiscalCode;
  env.INPS_CODICE_UFFICIO ||= '001';
  return { pdnd, inps };
}

type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The same security headers CloudFront adds in the cloud, so a CSP mistake shows up locally first. */
function securityHeaders(issuer: string, storage: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: ${storage}`,
      "font-src 'self'",
      `connect-src 'self' ${issuer} ${storage}`,
      `frame-src 'self' blob: ${storage}`,
      "object-src 'none'",
      "base-uri 'self'",
      `form-action 'self' ${issuer}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

async function webListener(
  mode: StartOptions['web'],
  runtimeConfig: Record<string, string>,
  storage: string,
  opened: Closable[],
  webDist = path.join(root, 'web/dist'),
): Promise<Listener> {
  const serveConfig = (res: ServerResponse) => {
    // no-cache (revalidate every time) rather than no-store: index.html preloads it for the app's fetch.
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
    res.end(JSON.stringify(runtimeConfig));
  };
  if (mode === 'none') {
    return async (req, res) => {
      if (req.url?.startsWith('/config.json')) return serveConfig(res);
      res.writeHead(404);
      res.end();
    };
  }
  if (mode === 'dev') {
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: path.join(root, 'web/vite.config.ts'),
      server: { middlewareMode: true },
      appType: 'spa',
    });
    opened.push({ close: () => vite.close() });
    return async (req, res) => {
      if (req.url?.startsWith('/config.json')) return serveConfig(res);
      vite.middlewares(req, res);
    };
  }
  const dist = webDist;
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error('web/dist non esiste: esegui prima "npm run build:web" (npm start lo fa da sé).');
  }
  const headers = securityHeaders(runtimeConfig.issuer, storage);
  const serveStatic = sirv(dist, {
    single: true,
    etag: true,
    // Look each file up when it is asked for: a list cached at start goes stale when web/dist is rebuilt
    // (new assets unknown, removed ones still listed and then unreadable).
    dev: true,
    setHeaders: (res, pathname) => {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader(
        'cache-control',
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // Compressed by Accept-Encoding (brotli, else gzip), as CloudFront does in the cloud.
  const compress = compression();
  return async (req, res) => {
    if (req.url?.startsWith('/config.json')) return serveConfig(res);
    // sirv pipes a read stream without an error handler: a file gone between the lookup and the read would
    // throw out of the process. End that one response instead.
    res.on('pipe', (source) => source.once('error', () => res.destroy()));
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => {
      serveStatic(req, res, () => {
        res.writeHead(404);
        res.end();
      });
    });
  };
}
