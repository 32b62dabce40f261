import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi.ts';
import { resources } from '../../functions/routes.ts';
import { PortalFunction, powertoolsLayerParameter, powertoolsVersion, repoRoot } from '../../lib/portal-function.ts';
import { pdfjsLayerFiles, pdfjsVersion } from '../../lib/pdfjs-layer.ts';
import {
  bundleDir,
  bundleSizes,
  kilobytes,
  ownLayerModules,
  reportApp,
  runNextToBundle as run,
  type BundleSize,
} from '../../lib/report-bundles.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';
import type { TextractAnswer } from '../../functions/isee-extraction/textract-text.ts';
import { scannedPdf } from '../support/files.ts';
import { attestationPdf } from '../support/isee.ts';

/**
 * design.md §6: each Lambda carries only its own resource, with no exception. The schemas are zod/mini (~31 KB of a
 * bundle, against ~96 KB for classic zod); the background jobs run in one function per group of kinds; pdfjs-dist,
 * which ReadAttestation needs for a digital attestation's text layer (1.8 MB minified), comes from that function's
 * own layer (lib/pdfjs-layer.ts).
 */
const LIMIT_BYTES = 150 * 1024;

let portal: ScratchApp;
let sizes: BundleSize[];

beforeAll(() => {
  portal = scratchApp(); // with esbuild: the bundles are what gets deployed
  portal.app.synth();
  sizes = bundleSizes(portal.app);
  console.log(sizes.map((s) => `${s.function}: ${kilobytes(s.bytes)}`).join('\n'));
});
afterAll(() => portal.dispose());

const functions = () => portal.app.node.findAll().filter((c): c is PortalFunction => c instanceof PortalFunction);
const bundleOf = (fn: PortalFunction) => readFileSync(path.join(bundleDir(portal.app, fn), 'index.mjs'), 'utf8');
/** What the function's layers come from: a CloudFormation parameter (the Powertools layer) or a layer of the stack. */
function layersOf(fn: PortalFunction) {
  const stack = Stack.of(fn);
  const refs = (stack.resolve((fn.node.defaultChild as CfnFunction).layers) ?? []) as { Ref: string }[];
  const { Parameters, Resources } = Template.fromStack(stack).toJSON();
  return refs.map(({ Ref }) => Parameters?.[Ref] ?? Resources[Ref]);
}
const powertoolsLayerRef = { Type: 'AWS::SSM::Parameter::Value<String>', Default: powertoolsLayerParameter };
const environmentOf = (fn: PortalFunction) =>
  (
    Stack.of(fn).resolve((fn.node.defaultChild as CfnFunction).environment) as
      { variables?: Record<string, unknown> } | undefined
  )?.variables ?? {};

/**
 * Runs `script` (an ES module body) in a fresh Node process next to a copy of the bundle, as the Lambda
 * runtime would load it (@aws-sdk/* and the layer's packages resolve from node_modules), and returns
 * the JSON of its last line of output.
 */
