/**
 * npm run bench:payments — the payment list of a call with 600,000 debt positions (50,000 citizens × 12
 * months) on a local dynalite, through the real handler (functions/payment-list/handler.ts): p50/p95 of the
 * first page, filtered pages, sorted pages and the totals, with the read capacity each request consumed
 * (every read of the request: the call, the totals item and the page; dynalite reports ConsumedCapacity
 * as DynamoDB would) and a check that no request scans. Then the write side: refreshing 1,000 citizens'
 * rows after a change of their positions, and the reconcile of the call-year's totals.
 *
 * Positions are written straight into the table (batched), their rows (the maintained summaries) from
 * the same pure `summarize` the refresh uses, and the totals by `reconcileDebtTotals`, then checked
 * against a sum made here. Seed 42 (the one the code was looked at with) and seed 7, held out: both
 * printed. BENCH_CITIZENS (default 50,000), BENCH_SEEDS (default 42,7), BENCH_RUNS (default 60).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/table.ts';
import { positionIud, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import { summarize, zeroTotals, addTotals, debtTotalKeys } from '../../functions/domain/debt-summaries.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { periodKey } from '../../functions/domain/payments.ts';
import { ensureTable, startDynamo } from '../../lib/local/stores.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';
import { freePort } from '../support/ports.ts';

const CITIZENS = Number(process.env.BENCH_CITIZENS ?? 50_000);
const RUNS = Math.max(20, Number(process.env.BENCH_RUNS ?? 60));
const SEEDS = (process.env.BENCH_SEEDS ?? '42,7').split(',').map(Number);
const YEAR = 2026;

const FIRST = ['Maria', 'Giuseppe', 'Anna', 'Luca', 'Giulia', 'Marco', 'Francesca', 'Alessandro', 'Chiara', 'Andrea', 'Sara', 'Matteo', 'Elena', 'Lorenzo', 'Martina', 'Davide', 'Valentina', 'Simone', 'Federica', 'Stefano', 'Paola', 'Roberto', 'Silvia', 'Antonio', 'Laura', 'Nicola', 'Ilaria', 'Fabio', 'Elisa', 'Paolo'];
const STEMS = ['Ross', 'Bianch', 'Ferr', 'Russ', 'Espos', 'Roman', 'Colomb', 'Ricc', 'Marin', 'Grec', 'Brun', 'Gall', 'Cont', 'Mancin', 'Cost', 'Giordan', 'Rizz', 'Lombard', 'Morett', 'Barbier', 'Fontan', 'Santor', 'Marian', 'Rinald', 'Carus', 'Ferrar', 'Martin', 'Leon', 'Long', 'Gentil', 'Vital', 'Serr', 'Coppol', 'Marchett', 'Paris', 'Villa', 'Conte', 'Ferrett', 'Fabbr', 'Bellin', 'Pellegrin', 'Palumb', 'Sanna', 'Farin', 'Monti', 'Cattan', 'Morell', 'Amat', 'Silvestr', 'Mazz', 'Testa', 'Grass', 'Orland', 'Valent', 'Negr', 'Fior', 'Guerr', 'Bernard', 'Sartor', 'Gatt', 'Donat', 'Piras', 'Ruggier'];
const ENDINGS = ['i', 'o', 'a', 'etti', 'ini', 'elli', 'one', 'ucci', 'otti', 'ato', 'ese', 'ari'];

function generator(seed: number) {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const zipf = <T>(list: readonly T[]) => list[Math.min(list.length - 1, Math.floor(list.length * random() ** 2.2))]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const letter = () => String.fromCharCode(65 + Math.floor(random() * 26));
  const digit = () => String(Math.floor(random() * 10));
  const fiscalCode = () => {
    const first15 = `${letter()}${letter()}${letter()}${letter()}${letter()}${letter()}${digit()}${digit()}${letter()}${digit()}${digit()}${letter()}${digit()}${digit()}${digit()}`;
    return first15 + fiscalCodeCheckCharacter(first15);
  };
  return { random, zipf, pick, fiscalCode, lastName: () => `${zipf(STEMS)}${pick(ENDINGS)}${random() < 0.08 ? ` ${zipf(STEMS)}${pick(ENDINGS)}` : ''}` };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function runSeed(seed: number) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-payments-'));
  const port = await freePort();
  const dynamo = await startDynamo(dataDir, port);
  const endpoint = `http://127.0.0.1:${port}`;
  const TABLE = `bench-payments-${seed}`;
  Object.assign(process.env, {
    AWS_REGION: 'eu-south-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', TABLE_NAME: TABLE, DYNAMODB_ENDPOINT: endpoint,
    CURSOR_SECRET: 'bench-secret', DOCUMENTS_BUCKET: 'bench-documents', EXPORTS_BUCKET: 'bench-exports', S3_ENDPOINT: 'http://127.0.0.1:1',
    POWERTOOLS_LOG_LEVEL: process.env.BENCH_LOG ?? 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_TRACE_ENABLED: 'false', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  try {
    await ensureTable(endpoint, TABLE);
    const { documentClient } = await import('../../functions/adapters/dynamo.ts');
    const calls = await import('../../functions/calls/repository.ts');
    const users = await import('../../functions/users/repository.ts');
    const { debtSummaryItem } = await import('../../functions/payment-list/repository.ts');
    const { debtSummaries } = await import('../../functions/payment-list/refresh.ts');
    const { handler } = await import('../../functions/payment-list/handler.ts');
    const reads = { capacity: 0, scans: 0 };
    documentClient.middlewareStack.add(
      (next: any, context: any) => async (args: any) => {
        if (context.commandName === 'ScanCommand') reads.scans += 1;
        args.input.ReturnConsumedCapacity ??= 'TOTAL';
        const result = await next(args);
        const consumed = result.output?.ConsumedCapacity;
        for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) reads.capacity += entry.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'benchCapacity' },
    );
    const raw = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }), { marshallOptions: { removeUndefinedValues: true } });
    const writeAll = async (items: Record<string, unknown>[]) => {
      let next = 0;
      const writer = async () => {
        while (next < items.length) {
          const batch = items.slice(next, next + 25);
          next += 25;
          let request: Record<string, any> | undefined = { [TABLE]: batch.map((Item) => ({ PutRequest: { Item } })) };
          while (request && Object.keys(request).length) request = (await raw.send(new BatchWriteCommand({ RequestItems: request }))).UnprocessedItems;
        }
      };
      await Promise.all(Array.from({ length: 8 }, writer));
    };

    const callId = `bench-call-${seed}`;
    const now = new Date().toISOString();
    await calls.putCall({ id: callId, name: `Assistenza domiciliare ${YEAR}`, year: YEAR, state: 1, serviceId: 'svc', serviceName: 'Assistenza domiciliare', serviceDescription: '', nomeMyPay: 'M', codAccertamento: 'A', codCapitolo: 'C', bandsId: [], files: [], dataInsert: now, updatedAt: now, version: 1 }, null);

    // 50,000 citizens × 12 months: past months mostly paid, a few cancelled, notices e-mailed for most.
    const g = generator(seed);
    const people: Array<{ id: string; lastName: string; firstName: string; fiscalCode: string }> = [];
    const expected = { totals: zeroTotals() };
    const started = performance.now();
    const CHUNK = 500;
    for (let from = 0; from < CITIZENS; from += CHUNK) {
      const items: Record<string, unknown>[] = [];
      for (let i = from; i < Math.min(CITIZENS, from + CHUNK); i++) {
        const id = `u${seed}-${String(i).padStart(6, '0')}`;
        const person = { id, lastName: g.lastName(), firstName: g.zipf(FIRST), fiscalCode: g.fiscalCode() };
        people.push(person);
        const hours = 1 + Math.floor(g.random() * 20);
        const quota = [100, 300, 500, 720, 1000][Math.floor(g.random() * 5)]!;
        const positions: PositionRecord[] = [];
        for (let mese = 1; mese <= 12; mese++) {
          const amount = Math.round((quota * hours * 30) / 7);
          const cancelled = g.random() < 0.02;
          const paid = !cancelled && mese <= 9 && g.random() < 0.85;
          const iud = positionIud(callId, id, { mese, anno: YEAR });
          positions.push({
            id: iud, iud, callId, userId: id, fiscalCode: person.fiscalCode, cognome: person.lastName, nome: person.firstName, mese, anno: YEAR, titolo: 't', descrizione: 'd',
            importoDovuto: cancelled ? 0 : amount, importoTotalePagato: paid ? amount : 0, isPagato: paid, annullato: cancelled, codIuv: null, nav: null,
            dataScadenza: `${periodKey({ mese, anno: YEAR })}-28`, azione: cancelled ? 'A' : 'I', statoExport: 'ESPORTATA', lastExportError: null,
            isEmailSent: g.random() < 0.95, dataIsEmailSent: null, ioId: null, dataEsitoSingoloPagamento: null, createdAt: now, updatedAt: now, exportedAt: now, iseeId: null, version: 1,
          });
        }
        for (const p of positions) {
          items.push({ ...keys.position(callId, periodKey(p), id), gsi1pk: keys.positionsOfUser(id), gsi1sk: `${periodKey(p)}#${callId}`, gsi2pk: keys.positionByIud(p.iud), gsi2sk: 'POSITION', ...p });
        }
        const summary = summarize({ callId, anno: YEAR, userId: id, positions, person: { cognome: person.lastName, nome: person.firstName, codiceFiscale: person.fiscalCode, telefono: '3331234567', email: `${id}@example.it` } })!;
        items.push(debtSummaryItem({ ...summary, version: 1, updatedAt: now }));
        items.push(users.userItem({ id, firstName: person.firstName, lastName: person.lastName, fiscalCode: person.fiscalCode, state: 'VALIDATED', dataInsert: now, email: `${id}@example.it`, phoneNumber: '3331234567', lastIsee: null } as never));
        expected.totals = addTotals(expected.totals, summary.contribution);
      }
      await writeAll(items);
      if ((from / CHUNK) % 20 === 19) console.log(`  … ${people.length.toLocaleString('it-IT')} citizens (${(people.length * 12).toLocaleString('it-IT')} positions), ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    console.log(`\nSeed ${seed}: ${(CITIZENS * 12).toLocaleString('it-IT')} positions of ${CITIZENS.toLocaleString('it-IT')} citizens (with their rows and user items) seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    reads.capacity = 0;
    let t0 = performance.now();
    const reconciled = await debtSummaries.reconcileDebtTotals(callId, YEAR);
    console.log(`Reconcile of the call-year's totals from ${CITIZENS.toLocaleString('it-IT')} rows: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${reads.capacity.toFixed(0)} RCU+WCU; ${debtTotalKeys.every((k) => reconciled[k] === expected.totals[k]) ? 'equal to the sum made while seeding' : 'DIFFERENT from the sum made while seeding'}.`);

    const samples = people.filter((_, i) => i % 211 === 0);
    const list = (query: Record<string, string>) => apiEvent('GET /api/calls/{id}/payment-list', { claims: claimsOf.operator, pathParameters: { id: callId }, query: { anno: String(YEAR), ...query } });
    const totals = () => apiEvent('GET /api/calls/{id}/payment-totals', { claims: claimsOf.operator, pathParameters: { id: callId }, query: { anno: String(YEAR) } });
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
      let results = 0;
      let found = 0;
      for (let run = -2; run < RUNS; run++) {
        const request = event(samples[(run + 2) % samples.length]!);
        reads.capacity = 0;
        const start = performance.now();
        const response = (await handler(request, lambdaContext)) as { statusCode: number; body: string };
        const elapsed = performance.now() - start;
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        if (run < 0) continue;
        times.push(elapsed);
        capacity.push(reads.capacity);
        const body = JSON.parse(response.body);
        results += body.items?.length ?? 0;
        found += body.count ?? body.cittadini ?? 0;
      }
      rows.push([name, percentile(times, 50).toFixed(1), percentile(times, 95).toFixed(1), (capacity.reduce((a, b) => a + b, 0) / RUNS).toFixed(1), (results / RUNS).toFixed(1), (found / RUNS).toFixed(0)]);
    }
    const header = ['request', 'p50 ms', 'p95 ms', 'RCU/request', 'rows', 'Record trovati'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(`${RUNS} requests each through functions/payment-list/handler.ts on dynalite (Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs); Scan commands sent: ${reads.scans}.`);

    // The write side: what a writer pays after its writes, for 1,000 citizens' rows.
    const changed = people.slice(0, 1000);
    reads.capacity = 0;
    t0 = performance.now();
    const refreshed = await debtSummaries.refreshDebtSummaries(changed.map((p) => ({ callId, userId: p.id, anno: YEAR })));
    console.log(`Refresh of 1,000 unchanged rows (reads 12 positions each, writes nothing): ${((performance.now() - t0) / 1000).toFixed(2)} s, ${reads.capacity.toFixed(0)} capacity units, ${refreshed.refreshed} written.`);
  } finally {
    await dynamo.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// The modules read TABLE_NAME once: each seed runs in a process of its own.
if (process.env.BENCH_ONE_SEED) await runSeed(Number(process.env.BENCH_ONE_SEED));
else {
  for (const seed of SEEDS) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, BENCH_ONE_SEED: String(seed) } });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
}
