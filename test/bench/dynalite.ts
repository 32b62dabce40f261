/**
 * `npm run bench:dynalite`: the cost of one call to the local DynamoDB stand-in, as the functions make it
 * (functions/adapters/dynamo.ts' DynamoDBDocumentClient, HTTP to dynalite on 127.0.0.1, dynalite persisted
 * in a fresh LevelDB folder, in the same process as the caller, as `npm start` runs it).
 *
 * Per operation, N sequential calls: BatchWriteItem (25 items), GetItem, PutItem, conditional UpdateItem
 * (attribute_exists + ADD), Query on gsi1 (10 items a page) and a conditional PutItem that fails
 * (attribute_not_exists on an existing key). Prints µs of wall time and of CPU (client + dynalite, one
 * process) per call, the TCP connections dynalite accepted (keep-alive: 1 for the whole run over HTTP, 0 in
 * process) and the read
 * capacity the Queries consumed (independent of load).
 *
 * Each variant runs in a child process, alternated A/B/A/B so both see the same machine load:
 *   baseline     dynalite as published (reads the table definition from LevelDB on every request), over HTTP
 *   cached       the table definitions kept in memory (lib/local/dynalite-table-cache.ts), over HTTP
 *   in-process   cached, and the SDK's requests handed to dynalite's request handler in memory
 *                (lib/local/dynalite-in-process.ts): what startDynamo does by default
 *
 *   BENCH_N=2000 npm run bench:dynalite          calls per operation (default 1000)
 *   BENCH_ROUNDS=3 npm run bench:dynalite        A/B rounds (default 2)
 *   BENCH_PROFILE=1 npm run bench:dynalite       also write a CPU profile per child (node --cpu-prof) in
 *                                                .data-bench/dynalite-profiles and print its top self-time functions
 *
 * Not part of npm test.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { untracedFunctionEnv } from '../../lib/local/untraced-env.ts';

const here = fileURLToPath(import.meta.url);
const N = Number(process.env.BENCH_N ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PROFILE = process.env.BENCH_PROFILE === '1';
const TABLE = 'bench-dynalite';
const VARIANTS = ['baseline', 'cached', 'in-process'] as const;
type Variant = (typeof VARIANTS)[number];

interface OperationResult {
  name: string;
  calls: number;
  wallUs: number;
  cpuUs: number;
}
interface ChildResult {
  variant: Variant;
  operations: OperationResult[];
  connections: number;
  queryReadCapacity: number;
  queryItems: number;
}

async function child(variant: Variant): Promise<void> {
  const { ensureTable, startDynamo } = await import('../../lib/local/stores.ts');
  const { freePort } = await import('../support/ports.ts');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-dynalite-'));
  const port = await freePort();
  const dynamo = await startDynamo(dataDir, port, {
    cacheTables: variant !== 'baseline',
    inProcess: variant === 'in-process',
  });
  let connections = 0;
  dynamo.server.on('connection', () => connections++);
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...untracedFunctionEnv,
    CURSOR_SECRET: 'bench',
  });
  try {
    await ensureTable(endpoint, TABLE);
    const { documentClient } = await import('../../functions/adapters/dynamo.ts');
    const { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } =
      await import('@aws-sdk/lib-dynamodb');
    connections = 0;
    const item = (i: number) => ({
      pk: `ITEM#${i}`,
      sk: 'ITEM',
      gsi1pk: `GROUP#${i % 50}`,
      gsi1sk: `ITEM#${String(i).padStart(8, '0')}`,
      name: `Elemento ${i}`,
      amountCents: i * 100,
      tags: ['a', 'b'],
      nested: { city: 'Roma', zip: '00100' },
      counter: 0,
    });
    const operations: OperationResult[] = [];
    const measure = async (name: string, calls: number, run: (i: number) => Promise<unknown>) => {
      // A few warm-up calls (JIT, first connection) before the clock starts.
      for (let i = 0; i < 20; i++) await run(i);
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await run(i);
      const wall = Number(process.hrtime.bigint() - start) / 1000;
      const used = process.cpuUsage(cpu);
      operations.push({ name, calls, wallUs: wall / calls, cpuUs: (used.user + used.system) / calls });
    };
    const batches = Math.ceil(N / 25);
    await measure('BatchWriteItem (25 items)', batches, (b) =>
      documentClient.send(
        new BatchWriteCommand({
          RequestItems: { [TABLE]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: item(b * 25 + j) } })) },
        }),
      ),
    );
    await measure('GetItem', N, (i) =>
      documentClient.send(new GetCommand({ TableName: TABLE, Key: { pk: `ITEM#${i % N}`, sk: 'ITEM' } })),
    );
    await measure('PutItem', N, (i) =>
      documentClient.send(new PutCommand({ TableName: TABLE, Item: { ...item(N + i), name: `Nuovo ${i}` } })),
    );
    await measure('UpdateItem (conditional)', N, (i) =>
      documentClient.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: { pk: `ITEM#${i % N}`, sk: 'ITEM' },
          UpdateExpression: 'ADD #counter :one SET #name = :name',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#counter': 'counter', '#name': 'name' },
          ExpressionAttributeValues: { ':one': 1, ':name': `Aggiornato ${i}` },
        }),
      ),
    );
    let queryReadCapacity = 0;
    let queryItems = 0;
    await measure('Query gsi1 (10 items)', N, async (i) => {
      const result = await documentClient.send(
        new QueryCommand({
          TableName: TABLE,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `GROUP#${i % 50}` },
          Limit: 10,
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      queryReadCapacity += result.ConsumedCapacity?.CapacityUnits ?? 0;
      queryItems += result.Items?.length ?? 0;
    });
    await measure('PutItem (condition fails)', N, async (i) => {
      try {
        await documentClient.send(
          new PutCommand({ TableName: TABLE, Item: item(i % N), ConditionExpression: 'attribute_not_exists(pk)' }),
        );
        throw new Error('the condition should have failed');
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    });
    const result: ChildResult = {
      variant,
      operations,
      connections,
      queryReadCapacity: queryReadCapacity / (N + 20),
      queryItems: queryItems / (N + 20),
    };
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    documentClient.destroy();
  } finally {
    await dynamo.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function runChild(variant: Variant, profileDir: string | undefined): Promise<ChildResult> {
  const args = [
    '--import',
    'tsx',
    ...(profileDir
      ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${variant}-${Date.now()}.cpuprofile`]
      : []),
    here,
    '--child',
    variant,
  ];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) return reject(new Error(`${variant} exited with ${code}\n${out}`));
      resolve(JSON.parse(line.slice('RESULT '.length)));
    });
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** The functions with the most self time in a .cpuprofile, grouped by package (or file). */
async function topOfProfile(file: string, count = 25) {
  const profile = JSON.parse(await fs.readFile(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const area = (url: string) => {
    const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (match) return match[1];
    if (!url) return '(native/gc/idle)';
    if (!url.startsWith('file:') && !url.startsWith('/')) return url.split('/')[0] || url;
    return path.relative(process.cwd(), url.startsWith('file:') ? fileURLToPath(url) : url);
  };
  for (const node of profile.nodes) {
    const time = self.get(node.id) ?? 0;
    if (!time) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${area(url)}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    byArea.set(area(url), (byArea.get(area(url)) ?? 0) + time);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, time]) => `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `by package/file:\n${top(byArea, 15)}\nby function:\n${top(byFunction, count)}`;
}

async function main() {
  const profileDir = PROFILE ? path.resolve('.data-bench/dynalite-profiles') : undefined;
  if (profileDir) await fs.mkdir(profileDir, { recursive: true });
  console.log(
    `bench:dynalite — ${N} calls per operation, ${ROUNDS} rounds, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const results: ChildResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of round % 2 ? [...VARIANTS].reverse() : VARIANTS)
      results.push(await runChild(variant, profileDir));
  }
  const names = results[0].operations.map((o) => o.name);
  const mean = (variant: Variant, name: string, field: 'wallUs' | 'cpuUs') => {
    const values = results
      .filter((r) => r.variant === variant)
      .map((r) => r.operations.find((o) => o.name === name)![field]);
    return values.reduce((a, b) => a + b, 0) / values.length;
  };
  const rows = names.map((name) => {
    const row: Record<string, string | number> = { operation: name };
    const [baseWall, baseCpu] = [mean('baseline', name, 'wallUs'), mean('baseline', name, 'cpuUs')];
    for (const variant of VARIANTS) {
      const [wall, cpu] = [mean(variant, name, 'wallUs'), mean(variant, name, 'cpuUs')];
      row[`${variant} wall µs`] = Math.round(wall);
      row[`${variant} CPU µs`] = Math.round(cpu);
      if (variant !== 'baseline')
        row[`${variant} CPU/wall ×`] = `${(baseCpu / cpu).toFixed(2)}/${(baseWall / wall).toFixed(2)}`;
    }
    return row;
  });
  console.table(rows);
  console.log('(× = baseline ÷ variant: how many times cheaper than dynalite as published over HTTP)');
  for (const variant of VARIANTS) {
    const of = results.filter((r) => r.variant === variant);
    console.log(
      `${variant}: TCP connections to dynalite per run ${of.map((r) => r.connections).join(', ')}; Query: ${of[0].queryItems.toFixed(1)} items, ${of[0].queryReadCapacity.toFixed(2)} RCU a call`,
    );
  }
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (profileDir) {
    await summariseProfiles(profileDir);
  }
}

async function summariseProfiles(profileDir: string) {
  {
    const files = (await fs.readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile')).sort();
    for (const variant of VARIANTS) {
      const latest = files.filter((f) => f.startsWith(variant)).at(-1);
      if (latest)
        console.log(
          `\n${variant} profile (${path.join(profileDir, latest)}):\n${await topOfProfile(path.join(profileDir, latest))}`,
        );
    }
  }
}

const childIndex = process.argv.indexOf('--child');
const run =
  childIndex >= 0
    ? child(process.argv[childIndex + 1] as Variant)
    : process.argv.includes('--summarise')
      ? summariseProfiles(path.resolve('.data-bench/dynalite-profiles'))
      : main();
run.catch((error) => {
  console.error(error);
  process.exit(1);
});