function runNextToBundle(fn: PortalFunction, script: string, env: Record<string, string> = {}, layerModules?: string) {
  const result = run(bundleDir(portal.app, fn), script, env, layerModules);
  expect(result.status, `${fn.node.path}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

const invoke = (event: object) => `
  const { handler } = await import('./index.mjs');
  const context = { functionName: 'test', functionVersion: '1', awsRequestId: 'req-1', invokedFunctionArn: 'arn:aws:lambda:eu-south-1:111111111111:function:test', memoryLimitInMB: '512', getRemainingTimeInMillis: () => 10000 };
  console.log(JSON.stringify(await handler(${JSON.stringify(event)}, context)));`;

const apiEvent = (routeKey: string, claims?: Record<string, string>) => ({
  version: '2.0',
  routeKey,
  rawPath: routeKey.split(' ')[1],
  rawQueryString: '',
  headers: {},
  isBase64Encoded: false,
  requestContext: {
    requestId: 'req-1',
    http: { method: routeKey.split(' ')[0], path: routeKey.split(' ')[1] },
    ...(claims && { authorizer: { jwt: { claims, scopes: null } } }),
  },
});

describe('Lambda bundles', () => {
  it('builds one bundle per resource, the token trigger, the background steps and the data migrations', () => {
    expect(sizes.map((s) => s.function).sort()).toEqual(
      [
        ...resources.map((r) => `PortaleApi/${r}`),
        'PortaleApi/PaymentExport/FlowTask',
        'PortaleApi/BackgroundJobs/PaymentJobs',
        'PortaleApi/BackgroundJobs/EnrolmentJobs',
        'PortaleApi/BackgroundJobs/NoticeJobs',
        'PortaleApi/BackgroundJobs/IseeJobs',
        'PortaleApi/BackgroundJobs/ScheduledJobs',
        'PortaleAuth/PreTokenGeneration',
        'PortaleIseeExtraction/IseeExtraction/ReadAttestation',
        'PortaleIseeExtraction/IseeExtraction/WriteExtraction',
        'PortaleOperations/Migrations/MigrationTask',
        'PortaleOperations/Migrations/StartMigrations',
      ].sort(),
    );
  });

  it('keeps every bundle under 150 KB minified', () => {
    // Every bundle over the limit at once, with its size (not only the first one).
    const over = sizes
      .filter(({ bytes }) => bytes >= LIMIT_BYTES)
      .map(({ function: name, bytes }) => `${name}: ${kilobytes(bytes)}`);
    expect(over).toEqual([]);
  });

  it('ships ES modules with the require shim, and leaves the AWS SDK to the runtime', () => {
    for (const fn of functions()) {
      const code = bundleOf(fn);
      expect(
        code.startsWith("import { createRequire as __portalCreateRequire } from 'node:module';"),
        fn.node.path,
      ).toBe(true);
      expect(code, fn.node.path).not.toMatch(/\bexports\.handler\b|module\.exports\s*=/);
    }
  });

  it('leaves @aws-sdk/* to the Lambda runtime: imported at run time, never bundled', () => {
    const bands = bundleOf(portal.api.functions.bands);
    expect(bands).toContain('from"@aws-sdk/client-dynamodb"');
    // A string of the DynamoDB client's own code (its service target): present only if it were bundled.
    for (const fn of functions()) expect(bundleOf(fn), fn.node.path).not.toContain('DynamoDB_20120810');
  });

  it('leaves Powertools and the X-Ray SDK to the Powertools layer of the installed version', () => {
    for (const name of ['logger', 'metrics', 'tracer']) {
      const installed = JSON.parse(
        readFileSync(path.join(repoRoot, `node_modules/@aws-lambda-powertools/${name}/package.json`), 'utf8'),
      );
      expect(installed.version, name).toBe(powertoolsVersion);
    }
    for (const fn of functions()) {
      const code = bundleOf(fn);
      if (fn === portal.auth.node.findChild('PreTokenGeneration')) {
        expect(layersOf(fn), 'the token trigger uses no Powertools').toEqual([]);
        continue;
      }
      // The layer's ARN is the public SSM parameter of this Powertools version, resolved at deploy time.
      expect(layersOf(fn), fn.node.path).toContainEqual(powertoolsLayerRef);
      expect(code, fn.node.path).toMatch(/from"@aws-lambda-powertools\/(logger|tracer)/);
      // Strings of the X-Ray SDK's and of the logger's own code: present only if they were bundled.
      expect(code, fn.node.path).not.toContain('AWS_XRAY_CONTEXT_MISSING');
      expect(code, fn.node.path).not.toContain('POWERTOOLS_LOGGER_LOG_EVENT');
    }
  });

  it('binds the table to every function whose code reads TABLE_NAME (it fails at cold start otherwise)', () => {
    for (const fn of functions()) {
      const readsTable = bundleOf(fn).includes('TABLE_NAME');
      expect(Boolean(environmentOf(fn).TABLE_NAME), fn.node.path).toBe(readsTable);
    }
  });

  it('gives each function its own service name, which its logs and metrics carry, with no metric warning', () => {
    const names = functions().map((fn) => environmentOf(fn).POWERTOOLS_SERVICE_NAME);
    expect(new Set(names).size).toBe(names.length);

    const profile = portal.api.functions.profile;
    // The cursor key and the origin-verify value are read from Secrets Manager at run time, which this machine cannot
    // reach: they are given the way the local stack gives them (the key in the environment, no origin check).
    const { CURSOR_SECRET_ARN, ORIGIN_VERIFY_SECRET_ARN, ...configured } = environmentOf(profile) as Record<
      string,
      string
    >;
    expect(CURSOR_SECRET_ARN).toBeTruthy();
    expect(ORIGIN_VERIFY_SECRET_ARN).toBeTruthy();
    const env: Record<string, string> = {
      ...configured,
      CURSOR_SECRET: 'bundle-test-cursor-key',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_TRACE_ENABLED: 'false',
    };
    expect(env.POWERTOOLS_SERVICE_NAME).toBe('profile');
    const claims = { sub: 'abc', 'cognito:groups': '[OPERATOR]', given_name: 'Mario', family_name: 'Rossi' };
    const twoRequests = `
      const { handler } = await import('./index.mjs');
      const context = () => ({ functionName: 'profile', awsRequestId: crypto.randomUUID(), getRemainingTimeInMillis: () => 10000 });
      for (const event of [${JSON.stringify(apiEvent('GET /api/me', claims))}, ${JSON.stringify(apiEvent('GET /api/me'))}]) await handler(event, context());
      console.log('{}');`;
    const result = run(bundleDir(portal.app, profile), twoRequests, env);
    expect(result.status, result.stderr).toBe(0);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(/has already been added|No application metrics to publish/);
    const metrics = result.stdout
      .split('\n')
      .filter((line) => line.includes('"_aws"'))
      .map((line) => JSON.parse(line));
    expect(metrics.map(({ service, operation, Request }) => ({ service, operation, Request }))).toEqual([
      { service: 'profile', operation: 'getMe', Request: 1 },
      { service: 'profile', operation: 'getMe', Request: 1 },
    ]);
  });

  it('load as ES modules on Node and export the handler (the table functions included)', () => {
    for (const fn of functions()) {
      expect(
        runNextToBundle(fn, "const m = await import('./index.mjs'); console.log(JSON.stringify(typeof m.handler));"),
        fn.node.path,
      ).toBe('function');
    }
  });

  it('gives ReadAttestation pdfjs-dist from a layer of its own, of the installed version, and no other function a layer of the stack', () => {
    const read = portal.iseeExtraction.readFunction;
    const stackLayers = (fn: PortalFunction) =>
      layersOf(fn).filter((layer) => layer.Type === 'AWS::Lambda::LayerVersion');
    for (const fn of functions()) expect(stackLayers(fn).length, fn.node.path).toBe(fn === read ? 1 : 0);
    const [layer] = stackLayers(read);
    expect(layer.Properties).toMatchObject({
      CompatibleRuntimes: ['nodejs22.x'],
      CompatibleArchitectures: ['arm64'],
      LicenseInfo: 'Apache-2.0',
    });
    const modules = ownLayerModules(portal.app, read)!;
    const installed = path.join(repoRoot, 'node_modules/pdfjs-dist');
    for (const file of pdfjsLayerFiles)
      expect(
        readFileSync(path.join(modules, 'pdfjs-dist', file)).equals(readFileSync(path.join(installed, file))),
        file,
      ).toBe(true);
    expect(JSON.parse(readFileSync(path.join(modules, 'pdfjs-dist/package.json'), 'utf8')).version).toBe(pdfjsVersion);
    // The bundle imports pdfjs by name; a string of pdfjs's own parser would be there only if it were bundled.
    const code = bundleOf(read);
    expect(code).toContain('"pdfjs-dist/legacy/build/pdf.min.mjs"');
    expect(code).not.toContain('Invalid PDF structure');
  });

  /**
   * The ReadAttestation bundle reading `document` as in the cloud: pdfjs from the function's layer, whose folder is
   * searched before the repository's node_modules (/opt/nodejs/node_modules in the cloud); pdfjs, resolving from
   * its own folder, reaches nothing beyond the layer (no @napi-rs/canvas, which the Lambda does not have).
   * Stand-ins for S3's GetObject (path-style, as S3_ENDPOINT asks) and for Textract's DetectDocumentText
   * (AWS_ENDPOINT_URL_TEXTRACT), which answers `textract` in turn and records the pages it was sent.
   */
  function readInBundle(
    document: Uint8Array,
    textract: TextractAnswer[] = [],
  ): { extraction: Record<string, unknown>; textractPages: string[] } {
    const script = `
      import http from 'node:http';
      const document = Buffer.from('${Buffer.from(document).toString('base64')}', 'base64');
      const answers = ${JSON.stringify(textract)};
      const textractPages = [];
      const server = http.createServer(async (req, res) => {
        if (req.headers['x-amz-target'] === 'Textract.DetectDocumentText') {
          let body = '';
          for await (const chunk of req) body += chunk;
          textractPages.push(Buffer.from(JSON.parse(body).Document.Bytes, 'base64').toString('latin1'));
          return res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answers[textractPages.length - 1]));
        }
        if (req.url.split('?')[0] !== '/documents/isee/abc/document') return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': document.length }).end(document);
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      process.env.S3_ENDPOINT = process.env.AWS_ENDPOINT_URL_TEXTRACT = 'http://127.0.0.1:' + server.address().port;
      const { handler } = await import('./index.mjs');
      const context = { functionName: 'read', awsRequestId: 'req-1', getRemainingTimeInMillis: () => 60000 };
      const extraction = await handler({ iseeId: 'abc', bucket: 'documents', key: 'isee/abc/document', contentType: 'application/pdf' }, context);
      server.close();
      console.log(JSON.stringify({ extraction, textractPages }));`;
    const read = portal.iseeExtraction.readFunction;
    return runNextToBundle(
      read,
      script,
      {
        ...(environmentOf(read) as Record<string, string>),
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_REGION: 'eu-south-1',
        POWERTOOLS_TRACE_ENABLED: 'false',
      },
      ownLayerModules(portal.app, read),
    );
  }

  it('reads a digital attestation in the ReadAttestation bundle from its text layer, with pdfjs from the layer', async () => {
    const pdf = await attestationPdf({
      fullName: 'Maria Rossi',
      fiscalCode: 'RSSMRA85C52H501N',
      protocol: 'INPS-ISEE-2025-00597381W-00',
      value: '12.345,67',
      ise: '19.382,70',
      scale: '1,57',
    });
    const { extraction, textractPages } = readInBundle(pdf);
    expect(extraction).toMatchObject({
      source: 'pdf-text',
      protocollo: 'INPS-ISEE-2025-00597381W-00',
      iseeOrdinario: 12345.67,
      ise: 19382.7,
      scalaEquivalenza: 1.57,
      coherent: true,
    });
    expect(textractPages).toEqual([]);
  });

  it('reads a scanned PDF in the ReadAttestation bundle: each page of pictures sent to Textract as a one-page PDF', async () => {
    const { answers, expected } = JSON.parse(
      readFileSync(path.join(repoRoot, 'test/fixtures/textract/multi-page-form-attestation.json'), 'utf8'),
    );
    const { extraction, textractPages } = readInBundle(await scannedPdf(2), answers);
    expect(extraction).toMatchObject({ source: 'textract', ...expected });
    expect(textractPages).toHaveLength(2);
    for (const page of textractPages) {
      expect(page.startsWith('%PDF-')).toBe(true);
      expect(page.match(/\/Type\s*\/Page\b/g)).toHaveLength(1);
    }
  });

  it('answers GET /api/openapi.json from the public bundle: the document of the route table, written beside it at build time', () => {
    const response = runNextToBundle(portal.api.functions.public, invoke(apiEvent('GET /api/openapi.json')));
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(JSON.stringify(openApiDocument()));
  });

  it('answers GET /api/me from the profile bundle with the claims Cognito and the trigger put in the token', () => {
    const claims = {
      sub: 'abc',
      'cognito:groups': '[OPERATOR]',
      fiscal_code: 'TINIT-RSSMRA80A01H501U',
      working_entity_id: 'ente-1',
      given_name: 'Mario',
      family_name: 'Rossi',
    };
    // Every sign-in is recorded by fiscal code (npm run roles finds the person by it): the bundle talks to dynalite.
    const script = `
      const { default: dynalite } = await import('dynalite');
      const { DynamoDBClient, CreateTableCommand, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
      const server = dynalite({ createTableMs: 0 });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:' + server.address().port;
      const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
      await client.send(new CreateTableCommand({ TableName: process.env.TABLE_NAME, BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }] }));
      ${invoke(apiEvent('GET /api/me', claims)).replace('console.log(JSON.stringify(', 'const response = ((')}
      const { Item } = await client.send(new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: { pk: { S: 'USERCF#RSSMRA80A01H501U' }, sk: { S: 'SIGNIN#abc' } } }));
      server.close();
      console.log(JSON.stringify({ response, signIn: Item ?? null }));`;
    const { response, signIn } = runNextToBundle(portal.api.functions.profile, script, {
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      POWERTOOLS_TRACE_ENABLED: 'false',
    });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      role: 'OPERATOR',
      fiscalCode: 'RSSMRA80A01H501U',
      fullName: 'Mario Rossi',
      workingEntityId: 'ente-1',
    });
    expect(signIn).toMatchObject({ sub: { S: 'abc' } });
  });
});

describe('npm run report:bundles -- --only', () => {
  it('bundles only the functions it names, by id or by path, each byte for byte as the deployment bundles it', () => {
    const only = reportApp('notices, PortaleApi/BackgroundJobs/IseeJobs');
    try {
      const all = only.app.node.findAll().filter((c): c is PortalFunction => c instanceof PortalFunction);
      expect(all.map((fn) => fn.node.path).sort()).toEqual(
        functions()
          .map((fn) => fn.node.path)
          .sort(),
      );
      // A function bundled has its code as an asset; the others have a placeholder, and no esbuild ran for them.
      const bundled = all.filter((fn) => fn.node.tryFindChild('Code'));
      expect(bundled.map((fn) => fn.node.path).sort()).toEqual([
        'PortaleApi/BackgroundJobs/IseeJobs',
        'PortaleApi/notices',
      ]);
      for (const fn of bundled) {
        const deployed = functions().find((f) => f.node.path === fn.node.path)!;
        expect(readFileSync(path.join(bundleDir(only.app, fn), 'index.mjs'), 'utf8')).toBe(bundleOf(deployed));
      }
    } finally {
      only.dispose();
    }
  });
});
