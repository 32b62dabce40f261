/**
 * Size of each Lambda bundle of the portal, and the time a fresh Node process takes to import it. As a
 * script (`npm run report:bundles [-- --runs 10] [--only isee,IseeJobs]`) it synthesizes the app into a
 * temporary folder, with a placeholder web app, and prints function → size of index.mjs → median import
 * time (wall and CPU), each beside the baseline: a module that loads only the AWS SDK and Powertools that
 * every function's common path needs (baselineModule). `--only` bundles and times the functions named (the
 * last part of the construct path, or the whole path) and the baselines alone: the others are not bundled
 * (BUNDLE_ONLY_CONTEXT).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Stage } from 'aws-cdk-lib';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { IConstruct } from 'constructs';
import { BUNDLE_ONLY_CONTEXT, isNamed, PortalFunction, repoRoot } from './portal-function.ts';
import { scratchApp } from './scratch-app.ts';

export interface BundleSize {
  /** Construct path of the function, e.g. PortaleApi/bands. */
  function: string;
  bytes: number;
}

const portalFunctions = (root: IConstruct) =>
  root.node.findAll().filter((c): c is PortalFunction => c instanceof PortalFunction);

/** The folder `app.synth()` wrote a function's bundle (index.mjs and its map) into. */
export const bundleDir = (root: Pick<Stage, 'outdir'>, fn: PortalFunction) =>
  path.join(root.outdir, (fn.node.findChild('Code') as Asset).assetPath);

/** The index.mjs of every PortalFunction under `root`, read from the assembly `app.synth()` wrote. */
export function bundleSizes(root: IConstruct & Pick<Stage, 'outdir'>): BundleSize[] {
  return portalFunctions(root).map((fn) => ({
    function: fn.node.path,
    bytes: statSync(path.join(bundleDir(root, fn), 'index.mjs')).size,
  }));
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** What the Lambda runtime (or CDK) gives every function; enough for every bundle's cold start. */
export const bundleEnv = {
  TABLE_NAME: 'portale-test',
  DOCUMENTS_BUCKET: 'portale-documents-test',
  EXPORTS_BUCKET: 'portale-exports-test',
  MAIL_FROM: 'noreply@comune.example.it',
  SUPPORT_EMAIL: 'supporto@comune.example.it',
  AWS_REGION: 'eu-south-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_DEV: 'false',
};

/** The `nodejs/node_modules` folder of the function's own layer as `app.synth()` wrote it, if it has one. */
export function ownLayerModules(root: Pick<Stage, 'outdir'>, fn: PortalFunction): string | undefined {
  const layer = fn.ownLayer?.layer;
  return layer && path.join(root.outdir, (layer.node.findChild('Code') as Asset).assetPath, 'nodejs/node_modules');
}

/**
 * Runs `script` (an ES module body) in a fresh Node process next to a copy of the bundle, as the Lambda
 * runtime would load it: what the bundle leaves external (@aws-sdk/*, the Powertools layer's packages)
 * resolves from the repository's node_modules, as it does from the runtime's and the layer's. A function's
 * own layer (`layerModules`) is searched first, so only what that layer holds is taken from it.
 */
export function runNextToBundle(
  dir: string,
  script: string,
  env: Record<string, string | undefined> = {},
  layerModules?: string,
) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'portale-bundle-'));
  const task = layerModules ? path.join(work, 'task') : work;
  try {
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(work, 'node_modules'));
    if (layerModules) {
      mkdirSync(task);
      symlinkSync(layerModules, path.join(task, 'node_modules'));
    }
    // The bundle and what ships beside it (its map; the public function's openapi.json).
    for (const file of readdirSync(dir)) copyFileSync(path.join(dir, file), path.join(task, file));
    return spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
      cwd: task,
      encoding: 'utf8',
      env: { ...process.env, ...bundleEnv, ...env },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const timeImport = `
  const wall = performance.now();
  const cpu = process.cpuUsage();
  await import('./index.mjs');
  const { user, system } = process.cpuUsage(cpu);
  console.log(JSON.stringify({ wall: performance.now() - wall, cpu: (user + system) / 1000 }));`;

