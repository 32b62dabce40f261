/**
 * npm run bench:payments — the payment list of a call with 600,000 debt positions (50,000 citizens × 12
 * months) on a local dynalite, through the real handler (functions/entry/payment-list.ts): p50/p95 of the
 * first page, filtered pages, sorted pages and the totals, with the read capacity each request consumed
 * (every read of the request: the call, the totals item and the page; dynalite reports ConsumedCapacity
 * as DynamoDB would) and a check that no request scans. Then the write side: refreshing 1,000 citizens'
 * rows after a change of their positions, and the reconcile of the call-year's totals.
 *
 * Seeding: each month's positions are built by the product's own rules (monthlyFee → planMonth; MyPay's
 * import marks them exported; settlePayment pays most past months; withAmount(0) cancels a few), written
 * with BatchWriteItem (BENCH_WRITERS requests in flight) into a dynalite running in a process of its own;
 * the rows from the same `summarize` the refresh uses, the totals by `reconcileDebtTotals`, checked against
 * a sum made here. The seeded data directory is kept (BENCH_DATA_DIR, default /tmp/bench-payments-data,
 * keyed by format, seed and size) and reused by later runs. BENCH_SEEDS = seed:citizens pairs, default
 * 42:50000 (the one the code was looked at with) and 7:10000, held out. BENCH_RUNS (default 60). PAYMENT_PLATFORM=gpd:
 * the positions as pagoPA GPD's export leaves them (see onGpd).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { planMonth, withAmount, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import {
  DEBT_EXPORT_PAGE_SIZE,
  summarize,
  zeroTotals,
  addTotals,
  debtTotalKeys,
  type DebtTotals,
} from '../../functions/domain/debt-summaries.ts';
import { monthlyFee, type FeeBand } from '../../functions/domain/fee.ts';
import { gpdIuv, gpdNoticeNumber } from '../../functions/domain/gpd.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import { periodKey } from '../../functions/domain/payments.ts';
import { settlePayment } from '../../functions/domain/position-payment.ts';
import { ensureTable } from '../../lib/local/stores.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';
import { freePort } from '../support/ports.ts';
import { untracedFunctionEnv } from '../../lib/local/untraced-env.ts';
import { writeAll } from './seed.ts';
import { random as seededRandom } from '../fixtures/isee/people.ts';

const CITIZENS = Number(process.env.BENCH_CITIZENS ?? 50_000);
const RUNS = Math.max(20, Number(process.env.BENCH_RUNS ?? 60));
/** Seed 42 at full size, tuned on; seed 7 at 10,000 citizens, held out (never looked at while tuning). */
const SEEDS = (process.env.BENCH_SEEDS ?? `42:${CITIZENS},7:10000`).split(',');
const YEAR = 2026;
/**
 * PAYMENT_PLATFORM=gpd: the same positions as pagoPA GPD's export leaves them (the portal's IUVs, aux digit 3 with the
 * council's segregation code, and their notice numbers; payments with pagoPA's receipt id and PSP), in a data
 * directory of their own. The payment list reads only the table: the platform changes what its rows hold, not how
 * they are read.
 */
const onGpd = process.env.PAYMENT_PLATFORM === 'gpd';
const GPD_SEGREGATION_CODE = '01';
let gpdSequence = 0;

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
  'Monti',
  'Cattan',
  'Morell',
  'Amat',
  'Silvestr',
  'Mazz',
  'Testa',
  'Grass',
  'Orland',
  'Valent',
  'Negr',
  'Fior',
  'Guerr',
  'Bernard',
  'Sartor',
  'Gatt',
  'Donat',
  'Piras',
  'Ruggier',
];
const ENDINGS = ['i', 'o', 'a', 'etti', 'ini', 'elli', 'one', 'ucci', 'otti', 'ato', 'ese', 'ari'];

