/**
 * npm run bench:users — user search with 50,000 users, through the real handler, on a local dynalite.
 * Seeds the users with BatchWrite (search attributes as the repository writes them), then measures,
 * for each filter of /lista_utenti, the p50/p95 latency of GET /api/users and the read capacity it
 * consumed (dynalite reports ConsumedCapacity as DynamoDB would). No request scans the table. dynalite runs as
 * the local stack runs it, in its own thread (DYNALITE_THREAD=off: in this one).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import { ensureTable } from '../../lib/local/stores.ts';
import { startLocalDynamo } from '../../lib/local/dynalite-thread.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';
import { freePort } from '../support/ports.ts';
import { untracedFunctionEnv } from '../../lib/local/untraced-env.ts';
import { writeAll } from './seed.ts';
import { random as seededRandom } from '../fixtures/isee/people.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TABLE = 'bench-users';

const FIRST = [
  'Maria',
  'Giuseppe',
  'Anna',
  'Luca',
  'Giulia',
  'Marco',
  'Francesca',
  'Alessandro',
  'Chiara',
  'Andrea',
  'Sara',
  'Matteo',
  'Elena',
  'Lorenzo',
  'Martina',
  'Davide',
  'Valentina',
  'Simone',
  'Federica',
  'Stefano',
  'Paola',
  'Roberto',
  'Silvia',
  'Antonio',
  'Laura',
  'Nicola',
  'Ilaria',
  'Fabio',
  'Elisa',
  'Paolo',
];
const LAST = [
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  'Greco',
  'Bruno',
  'Gallo',
  'Conti',
  'De Luca',
  'Mancini',
  'Costa',
  'Giordano',
  'Rizzo',
  'Lombardi',
  'Moretti',
  'Barbieri',
  'Fontana',
  'Santoro',
  'Mariani',
  'Rinaldi',
  'Caruso',
  'Ferrara',
  'Galli',
  'Martini',
  'Leone',
  'Longo',
  'Gentile',
  'Martinelli',
  'Vitale',
  'Lombardo',
  'Serra',
  'Coppola',
  "D'Angelo",
  'Marchetti',
  'Parisi',
];

// A seeded generator, so every run seeds the same users (BENCH_SEED: a held-out set).
const SEED = Number(process.env.BENCH_SEED ?? 42);
const { next: random } = seededRandom(SEED);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
const fiscalCode = () => randomFiscalCodeFrom(random);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-users-'));
  const port = await freePort();
  const dynamo = await startLocalDynamo(dataDir, port);
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...untracedFunctionEnv,
    CURSOR_SECRET: 'bench-cursor-secret',
  });
  try {
    await ensureTable(endpoint, TABLE);
    const repository: Record<string, any> = await import('../../functions/users/repository.ts');
    const { searchUsersMeasured } = await import('../../functions/users/repository-search.ts');
    const { userSearchSchema } = await import('../../functions/domain/users.ts');
    // Every item a user is stored as (the user and its names item), as the seed writes them.
    const userItems: (user: Record<string, unknown>) => Record<string, unknown>[] =
      repository.userItems ?? ((user) => [repository.userItem(user)]);
    const { handler } = await import('../../functions/entry/users.ts');
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));

    // Seed: 50,000 users, one in 20 LOADED, most with e-mail and phone.
    const started = performance.now();
    const samples: { lastName: string; firstName: string; fiscalCode: string; email: string; phone: string }[] = [];
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < USERS; i++) {
      const firstName = pick(FIRST);
      const lastName = `${pick(LAST)}${random() < 0.7 ? '' : ` ${pick(LAST)}`}`;
      const code = fiscalCode();
      const email = random() < 0.85 ? `${firstName}.${lastName.replace(/\W/g, '')}${i}@example.it`.toLowerCase() : null;
      const phone = random() < 0.7 ? `+393${String(100_000_000 + Math.floor(random() * 899_999_999))}` : null;
      const stored = userItems({
        id: `u${String(i).padStart(6, '0')}`,
        firstName,
        lastName,
        fiscalCode: code,
        email,
        phoneNumber: phone,
        state: random() < 0.05 ? 'LOADED' : 'VALIDATED',
        dataInsert: new Date().toISOString(),
      });
      items.push(...stored);
      if (i % 500 === 0 && email && phone) samples.push({ lastName, firstName, fiscalCode: code, email, phone });
    }
    await writeAll(client, TABLE, items);
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(
      `Seeded ${USERS.toLocaleString('it-IT')} users in ${seedSeconds.toFixed(1)} s (${Math.round(USERS / seedSeconds)} writes/s).\n`,
    );

    const cases: [string, (s: (typeof samples)[number]) => Record<string, string>][] = [
      ['no filter (first page)', () => ({})],
      ['fiscal code (exact)', (s) => ({ fiscalCode: s.fiscalCode })],
      ['fiscal code (prefix 6)', (s) => ({ fiscalCode: s.fiscalCode.slice(0, 6) })],
      ['last name (prefix 4)', (s) => ({ lastName: s.lastName.slice(0, 4) })],
      ['first name (prefix 3)', (s) => ({ firstName: s.firstName.slice(0, 3) })],
      ['e-mail (prefix 8)', (s) => ({ email: s.email.slice(0, 8) })],
      ['phone (prefix 8 digits)', (s) => ({ phoneNumber: s.phone.slice(1, 9) })],
      ['Da validare (loaded=true)', () => ({ loaded: 'true' })],
      ['last + first name', (s) => ({ lastName: s.lastName.slice(0, 4), firstName: s.firstName.slice(0, 3) })],
      ['last + first name (whole)', (s) => ({ lastName: s.lastName, firstName: s.firstName })],
      ['last (1 letter) + first name', (s) => ({ lastName: s.lastName.slice(0, 1), firstName: s.firstName })],
      ['last name + first (1 letter)', (s) => ({ lastName: s.lastName, firstName: s.firstName.slice(0, 1) })],
      ['Da validare + last name', (s) => ({ loaded: 'true', lastName: s.lastName.slice(0, 3) })],
      ['Da validare + first name', (s) => ({ loaded: 'true', firstName: s.firstName.slice(0, 3) })],
      [
        'Da validare + last + first',
        (s) => ({ loaded: 'true', lastName: s.lastName.slice(0, 3), firstName: s.firstName.slice(0, 3) }),
      ],
      ['first name + e-mail', (s) => ({ firstName: s.firstName.slice(0, 3), email: s.email.slice(0, 3) })],
      ['last name + e-mail', (s) => ({ lastName: s.lastName.slice(0, 4), email: s.email.slice(0, 3) })],
      [
        'last + first + e-mail',
        (s) => ({ lastName: s.lastName.slice(0, 4), firstName: s.firstName.slice(0, 3), email: s.email.slice(0, 3) }),
      ],
      ['last name + phone', (s) => ({ lastName: s.lastName.slice(0, 4), phoneNumber: s.phone.slice(1, 9) })],
      ['last name + fiscal code', (s) => ({ lastName: s.lastName.slice(0, 4), fiscalCode: s.fiscalCode.slice(0, 6) })],
      ['Da validare + e-mail', (s) => ({ loaded: 'true', email: s.email.slice(0, 3) })],
      [
        'every filter',
        (s) => ({
          lastName: s.lastName.slice(0, 4),
          firstName: s.firstName.slice(0, 3),
          fiscalCode: s.fiscalCode.slice(0, 6),
          email: s.email.slice(0, 3),
          phoneNumber: s.phone.slice(1, 9),
          loaded: 'true',
        }),
      ],
    ];
    const rows: string[][] = [];
    for (const [name, query] of cases) {
      const times: number[] = [];
      const capacity: number[] = [];
      const evaluated: number[] = [];
      let results = 0;
      for (let run = 0; run < RUNS; run++) {
        const sample = samples[run % samples.length];
        const event = apiEvent('GET /api/users', { claims: claimsOf.operator, query: query(sample) });
        const t0 = performance.now();
        const response = (await handler(event, lambdaContext)) as { statusCode: number; body: string };
        times.push(performance.now() - t0);
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        results += JSON.parse(response.body).items.length;
        // What the same search read (asked again, outside the timing: the handler answers the page only).
        const { stats } = await searchUsersMeasured(userSearchSchema.parse(query(sample)));
        capacity.push(stats.consumedCapacity);
        evaluated.push(stats.evaluated);
      }
      rows.push([
        name,
        percentile(times, 50).toFixed(1),
        percentile(times, 95).toFixed(1),
        (capacity.reduce((a, b) => a + b, 0) / RUNS).toFixed(1),
        String(Math.round(evaluated.reduce((a, b) => a + b, 0) / RUNS)),
        (results / RUNS).toFixed(1),
      ]);
    }
    const header = ['filter', 'p50 ms', 'p95 ms', 'RCU/request', 'items read', 'results'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(
      `\n${RUNS} requests per filter, page size 15, seed ${SEED}, through functions/entry/users.ts on dynalite (Node ${process.version}); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}.`,
    );
  } finally {
    await dynamo.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
