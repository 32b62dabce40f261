import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../functions/routes.ts';
import { PortalFunction, repoRoot } from '../../lib/portal-function.ts';
import { bundleSizes, kilobytes, type BundleSize } from '../../lib/report-bundles.ts';
import { scratchApp, type ScratchApp } from '../../lib/scratch-app.ts';

const LIMIT_BYTES = 1.5 * 1024 * 1024;

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
const bundleOf = (fn: PortalFunction) =>
  readFileSync(path.join(portal.app.outdir, (fn.node.findChild('Code') as Asset).assetPath, 'index.mjs'), 'utf8');

/**
 * Runs `script` (an ES module body) next to a copy of the bundle, as the Lambda runtime would load it:
 * @aws-sdk/* resolves from the repository's node_modules, as it does from the runtime's.
 */
function runNextToBundle(fn: PortalFunction, script: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portale-bundle-'));
  try {
    const assetDir = path.join(portal.app.outdir, (fn.node.findChild('Code') as Asset).assetPath);
    for (const file of ['index.mjs', 'index.mjs.map']) copyFileSync(path.join(assetDir, file), path.join(dir, file));
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
    const result = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TABLE_NAME: 'portale-test', DOCUMENTS_BUCKET: 'portale-documents-test', AWS_REGION: 'eu-south-1', POWERTOOLS_DEV: 'false' },
    });
    expect(result.status, `${fn.node.path}: ${result.stderr}`).toBe(0);
    return JSON.parse(result.stdout.trim().split('\n').pop()!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  it('builds one bundle per resource and one for the token trigger', () => {
    expect(sizes.map((s) => s.function).sort()).toEqual(
      [
        ...resources.map((r) => `PortaleApi/${r}`),
        'PortaleAuth/PreTokenGeneration',
        'PortaleIseeExtraction/IseeExtraction/ReadAttestation',
        'PortaleIseeExtraction/IseeExtraction/WriteExtraction',
      ].sort(),
    );
  });

  it('keeps every bundle under 1.5 MB minified', () => {
    for (const { function: name, bytes } of sizes) expect(bytes, `${name}: ${kilobytes(bytes)}`).toBeLessThan(LIMIT_BYTES);
  });

  it('ships ES modules with the require shim, and leaves the AWS SDK to the runtime', () => {
    for (const fn of functions()) {
      const code = bundleOf(fn);
      expect(code.startsWith("import { createRequire as __portalCreateRequire } from 'node:module';"), fn.node.path).toBe(true);
      expect(code, fn.node.path).not.toMatch(/\bexports\.handler\b|module\.exports\s*=/);
    }
  });

  it('leaves @aws-sdk/* to the Lambda runtime: imported at run time, never bundled', () => {
    const bands = bundleOf(portal.api.functions.bands);
    expect(bands).toContain('from"@aws-sdk/client-dynamodb"');
    // A string of the DynamoDB client's own code (its service target): present only if it were bundled.
    for (const fn of functions()) expect(bundleOf(fn), fn.node.path).not.toContain('DynamoDB_20120810');
  });

  it('binds the table to every function whose code reads TABLE_NAME (it fails at cold start otherwise)', () => {
    for (const fn of functions()) {
      const readsTable = bundleOf(fn).includes('TABLE_NAME');
      const env = Stack.of(fn).resolve((fn.node.defaultChild as CfnFunction).environment) as
        | { variables?: Record<string, unknown> }
        | undefined;
      expect(Boolean(env?.variables?.TABLE_NAME), fn.node.path).toBe(readsTable);
    }
  });

  it('load as ES modules on Node and export the handler (the table functions included)', () => {
    for (const fn of functions()) {
      expect(runNextToBundle(fn, "const m = await import('./index.mjs'); console.log(JSON.stringify(typeof m.handler));"), fn.node.path).toBe(
        'function',
      );
    }
  });

  it('answers GET /api/openapi.json from the public bundle', () => {
    const response = runNextToBundle(portal.api.functions.public, invoke(apiEvent('GET /api/openapi.json')));
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).openapi).toBe('3.0.3');
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
    const response = runNextToBundle(portal.api.functions.profile, invoke(apiEvent('GET /api/me', claims)));
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ role: 'OPERATOR', fiscalCode: 'RSSMRA80A01H501U', fullName: 'Mario Rossi', workingEntityId: 'ente-1' });
  });
});