export interface ImportTime {
  /** Milliseconds `await import('./index.mjs')` takes in a fresh Node process: median of the runs. */
  wall: number;
  /** The CPU milliseconds of that import (median): steadier than wall time on a busy machine. */
  cpu: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Import time of each bundle folder, over `runs` rounds: every round imports each bundle once, so a
 * busy moment of the machine weighs on all of them alike.
 */
export function importTimes(dirs: string[], runs = 10): ImportTime[] {
  const samples = dirs.map(() => [] as { wall: number; cpu: number }[]);
  for (let round = 0; round < runs; round++) {
    dirs.forEach((dir, i) => {
      const result = runNextToBundle(dir, timeImport);
      if (result.status !== 0) throw new Error(`${dir}: ${result.stderr}`);
      samples[i].push(JSON.parse(result.stdout.trim().split('\n').pop()!));
    });
  }
  return samples.map((runs) => ({ wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) }));
}

/**
 * The floor of a cold start, what the issue measures against: a module that loads only the AWS SDK's
 * DynamoDB client traced by Powertools (functions/adapters/dynamo.ts) and the logger, metrics and tracer
 * with their middlewares (functions/http/handler.ts, the job task).
 */
export const baselineModule = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
const logger = new Logger();
const metrics = new Metrics({ namespace: 'Baseline' });
const tracer = new Tracer();
export const client = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({})));
export const middlewares = [injectLambdaContext(logger), logMetrics(metrics), captureLambdaHandler(tracer)];
`;

/**
 * The baseline and Powertools' secrets reader, with the Secrets Manager client under it: every function bound
 * to the table is bound to the cursor secret too (lib/api-stack.ts) and reads it before its first request
 * (functions/adapters/secrets.ts), so this is the floor of a cold start's import and first request together.
 */
export const baselineWithSecretsModule = `${baselineModule}
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
export const readSecret = getSecret;
`;

/** The names of `--only`: 'isee, IseeJobs' → ['isee', 'IseeJobs']. */
const namesOf = (only: string) =>
  only
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** The functions `--only` names, by the last part of their construct path (IseeJobs) or the whole path. */
export function selectFunctions<T extends { node: { path: string; id: string } }>(functions: T[], only?: string) {
  if (!only) return functions;
  const names = namesOf(only);
  const unknown = names.filter((name) => !functions.some((fn) => isNamed([name], fn.node)));
  if (unknown.length)
    throw new Error(
      `No function named ${unknown.join(', ')}; the functions: ${functions.map((fn) => fn.node.id).join(', ')}`,
    );
  return functions.filter((fn) => isNamed(names, fn.node));
}

/** The app to report on: with `--only`, only the functions it names are bundled. */
export const reportApp = (only?: string) =>
  scratchApp({ context: only ? { [BUNDLE_ONLY_CONTEXT]: namesOf(only) } : {} });

function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, only: { type: 'string' } } });
  const runs = Number(values.runs);
  const portal = reportApp(values.only);
  const baselines = [
    { name: 'baseline: DynamoDB client and Powertools', module: baselineModule },
    { name: 'baseline and the secrets reader', module: baselineWithSecretsModule },
  ].map((baseline) => ({ ...baseline, dir: mkdtempSync(path.join(os.tmpdir(), 'portale-baseline-')) }));
  try {
    for (const baseline of baselines) writeFileSync(path.join(baseline.dir, 'index.mjs'), baseline.module);
    const functions = selectFunctions(portalFunctions(portal.app), values.only);
    portal.app.synth();
    const dirs = functions.map((fn) => bundleDir(portal.app, fn));
    const times = runs > 0 ? importTimes([...baselines.map((b) => b.dir), ...dirs], runs) : [];
    console.log(
      `| function | minified | import, wall (median of ${runs}) | import, CPU (median) | CPU ÷ baseline | CPU ÷ baseline with secrets |\n|---|--:|--:|--:|--:|--:|`,
    );
    const row = (name: string, size: string, time?: ImportTime) =>
      console.log(
        `| ${[
          name,
          size,
          ...(time
            ? [
                `${time.wall.toFixed(0)} ms`,
                `${time.cpu.toFixed(0)} ms`,
                ...times.slice(0, baselines.length).map((baseline) => `${(time.cpu / baseline.cpu).toFixed(2)}×`),
              ]
            : ['-', '-', '-', '-']),
        ].join(' | ')} |`,
      );
    baselines.forEach((baseline, i) => row(baseline.name, '-', times[i]));
    functions.forEach((fn, i) =>
      row(fn.node.path, kilobytes(statSync(path.join(dirs[i], 'index.mjs')).size), times[baselines.length + i]),
    );
  } finally {
    portal.dispose();
    for (const baseline of baselines) rmSync(baseline.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
