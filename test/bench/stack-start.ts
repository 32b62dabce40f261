/**
 * npm run bench:stacks: what one test stack costs to start, as test/support/stack-pool.ts starts it (its own
 * process, from the bundle of test/support/stack-bundle.ts; STACK_LOADER=tsx: from the sources through tsx, as
 * before), for each tier's settings: wall time to its first answer and the CPU its process spent on it.
 * RUNS (default 3) starts of each, one after another; KIND picks one tier.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from '../../lib/local/runtime.ts';
import { INTEGRATION_INDEX_LAG_MS } from '../integration/global-setup.ts';
import { DYNAMODB_PARTITION_WRITE_UNITS } from '../../lib/local/dynalite-partition-limit.ts';
import { bundleStackProcess } from '../support/stack-bundle.ts';
import { freeStackPorts } from '../support/stack.ts';

const CLOCK_TICKS = 100;
/** A process's user and system CPU so far, its threads included (/proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function startOnce(entry: string, execArgv: string[], options: StartOptions, env: Record<string, string>) {
  const ports = await freeStackPorts();
  const started = performance.now();
  const child = fork(entry, [], {
    execArgv,
    env: { ...process.env, TEST_STACK: JSON.stringify({ options, ports, env }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`The stack stopped before it started (exit ${code})`)));
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(child.pid!);
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.disconnect();
  });
  return { wall, cpu };
}

const integration: StartOptions = {
  web: 'none',
  seed: false,
  indexLagMs: INTEGRATION_INDEX_LAG_MS,
  partitionWriteUnits: DYNAMODB_PARTITION_WRITE_UNITS,
  functionTimeouts: true,
};
const kinds: Record<string, [StartOptions, Record<string, string>]> = {
  integration: [integration, {}],
  'integration-gpd': [integration, { PAYMENT_PLATFORM: 'gpd' }],
  e2e: [{ web: 'dist', seed: true }, {}],
};

const runs = Number(process.env.RUNS ?? 3);
const tsx = process.env.STACK_LOADER === 'tsx';
const bundleStarted = performance.now();
const bundle = tsx ? null : await bundleStackProcess('bench');
if (bundle) console.log(`bundle built in ${((performance.now() - bundleStarted) / 1000).toFixed(1)} s`);
const [entry, execArgv] = bundle
  ? [bundle.file, ['--enable-source-maps']]
  : [fileURLToPath(new URL('../support/stack-process.ts', import.meta.url)), ['--import', 'tsx']];
try {
  for (const [name, [options, env]] of Object.entries(kinds)) {
    if (process.env.KIND && process.env.KIND !== name) continue;
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await startOnce(entry, execArgv, options, env));
    const line = results.map((r) => `${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU`).join(' | ');
    console.log(`${name} (${tsx ? 'tsx' : 'bundle'}): ${line}`);
  }
} finally {
  await bundle?.remove();
}