function generator(seed: number) {
  const { next: random } = seededRandom(seed);
  const zipf = <T>(list: readonly T[]) => list[Math.min(list.length - 1, Math.floor(list.length * random() ** 2.2))]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const fiscalCode = () => randomFiscalCodeFrom(random);
  return {
    random,
    zipf,
    pick,
    fiscalCode,
    lastName: () => `${zipf(STEMS)}${pick(ENDINGS)}${random() < 0.08 ? ` ${zipf(STEMS)}${pick(ENDINGS)}` : ''}`,
  };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

const BANDS: FeeBand[] = [
  { id: 'b1', name: 'Fascia 1', min: 3000.01, max: 10000, percent: 10, fixedCost: 20 },
  { id: 'b2', name: 'Fascia 2', min: 10000.01, max: 20000, percent: 25, fixedCost: 20 },
  { id: 'b3', name: 'Fascia 3', min: 20000.01, max: 40000, percent: 50, fixedCost: 20 },
  { id: 'b4', name: 'Fascia 4', min: 40000.01, max: 999999, fixedCost: 20, percent: 100 },
];
/** Bump when what the seed writes changes: a persisted data directory of another format is not reused. */
const SEED_FORMAT = 2;

type Person = {
  id: string;
  lastName: string;
  firstName: string;
  fiscalCode: string;
  iseeCents: number;
  weeklyHours: number;
};

/** The same people for a seed and size on every run (the persisted table is reused, the samples are not stored). */
function peopleOf(seed: number, citizens: number): { people: Person[]; g: ReturnType<typeof generator> } {
  const g = generator(seed);
  const people: Person[] = [];
  for (let i = 0; i < citizens; i++) {
    people.push({
      id: `u${seed}-${String(i).padStart(6, '0')}`,
      lastName: g.lastName(),
      firstName: g.zipf(FIRST),
      fiscalCode: g.fiscalCode(),
      iseeCents: 300_001 + Math.floor(g.random() * 5_000_000),
      weeklyHours: 1 + Math.floor(g.random() * 20),
    });
  }
  return { people, g };
}

/** dynalite in a process of its own (the second core), on a data directory that outlives the run. */
async function startDynamoProcess(directory: string, port: number) {
  await fs.mkdir(directory, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('dynalite')({ path: ${JSON.stringify(directory)}, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }).listen(${port}, '127.0.0.1', () => console.log('ready'))`,
    ],
    {
      cwd: path.dirname(fileURLToPath(import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`dynalite exited (${code})`)));
    child.stdout!.once('data', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function runSeed(seed: number, citizens: number) {
  const dataRoot = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'bench-payments-data');
  const dataDir = path.join(dataRoot, `v${SEED_FORMAT}-seed${seed}-${citizens}${onGpd ? '-gpd' : ''}`);
  const marker = path.join(dataDir, 'seeded.json');
  const seededBefore = JSON.parse(await fs.readFile(marker, 'utf8').catch(() => 'null')) as {
    seconds: number;
    items: number;
    loadAverage: number;
  } | null;
  if (!seededBefore) await fs.rm(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const dynamo = await startDynamoProcess(path.join(dataDir, 'dynamo'), port);
  const endpoint = `http://127.0.0.1:${port}`;
  const TABLE = `bench-payments-${seed}`;
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: endpoint,
    CURSOR_SECRET: 'bench-secret',
    DOCUMENTS_BUCKET: 'bench-documents',
    EXPORTS_BUCKET: 'bench-exports',
    S3_ENDPOINT: 'http://127.0.0.1:1',
    POWERTOOLS_LOG_LEVEL: process.env.BENCH_LOG ?? 'SILENT',
    ...untracedFunctionEnv,
  });
  try {
    await ensureTable(endpoint, TABLE);
    const { documentClient } = await import('../../functions/adapters/dynamo.ts');
    const calls = await import('../../functions/calls/repository.ts');
    const users = await import('../../functions/users/repository.ts');
    const { itemOf: positionItem } = await import('../../functions/positions/repository.ts');
    const { debtSummaryItem } = await import('../../functions/payment-list/repository.ts');
    const { runMigrationSteps } = await import('../../functions/entry/migration-catalogue.ts');
    const debtSummaries = (await import('../../functions/entry/wired-payment-list.ts')).makePaymentListRefresh();
    const { handler } = await import('../../functions/entry/payment-list.ts');
    const reads = { capacity: 0, scans: 0, calls: 0 };
    documentClient.middlewareStack.add(
      (next: any, context: any) => async (args: any) => {
        if (context.commandName === 'ScanCommand') reads.scans += 1;
        reads.calls += 1;
        args.input.ReturnConsumedCapacity ??= 'TOTAL';
        const result = await next(args);
        const consumed = result.output?.ConsumedCapacity;
        for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : [])
          reads.capacity += entry.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'benchCapacity' },
    );
    const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }), {
      marshallOptions: { removeUndefinedValues: true },
    });
    /** BatchWriteItem, 25 items a request, WRITERS requests in flight, unprocessed items sent again. */
    const WRITERS = Number(process.env.BENCH_WRITERS ?? 12);
    const seedItems = (items: Record<string, unknown>[]) => writeAll(raw, TABLE, items, WRITERS);

    const callId = `bench-call-${seed}`;
    const call = { id: callId, name: `Assistenza domiciliare ${YEAR}`, serviceName: 'Assistenza domiciliare' };
    const { people, g } = peopleOf(seed, citizens);
    const expected = { totals: zeroTotals() };
    let reconciled: DebtTotals;
    if (seededBefore) {
      console.log(
        `\nSeed ${seed} (${onGpd ? 'pagoPA GPD' : 'MyPay'}): ${(citizens * 12).toLocaleString('it-IT')} positions of ${citizens.toLocaleString('it-IT')} citizens reused from ${dataDir} (seeded once in ${seededBefore.seconds.toFixed(0)} s, ${seededBefore.items.toLocaleString('it-IT')} items, load average ${seededBefore.loadAverage.toFixed(1)}).`,
      );
      reconciled = await debtSummaries.reconcileDebtTotals(callId, YEAR);
      // Rows seeded before their present keys (gsi6, the shards) get them once, as the portal's rows do.
      const t = performance.now();
      const keyed = await runMigrationSteps('payment-list-shards-v1');
      if (keyed)
        console.log(
          `Index keys rewritten for ${keyed.toLocaleString('it-IT')} rows seeded before them (npm run backfill:payment-list): ${((performance.now() - t) / 1000).toFixed(0)} s.`,
        );
    } else {
      const now = new Date().toISOString();
      await calls.putCall(
        {
          id: callId,
          name: call.name,
          year: YEAR,
          state: 1,
          serviceId: 'svc',
          serviceName: call.serviceName,
          serviceDescription: '',
          nomeMyPay: 'M',
          codAccertamento: 'A',
          codCapitolo: 'C',
          bandsId: BANDS.map((b) => b.id),
          files: [],
          dataInsert: now,
          updatedAt: now,
          version: 1,
        },
        null,
      );
      // 50,000 citizens × 12 months, built as the product builds them: planMonth creates each month's positions
      // from the fee (monthlyFee: ISEE band × hours), MyPay's import marks them exported, past months are mostly
      // paid (settlePayment), a few cancelled with 0 (withAmount), notices e-mailed for most.
      const started = performance.now();
      let written = 0;
      const CHUNK = 500;
      for (let from = 0; from < citizens; from += CHUNK) {
        const chunk = people.slice(from, from + CHUNK);
        const byUser = new Map<string, PositionRecord[]>(chunk.map((p) => [p.id, []]));
        for (let mese = 1; mese <= 12; mese++) {
          const period = { mese, anno: YEAR };
          const subscriptions = chunk.map((p) => ({
            userId: p.id,
            fiscalCode: p.fiscalCode,
            firstName: p.firstName,
            lastName: p.lastName,
            iseeId: `isee-${p.id}`,
            fee: monthlyFee({
              isee: p.iseeCents === null ? null : { valueCents: p.iseeCents, state: 'VALIDATED', year: YEAR },
              bands: BANDS,
              weeklyHours: p.weeklyHours,
              year: YEAR,
              month: mese,
            }),
          }));
          const plan = planMonth({ call, period, existing: [], subscriptions, now });
          for (const created of plan.create) {
            // The same draw on either platform, so that both seed the same people, amounts and payments.
            const myPayIuv = `0${String(g.random()).slice(2, 16).padEnd(16, '0')}`;
            const iuv = onGpd ? gpdIuv(GPD_SEGREGATION_CODE, (gpdSequence += 1)) : myPayIuv;
            let position: PositionRecord = {
              ...created,
              statoExport: 'ESPORTATA',
              exportedAt: now,
              codIuv: iuv,
              nav: onGpd ? gpdNoticeNumber(iuv) : null,
            };
            if (g.random() < 0.02) position = withAmount(position, 0, {}, now).after;
            else if (mese <= 9 && g.random() < 0.85) {
              const paid = settlePayment(
                position,
                {
                  iud: position.iud,
                  iuv: position.codIuv!,
                  amountCents: position.importoDovuto,
                  paidOn: `${periodKey(period)}-20`,
                  // GPD: the receipt's id (paSendRTV2 receiptId, 32 hex digits) and its PSP, as the reporting records them.
                  ...(onGpd
                    ? { iur: createHash('md5').update(position.iud).digest('hex'), psp: 'Banca Simulata S.p.A.' }
                    : { iur: `IUR${position.iud}` }),
                },
                now,
              );
              if (paid.kind === 'recorded') position = paid.after;
            }
            if (g.random() < 0.95) position = { ...position, isEmailSent: true, dataIsEmailSent: now };
            byUser.get(position.userId)!.push(position);
          }
        }
        const items: Record<string, unknown>[] = [];
        for (const person of chunk) {
          const positions = byUser.get(person.id)!;
          for (const p of positions) items.push(positionItem(p));
          const contact = { telefono: '3331234567', email: `${person.id}@example.it` };
          items.push(
            users.userItem({
              id: person.id,
              firstName: person.firstName,
              lastName: person.lastName,
              fiscalCode: person.fiscalCode,
              state: 'VALIDATED',
              dataInsert: now,
              email: contact.email,
              phoneNumber: contact.telefono,
              lastIsee: null,
            } as never),
          );
          const summary = summarize({
            callId,
            anno: YEAR,
            userId: person.id,
            positions,
            person: { cognome: person.lastName, nome: person.firstName, codiceFiscale: person.fiscalCode, ...contact },
          });
          if (!summary) continue;
          items.push(debtSummaryItem({ ...summary, version: 1, updatedAt: now }));
          expected.totals = addTotals(expected.totals, summary.contribution);
        }
        await seedItems(items);
        written += items.length;
        if ((from / CHUNK) % 10 === 9)
          console.log(
            `  … ${(from + chunk.length).toLocaleString('it-IT')} citizens, ${written.toLocaleString('it-IT')} items, ${((performance.now() - started) / 1000).toFixed(0)} s (${(written / ((performance.now() - started) / 1000)).toFixed(0)} items/s, load average ${os.loadavg()[0].toFixed(1)})`,
          );
      }
      reconciled = await debtSummaries.reconcileDebtTotals(callId, YEAR);
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `\nSeed ${seed} (${onGpd ? 'pagoPA GPD' : 'MyPay'}): ${(citizens * 12).toLocaleString('it-IT')} positions of ${citizens.toLocaleString('it-IT')} citizens, their rows, user items and the reconciled totals seeded in ${seconds.toFixed(0)} s (${written.toLocaleString('it-IT')} items, ${(written / seconds).toFixed(0)} items/s, load average ${os.loadavg()[0].toFixed(1)}); kept in ${dataDir}.`,
      );
      console.log(
        `Totals reconciled from the rows ${debtTotalKeys.every((k) => reconciled[k] === expected.totals[k]) ? 'equal the sum made while seeding' : 'DIFFER from the sum made while seeding'}.`,
      );
      if (!debtTotalKeys.every((k) => reconciled[k] === expected.totals[k])) throw new Error('totals differ');
      await fs.writeFile(marker, JSON.stringify({ seconds, items: written, loadAverage: os.loadavg()[0] }));
    }
    reads.capacity = 0;
    let t0 = performance.now();
    await debtSummaries.reconcileDebtTotals(callId, YEAR);
    console.log(
      `Reconcile of the call-year's totals from ${citizens.toLocaleString('it-IT')} rows (Sincronizza's last slice): ${((performance.now() - t0) / 1000).toFixed(1)} s, ${reads.capacity.toFixed(0)} RCU+WCU; totals: ${reconciled.cittadini.toLocaleString('it-IT')} rows, ${reconciled.posizioni.toLocaleString('it-IT')} positions.`,
    );

    const samples = people.filter((_, i) => i % 211 === 0);
    const list = (query: Record<string, string>) =>
      apiEvent('GET /api/calls/{id}/payment-list', {
        claims: claimsOf.operator,
        pathParameters: { id: callId },
        query: { anno: String(YEAR), ...query },
      });
    const totals = () =>
      apiEvent('GET /api/calls/{id}/payment-totals', {
        claims: claimsOf.operator,
        pathParameters: { id: callId },
        query: { anno: String(YEAR) },
      });
    const cases: Array<[string, (s: (typeof samples)[number]) => ReturnType<typeof list>]> = [
      ['first page (surname+name, 10)', () => list({})],
      ['first page, 50 rows', () => list({ limit: '50' })],
      ['sorted: amount ascending', () => list({ sort: 'importo' })],
      ['sorted: amount descending', () => list({ sort: '-importo' })],
      ['sorted: surname+name descending', () => list({ sort: '-nome' })],
      ['filtered: Email non inviata', () => list({ chkNoSendMail: 'true' })],
      ['filtered: Email non inviata, amount desc', () => list({ chkNoSendMail: 'true', sort: '-importo' })],
      ['filtered: surname prefix (3 letters)', (s) => list({ name: s.lastName.slice(0, 3) })],
      ['filtered: surname prefix (whole surname)', (s) => list({ name: s.lastName })],
      ['filtered: surname + name', (s) => list({ name: `${s.lastName} ${s.firstName}` })],
      ['filtered: fiscal code (exact)', (s) => list({ name: s.fiscalCode })],
      ['filtered: surname (whole), amount desc', (s) => list({ name: s.lastName, sort: '-importo' })],
      ['totals (statistics box)', () => totals()],
    ];
    const rows: string[][] = [];
    for (const [name, event] of cases) {
      const times: number[] = [];
      const capacity: number[] = [];
      let dynamoCalls = 0;
      let results = 0;
      let found = 0;
      for (let run = -2; run < RUNS; run++) {
        const request = event(samples[(run + 2) % samples.length]!);
        reads.capacity = 0;
        reads.calls = 0;
        const start = performance.now();
        const response = (await handler(request, lambdaContext)) as { statusCode: number; body: string };
        const elapsed = performance.now() - start;
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        if (run < 0) continue;
        times.push(elapsed);
        capacity.push(reads.capacity);
        dynamoCalls += reads.calls;
        const body = JSON.parse(response.body);
        results += body.items?.length ?? 0;
        found += body.count ?? body.cittadini ?? 0;
      }
      rows.push([
        name,
        percentile(times, 50).toFixed(1),
        percentile(times, 95).toFixed(1),
        (capacity.reduce((a, b) => a + b, 0) / RUNS).toFixed(1),
        (dynamoCalls / RUNS).toFixed(1),
        (results / RUNS).toFixed(1),
        (found / RUNS).toFixed(0),
      ]);
    }
    const header = ['request', 'p50 ms', 'p95 ms', 'RCU/request', 'DynamoDB calls', 'rows', 'Record trovati'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(
      `${RUNS} requests each through functions/entry/payment-list.ts on dynalite (Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs); Scan commands sent: ${reads.scans}.`,
    );

    // 'Scarica Excel' reads: 10,000 rows in pages of DEBT_EXPORT_PAGE_SIZE through the handler, cursor to cursor.
    for (let attempt = 0; attempt < 2; attempt++) {
      reads.capacity = 0;
      reads.calls = 0;
      const t1 = performance.now();
      let cursor: string | undefined;
      let rowsRead = 0;
      let requests = 0;
      do {
        const response = (await handler(
          list({ limit: String(DEBT_EXPORT_PAGE_SIZE), ...(cursor ? { cursor } : {}) }),
          lambdaContext,
        )) as { statusCode: number; body: string };
        if (response.statusCode !== 200) throw new Error(`export page: ${response.statusCode} ${response.body}`);
        const body = JSON.parse(response.body);
        rowsRead += body.items.length;
        requests += 1;
        cursor = body.nextCursor ?? undefined;
      } while (cursor && rowsRead < 10_000);
      console.log(
        `Excel read${attempt ? '' : ' (warm-up)'}: ${rowsRead.toLocaleString('it-IT')} rows in ${requests} requests of ${DEBT_EXPORT_PAGE_SIZE}, ${((performance.now() - t1) / 1000).toFixed(2)} s, ${reads.capacity.toFixed(0)} RCU, ${reads.calls} DynamoDB calls (load average ${os.loadavg()[0].toFixed(1)}).`,
      );
    }

    // The write side: what a writer pays after its writes, for 1,000 citizens' rows.
    const changed = people.slice(0, 1000);
    reads.capacity = 0;
    t0 = performance.now();
    const refreshed = await debtSummaries.refreshDebtSummaries(
      changed.map((p) => ({ callId, userId: p.id, anno: YEAR })),
    );
    console.log(
      `Refresh of 1,000 unchanged rows (reads 12 positions each, writes nothing): ${((performance.now() - t0) / 1000).toFixed(2)} s, ${reads.capacity.toFixed(0)} capacity units, ${refreshed.refreshed} written.`,
    );
  } finally {
    await dynamo.close();
  }
}

// The modules read TABLE_NAME once: each seed runs in a process of its own. BENCH_SEEDS: seed:citizens pairs.
if (process.env.BENCH_ONE_SEED) await runSeed(Number(process.env.BENCH_ONE_SEED), Number(process.env.BENCH_ONE_SIZE));
else {
  for (const entry of SEEDS) {
    const [seed, size] = entry.split(':');
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_ONE_SEED: seed, BENCH_ONE_SIZE: String(Number(size ?? CITIZENS)) },
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}
