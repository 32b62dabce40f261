/**
 * npm run bench:enrolment — the enrolled users table of a call with 5,000 subscriptions, through the real
 * handler (functions/entry/enrolments.ts) on a local dynalite: p50/p95 of the first page, filtered
 * pages and sorted pages, the read capacity each request consumed (every read of the request: the call,
 * its bands, the counters and the page; dynalite reports ConsumedCapacity as DynamoDB would), and the
 * time of a 5,000-row import preview (then of its apply). 'CPU ms' is the CPU this process spent on a request
 * (the handler and dynalite, which runs in the same process): it depends much less on the machine's load
 * than the wall-clock figures. dynalite runs as the local stack runs it, in its own thread (DYNALITE_THREAD=off:
 * in this one). BENCH_CASES=word,word narrows the pages; BENCH_SKIP_IMPORT=1 skips the import.
 *
 * The data comes from a seeded generator: seed 42, the one the code was tuned on, and seed 7, held out
 * (design §6): both figures are printed. BENCH_SEEDS=42 runs one.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import type { SubscriptionState } from '../../functions/domain/subscriptions.ts';
import type { SubscriptionRecord } from '../../functions/domain/subscription-record.ts';
import { ensureTable } from '../../lib/local/stores.ts';
import { startLocalDynamo } from '../../lib/local/dynalite-thread.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';
import { freePort } from '../support/ports.ts';
import { untracedFunctionEnv } from '../../lib/local/untraced-env.ts';
import { timeoutOf } from '../../lib/function-access.ts';
import { writeAll } from './seed.ts';
import { random as seededRandom } from '../fixtures/isee/people.ts';
import { romeYear } from '../../functions/domain/period.ts';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 5_000);
const RUNS = Math.max(50, Number(process.env.BENCH_RUNS ?? 60));
const SEEDS = (process.env.BENCH_SEEDS ?? '42,7').split(',').map(Number);

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
  'Giovanni',
  'Rosa',
  'Salvatore',
  'Angela',
  'Vincenzo',
  'Teresa',
  'Francesco',
  'Lucia',
  'Pietro',
  'Carla',
];
// Surnames are built from stems and endings, as Italian ones are (Ross-i, Ross-etti, Bianch-i, ...): ~1,000 of them.
const STEMS = [
  'Ross',
  'Bianch',
  'Ferr',
  'Russ',
  'Espos',
  'Roman',
  'Colomb',
  'Ricc',
  'Marin',
  'Grec',
  'Brun',
  'Gall',
  'Cont',
  'Mancin',
  'Cost',
  'Giordan',
  'Rizz',
  'Lombard',
  'Morett',
  'Barbier',
  'Fontan',
  'Santor',
  'Marian',
  'Rinald',
  'Carus',
  'Ferrar',
  'Martin',
  'Leon',
  'Long',
  'Gentil',
  'Vital',
  'Serr',
  'Coppol',
  'Marchett',
  'Paris',
  'Villa',
  'Conte',
  'Ferrett',
  'Fabbr',
  'Bellin',
  'Pellegrin',
  'Palumb',
  'Sanna',
  'Farin',
  'Rizzut',
  'Monti',
  'Cattan',
  'Morell',
  'Amat',
  'Silvestr',
  'Mazz',
  'Testa',
  'Grass',
  'Pellican',
  'Orland',
  'Valent',
  'Bianc',
  'Negr',
  'Fior',
  'Guerr',
  'Bernard',
  'Sartor',
  'Gatt',
  'Donat',
  'Piras',
  'Ruggier',
  'Caputo',
  'Gallo',
  'Basil',
  'Benedett',
  'Dell',
  'Neri',
  'Carbon',
  'Pace',
  'Giuliani',
  'Marchi',
  'Cristian',
  'Rota',
  'Ferrant',
  'Messin',
  'Lupo',
  'Messina',
  'Fumagall',
  'Bassi',
];
const ENDINGS = ['i', 'o', 'a', 'etti', 'ini', 'elli', 'one', 'ucci', 'otti', 'ato', 'ese', 'ari'];

function generator(seed: number) {
  const { next: random } = seededRandom(seed);
  // Zipf-like: the first stems are much more common, as Rossi and Russo are.
  const zipf = <T>(list: readonly T[]) => list[Math.min(list.length - 1, Math.floor(list.length * random() ** 2.2))];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const fiscalCode = () => randomFiscalCodeFrom(random);
  return {
    random,
    zipf,
    pick,
    fiscalCode,
    lastName: () => `${zipf(STEMS)}${pick(ENDINGS)}${random() < 0.08 ? ` ${zipf(STEMS)}${pick(ENDINGS)}` : ''}`,
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function runSeed(seed: number) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-enrolment-'));
  const port = await freePort();
  const dynamo = await startLocalDynamo(dataDir, port);
  const endpoint = `http://127.0.0.1:${port}`;
  const TABLE = `bench-enrolment-${seed}`;
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    CURSOR_SECRET: 'bench-secret',
    DOCUMENTS_BUCKET: 'bench-documents',
    S3_ENDPOINT: 'http://127.0.0.1:1',
    POWERTOOLS_LOG_LEVEL: process.env.BENCH_LOG ?? 'SILENT',
    ...untracedFunctionEnv,
  });
  try {
    await ensureTable(endpoint, TABLE);
    const { documentClient } = await import('../../functions/adapters/dynamo.ts');
    const users = await import('../../functions/users/repository.ts');
    const subscriptions = {
      ...(await import('../../functions/subscriptions/repository.ts')),
      ...(await import('../../functions/subscriptions/repository-items.ts')),
    };
    const bands = await import('../../functions/bands/repository.ts');
    const calls = await import('../../functions/calls/repository.ts');
    const { handler } = await import('../../functions/entry/enrolments.ts');
    const { handler: csvHandler } = await import('../../functions/entry/enrolment-csv.ts');
    // The import's preview gets the enrolment-csv function's deployed timeout (lib/function-access.ts), the pages
    // the 10 s of lambdaContext.
    const importContext = { ...lambdaContext, getRemainingTimeInMillis: () => timeoutOf('enrolment-csv') * 1000 };
    // Every read of a request counts: ReturnConsumedCapacity on each command, summed here.
    const reads = { capacity: 0, requests: 0 };
    {
      documentClient.middlewareStack.add(
        (next: any) => async (args: any) => {
          args.input.ReturnConsumedCapacity ??= 'TOTAL';
          const result = await next(args);
          const consumed = result.output?.ConsumedCapacity;
          reads.requests += 1;
          for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
            reads.capacity += entry.CapacityUnits ?? 0;
          return result;
        },
        { step: 'initialize', name: 'benchCapacity' },
      );
    }
    const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }), {
      marshallOptions: { removeUndefinedValues: true },
    });

    // The call: the demo's five bands, OPEN.
    const year = romeYear(new Date());
    const bandIds: string[] = [];
    for (const [i, [min, max]] of [
      [0, 6000],
      [6000.01, 12000],
      [12000.01, 20000],
      [20000.01, 30000],
      [30000.01, 999999.99],
    ].entries()) {
      bandIds.push(
        (
          await bands.createBand({
            name: `Fascia ${i + 1}`,
            min,
            max,
            percent: [10, 30, 50, 75, null][i],
            fixedCost: 20,
          })
        ).id,
      );
    }
    const callId = `bench-call-${seed}`;
    const now = new Date().toISOString();
    await calls.putCall(
      {
        id: callId,
        name: `Assistenza domiciliare ${year}`,
        year,
        state: 1,
        serviceId: 'svc',
        serviceName: 'Assistenza domiciliare',
        serviceDescription: '',
        nomeMyPay: 'M',
        codAccertamento: 'A',
        codCapitolo: 'C',
        bandsId: bandIds,
        files: [],
        dataInsert: now,
        updatedAt: now,
        version: 1,
      },
      null,
    );

    // 5,000 citizens, each with a subscription: a third approved with hours, most scored, most with an ISEE.
    const g = generator(seed);
    const items: Record<string, unknown>[] = [];
    const people: {
      fiscalCode: string;
      lastName: string;
      firstName: string;
      score: number | null;
      hours: number | null;
      iseeCents: number | null;
    }[] = [];
    const records: SubscriptionRecord[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      let fiscalCode = g.fiscalCode();
      while (seen.has(fiscalCode)) fiscalCode = g.fiscalCode();
      seen.add(fiscalCode);
      const firstName = g.zipf(FIRST);
      const lastName = g.lastName();
      const id = `u${seed}-${String(i).padStart(5, '0')}`;
      const iseeCents = g.random() < 0.9 ? Math.round(g.random() ** 1.5 * 6_000_000) : null;
      const isee =
        iseeCents === null
          ? null
          : {
              valueCents: iseeCents,
              year: g.random() < 0.85 ? year : year - 1,
              state: g.random() < 0.9 ? 'VALIDATED' : 'LOADED',
            };
      const roll = g.random();
      const state: SubscriptionState =
        roll < 0.35 ? 'VALIDATED' : roll < 0.8 ? 'ADDED' : roll < 0.9 ? 'SUSPENDED' : 'REFUSED';
      const score = g.random() < 0.8 ? Math.floor(g.random() * 100) : null;
      const hours = state === 'VALIDATED' || state === 'SUSPENDED' ? Math.round(g.random() * 2000) / 100 + 1 : null;
      items.push(
        users.userItem({
          id,
          firstName,
          lastName,
          fiscalCode,
          state: 'VALIDATED',
          dataInsert: now,
          lastIsee: isee ? { id: `isee-${id}`, ...isee, hasFile: false } : null,
        }),
      );
      items.push({ ...{ pk: `USERCF#${fiscalCode}`, sk: 'USERCF' }, userId: id });
      const record: SubscriptionRecord = {
        id: `${callId}.${id}`,
        state,
        announcementId: callId,
        announcement: {
          id: callId,
          name: `Assistenza domiciliare ${year}`,
          year,
          service: { id: 'svc', name: 'Assistenza domiciliare' },
        },
        rankingScore: score,
        weeklyHour: hours,
        cost: null,
        dataInsert: now,
        dataUpdate: now,
        userId: id,
        fiscalCode,
        firstName,
        lastName,
        files: [],
        isee,
      };
      records.push(record);
      items.push(subscriptions.subscriptionItem(record), subscriptions.enrolmentSearchItem(record));
      people.push({
        fiscalCode,
        lastName,
        firstName,
        score,
        hours,
        iseeCents: isee?.state === 'VALIDATED' ? isee.valueCents : null,
      });
    }
    const started = performance.now();
    await writeAll(raw, TABLE, items);
    await subscriptions.recountEnrolments(callId, records);
    console.log(
      `\nSeed ${seed}: ${SUBSCRIPTIONS.toLocaleString('it-IT')} subscriptions (and their users) seeded in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );

    const samples = people.filter((_, i) => i % 97 === 0);
    const list = (query: Record<string, string>) =>
      apiEvent('GET /api/calls/{id}/enrolments', { claims: claimsOf.operator, pathParameters: { id: callId }, query });
    const cases: [string, (s: (typeof samples)[number], run: number) => Record<string, string>][] = [
      ['first page (ranking, 10)', () => ({})],
      ['first page, 50 rows', () => ({ limit: '50' })],
      ['filtered: surname prefix (3 letters)', (s) => ({ lastName: s.lastName.slice(0, 3) })],
      ['filtered: surname prefix (5 letters)', (s) => ({ lastName: s.lastName.slice(0, 5) })],
      ['filtered: fiscal code (exact)', (s) => ({ fiscalCode: s.fiscalCode })],
      ['filtered: confirmed', () => ({ confirmed: 'true' })],
      ['filtered: ISEE above (varies)', (_, run) => ({ iseeAbove: String(5000 + (run % 10) * 3000) })],
      [
        'filtered: ISEE above + confirmed',
        (_, run) => ({ iseeAbove: String(5000 + (run % 10) * 3000), confirmed: 'true' }),
      ],
      ['sorted: ISEE ascending', () => ({ sort: 'isee' })],
      ['sorted: ISEE descending', () => ({ sort: '-isee' })],
      ['sorted: ranking descending', () => ({ sort: '-ranking' })],
      ['sorted: ISEE desc + ISEE above', (_, run) => ({ sort: '-isee', iseeAbove: String(5000 + (run % 10) * 3000) })],
    ];
    const rows: string[][] = [];
    // BENCH_CASES=confirmed,sorted narrows the pages to those whose name contains one of the words.
    const only = process.env.BENCH_CASES?.split(',').filter(Boolean);
    for (const [name, query] of process.env.BENCH_SKIP_PAGES
      ? []
      : cases.filter(([name]) => !only || only.some((word) => name.includes(word)))) {
      const times: number[] = [];
      const capacity: number[] = [];
      const calls: number[] = [];
      const cpu: number[] = [];
      let results = 0;
      let total = 0;
      // Ten warm-up requests (the first loads the handler's modules; the next ones let the JIT settle).
      for (let run = -10; run < RUNS; run++) {
        const event = list(query(samples[(run + samples.length) % samples.length], Math.max(0, run)));
        reads.capacity = 0;
        reads.requests = 0;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const response = (await handler(event, lambdaContext)) as { statusCode: number; body: string };
        const elapsed = performance.now() - t0;
        const used = process.cpuUsage(c0);
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        if (run < 0) continue;
        times.push(elapsed);
        capacity.push(reads.capacity);
        calls.push(reads.requests);
        cpu.push((used.user + used.system) / 1000);
        const body = JSON.parse(response.body);
        results += body.items.length;
        total += body.total;
      }
      rows.push([
        name,
        percentile(times, 50).toFixed(1),
        percentile(times, 95).toFixed(1),
        percentile(cpu, 50).toFixed(1),
        (capacity.reduce((a, b) => a + b, 0) / RUNS).toFixed(1),
        (calls.reduce((a, b) => a + b, 0) / RUNS).toFixed(1),
        (results / RUNS).toFixed(1),
        (total / RUNS).toFixed(0),
      ]);
    }
    const header = ['page', 'p50 ms', 'p95 ms', 'CPU ms p50', 'RCU/request', 'calls/request', 'rows', 'total'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(
      `${RUNS} requests per page through functions/entry/enrolments.ts on dynalite (Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs).`,
    );

    if (process.env.BENCH_SKIP_IMPORT) return;
    // A 5,000-row import of the same call: new scores for a tenth, new hours for another tenth, 25 unknown
    // citizens and 25 malformed codes, as an office's spreadsheet would have.
    const lines = ['codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee'];
    for (const [i, p] of people.entries()) {
      const score = i % 10 === 0 ? (p.score ?? 0) + 1 : p.score;
      const hours = i % 10 === 1 && p.hours !== null ? p.hours + 1 : p.hours;
      lines.push(
        [
          p.fiscalCode,
          `"${p.lastName}"`,
          p.firstName,
          score ?? '',
          hours === null ? '' : String(hours).replace('.', ','),
          '',
          '',
        ].join(';'),
      );
    }
    for (let i = 0; i < 25; i++) lines.push(`${g.fiscalCode()};Nuovo;Cittadino;1;;;`);
    for (let i = 0; i < 25; i++) lines.push(`XX${i};Errato;Codice;1;;;`);
    const body = {
      fileContentBase64: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`).toString('base64'),
      contentType: 'text/csv',
      updateIsees: false,
      removeOldSubscriptions: false,
    };
    const importEvent = () =>
      apiEvent('POST /api/calls/{id}/enrolments/import', {
        claims: claimsOf.operator,
        pathParameters: { id: callId },
        body,
      });
    reads.capacity = 0;
    let t0 = performance.now();
    const previewResponse = (await csvHandler(importEvent(), importContext)) as { statusCode: number; body: string };
    let elapsed = performance.now() - t0;
    if (previewResponse.statusCode !== 200)
      throw new Error(`preview: ${previewResponse.statusCode} ${previewResponse.body}`);
    const preview = JSON.parse(previewResponse.body);
    console.log(
      `Import preview of ${people.length + 50} rows (${(body.fileContentBase64.length / 1024).toFixed(0)} KB base64): ${(elapsed / 1000).toFixed(2)} s, ${reads.capacity.toFixed(0)} RCU+WCU (the stored plan included) — add ${preview.add.length}, update ${preview.update.length}, remove ${preview.remove.length}, unchanged ${preview.unchanged}, rejected ${preview.rejected.length}.`,
    );
    // 'Applica': the background job 'enrolment-import', its slices run here one after the other as the state machine does.
    const { IMPORT_JOB } = await import('../../functions/domain/enrolment-import.ts');
    const { makeJobs, makeJobWorker } = await import('../../functions/jobs/use-cases.ts');
    const jobRepository = await import('../../functions/jobs/repository.ts');
    const { enrolmentImport } = await import('../../functions/entry/wired-enrolment-import.ts');
    const { systemClock } = await import('../../functions/adapters/ports/clock.ts');
    const { actorFromClaims } = await import('../../functions/domain/roles.ts');
    const runs: { kind: string; key: string; jobId: string; cursor: string | null }[] = [];
    const jobs = makeJobs({
      jobs: jobRepository,
      runner: { start: async (run) => void runs.push(run) },
      clock: systemClock,
      ids: () => crypto.randomUUID(),
    });
    const worker = makeJobWorker({
      jobs: jobRepository,
      kinds: { [IMPORT_JOB]: { slice: enrolmentImport.applySlice, failure: 'failed' } },
      clock: systemClock,
    });
    const actor = actorFromClaims(claimsOf.operator as never);
    await jobs.start(IMPORT_JOB, callId, { callId, previewId: preview.previewId }, actor);
    reads.capacity = 0;
    t0 = performance.now();
    const sliceTimes: number[] = [];
    let cursor: string | null = null;
    for (;;) {
      const s0 = performance.now();
      const result = await worker.slice({ ...runs[0], cursor });
      sliceTimes.push(performance.now() - s0);
      if (result.finished) break;
      cursor = result.cursor;
    }
    elapsed = performance.now() - t0;
    const status = (await jobs.status(IMPORT_JOB, callId)).job!;
    console.log(
      `Import apply (background job, ${sliceTimes.length} slices): ${(elapsed / 1000).toFixed(2)} s in all, slowest slice ${(Math.max(...sliceTimes) / 1000).toFixed(2)} s, ${reads.capacity.toFixed(0)} RCU+WCU — ${status.state}, ${status.done} of ${status.total} rows.`,
    );
    const again = JSON.parse(((await csvHandler(importEvent(), importContext)) as { body: string }).body);
    console.log(
      `Preview of the same file after applying it: add ${again.add.length}, update ${again.update.length}, remove ${again.remove.length}, unchanged ${again.unchanged}.`,
    );
  } finally {
    await dynamo.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// The modules read TABLE_NAME once: each seed runs in a process of its own.
if (process.env.BENCH_ONE_SEED) await runSeed(Number(process.env.BENCH_ONE_SEED));
else {
  for (const seed of SEEDS) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_ONE_SEED: String(seed) },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}
