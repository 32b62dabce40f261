/**
 * `npm run bench:export`: 'Invia a MyPay' of 10,000 debt positions end to end on the local stack, as the
 * operator starts it: the flows API (real JWT from the local IdP) → the local Step Functions endpoint → the
 * export's state machine and task function → month generation, CSV, ZIP, upload to the exports bucket →
 * MyPay simulator (authorise, upload, import with validation, IUVs, notice PDFs) → polling → result files →
 * IUV and NAV written back on each position. Prints the total and each step, then checks that every
 * position got its IUV exactly once (valid and distinct IUVs, one import per flow, the simulator holds each
 * IUD once with the same IUV as the table).
 *
 *   npm run bench:export                      one call, 10,000 approved subscribers (the tuned shape)
 *   npm run bench:export -- --held-out        held-out shape, not tuned on: 3 calls exported at once
 *                                             (3,334 + 3,333 + 3,333 subscribers), another seed, names with
 *                                             accents and apostrophes, some exempt (ISEE ≤ 3000), other hours
 *   BENCH_EXPORT=2000 npm run bench:export    another size
 *   PAYMENT_PLATFORM=gpd npm run bench:export the same on pagoPA GPD (its simulator, with GPD's limit of 100 calls in
 *                                             10 s per key, 429 past it): IUVs reserved and saved by Prepare, bulk
 *                                             creates of 100; then 'Sincronizza' of the month, one position in ten
 *                                             paid at GPD outside the portal (GPD's list, pages of 50)
 *
 * The local DynamoDB keeps DynamoDB's per-partition limit (1,000 write units a second per partition key,
 * lib/local/dynalite-partition-limit.ts; DYNALITE_PARTITION_WRITE_UNITS=<n> another, 0 none): a month's positions
 * and a call-year's payment-list rows each share one key, so the export runs at the pace DynamoDB would allow it;
 * the writes it throttled are printed.
 *
 * Not part of npm test. Seeding goes straight to dynalite with BatchWrite (the export is what is measured), before
 * the limit is switched on.
 */
import os from 'node:os';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/table.ts';
import { isValidIuv } from '../../functions/domain/iuv.ts';
import { iupdOfPosition } from '../../functions/domain/gpd.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { demoConfiguration } from '../../lib/local/demo-configuration.ts';
import { identities } from '../../lib/local/identities.ts';
import { signIn } from '../support/sign-in.ts';
import { startTestStack } from '../support/stack.ts';
import { timeoutOf } from '../../lib/function-access.ts';
import { SYNC_JOB } from '../../functions/domain/jobs.ts';
import { JOB_SLICE_TIMEOUT_SECONDS } from '../../functions/jobs/state-machine.ts';
import { DYNAMODB_PARTITION_WRITE_UNITS, PARTITION_LIMIT_PATH } from '../../lib/local/dynalite-partition-limit.ts';
import { benchApi } from './api.ts';
import { writeAll } from './seed.ts';
import { random } from '../fixtures/isee/people.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';

const heldOut = process.argv.includes('--held-out');
const TOTAL = Number(process.env.BENCH_EXPORT ?? 10_000);
const CALLS = heldOut ? 3 : 1;
const SEED = heldOut ? 0x5eed_2 : 0x5eed_1;
const MONTH = { mese: 3, anno: 2026 };
const DEADLINE_MS = 15 * 60_000;
const SYNC_DEADLINE_MS = 30 * 60_000;

const rnd = random(SEED).next;
const pick = <T>(items: readonly T[] | string): T => items[Math.floor(rnd() * items.length)] as T;
/** A fiscal code not given before in this run. */
function fiscalCode(used: Set<string>): string {
  for (;;) {
    const code = randomFiscalCodeFrom(rnd);
    if (!used.has(code)) return (used.add(code), code);
  }
}
const LAST = heldOut
  ? [
      'D’Alò',
      'Nicolò',
      'De Santis',
      'Mazzà',
      'O’Neill',
      'Pérez',
      'Zuccalà',
      'Cantù',
      'Forlì',
      'Dell’Orto',
      'Giannì',
      'Lo Iacono',
    ]
  : ['Rossi', 'Bianchi', 'Verdi', 'Russo', 'Ferrari', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Marino'];
const FIRST = heldOut
  ? ['Niccolò', 'Iñés', 'Raffaële', 'José', 'Zoë', 'Andrea', 'Chiara', 'Mattia']
  : ['Maria', 'Giuseppe', 'Anna', 'Luca', 'Giulia', 'Marco'];

const ms = (value: number) => `${(value / 1000).toFixed(1)} s`;

/** `PAYMENT_PLATFORM=gpd npm run bench:export`: the same export to pagoPA GPD (its simulator), checked against what GPD holds. */
const onGpd = process.env.PAYMENT_PLATFORM === 'gpd';
/**
 * Calls to the payment platform's simulator (GPD's API, or MyPay's SOAP service and its upload), counted on the
 * process's fetch (the stack is this process); the bench's own look at the simulator's state (/admin/) is not counted.
 */
let platformCalls = 0;
let platformOrigin: string | null = null;
{
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (platformOrigin && url.startsWith(platformOrigin) && !url.includes('/admin/')) platformCalls += 1;
    return realFetch(input, init);
  };
}

/** The GPD simulator's counters (lib/local/gpd-simulator.ts): calls let through by operation, and 429s. */
type SimulatorCounters = { rateLimited: number; calls: Record<string, number> };

const PARTITION_WRITE_UNITS = Number(process.env.DYNALITE_PARTITION_WRITE_UNITS ?? DYNAMODB_PARTITION_WRITE_UNITS);

async function main() {
  const stack = await startTestStack({ web: 'none', seed: false, partitionWriteUnits: 0 });
  /** Switches the local DynamoDB's per-partition limit; its setting and how many writes it throttled so far. */
  const partitionLimit = async (unitsPerSecond?: number) =>
    (await (
      await fetch(
        `${stack.dynamoEndpoint}${PARTITION_LIMIT_PATH}`,
        unitsPerSecond === undefined ? {} : { method: 'POST', body: JSON.stringify({ unitsPerSecond }) },
      )
    ).json()) as { unitsPerSecond: number; throttled: number };
  try {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: stack.dynamoEndpoint,
        region: 'eu-south-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const { accessToken } = await signIn({ issuer: stack.issuer, appUrl: stack.appUrl, sub: identities[2].sub });
    const api = benchApi(stack.appUrl, accessToken);
    await api('PUT', '/api/configuration', demoConfiguration);
    const simulatorAdmin = onGpd ? `${stack.gpdUrl}/admin` : stack.myPayEndpoint.replace(/\/pa\/services.*$/, '/admin');
    platformOrigin = new URL(onGpd ? stack.gpdUrl! : stack.myPayEndpoint).origin;

    // --- seed: bands, calls, users with a validated ISEE (item + the user's copy), approved subscriptions
    const t0 = performance.now();
    const now = new Date().toISOString();
    const items: Record<string, unknown>[] = [];
    const { userItem } = await import('../../functions/users/repository.ts');
    const { createBand } = await import('../../functions/bands/repository.ts');
    const used = new Set<string>();
    const callIds: string[] = [];
    let exemptCount = 0;
    for (let c = 0; c < CALLS; c++) {
      const callId = `bench-call-${c + 1}`;
      const bandId = `bench-band-${c + 1}`;
      callIds.push(callId);
      await createBand(
        { name: `Fascia ${c + 1}`, min: 3000.01, max: 50000, percent: 40 + c * 5, fixedCost: 18 },
        bandId,
        now,
      );
      items.push({
        ...keys.call(callId),
        id: callId,
        name: heldOut ? `Bando di prova n° ${c + 1} – città` : 'Bando benchmark',
        year: 2026,
        state: 1,
        serviceId: 's',
        serviceName: heldOut ? 'Assistenza domiciliare anziché' : 'Assistenza domiciliare',
        dataInsert: now,
        nomeMyPay: 'SERVIZI_SOCIALI',
        codAccertamento: `ACC-${c + 1}`,
        codCapitolo: `CAP-${c + 1}`,
        bandsId: [bandId],
        files: [],
        version: 1,
        updatedAt: now,
      });
      const count = Math.floor(TOTAL / CALLS) + (c < TOTAL % CALLS ? 1 : 0);
      for (let i = 0; i < count; i++) {
        const id = `u${c}${String(i).padStart(6, '0')}`;
        const code = fiscalCode(used);
        const lastName = `${pick(LAST)}${heldOut ? '' : ` ${i}`}`;
        const firstName = pick(FIRST);
        // Held out: one in twenty is exempt (ISEE ≤ 3000 €): no position for them.
        const exempt = heldOut && rnd() < 0.05;
        if (exempt) exemptCount++;
        const valueCents = exempt ? 150_000 + Math.floor(rnd() * 150_000) : 400_000 + Math.floor(rnd() * 3_000_000);
        const iseeId = `isee-${id}`;
        items.push({
          ...userItem({
            id,
            firstName,
            lastName,
            fiscalCode: code,
            email: `${id}@example.it`,
            address: heldOut ? 'Via dell’Università' : 'Via Roma',
            addressNumber: String(1 + (i % 200)),
            cap: '00100',
            city: heldOut ? 'Forlì' : 'Roma',
            country: 'RM',
            nation: 'IT',
            state: 'VALIDATED',
            dataInsert: now,
          } as never),
          lastIsee: { id: iseeId, valueCents, year: 2026, state: 'VALIDATED', hasFile: false },
        });
        items.push({
          ...keys.isee(iseeId),
          id: iseeId,
          userId: id,
          valueCents,
          year: 2026,
          date: now,
          state: 'VALIDATED',
          hasFile: false,
          uploadedBy: 'OPERATOR',
          dataInsert: now,
          updatedAt: now,
          gsi2pk: keys.iseesOfUser(id),
          gsi2sk: `${now}#${iseeId}`,
        });
        items.push({
          ...keys.subscription(callId, id),
          gsi1pk: keys.subscriptionsOfUser(id),
          gsi1sk: `${now}#${callId}`,
          gsi2pk: keys.subscriptionsOfCall(callId),
          gsi2sk: `SUBSCRIBER#${id}`,
          id: `${callId}.${id}`,
          state: 'VALIDATED',
          announcementId: callId,
          weeklyHour: heldOut ? 1 + Math.floor(rnd() * 12) : 1 + (i % 5),
          userId: id,
          fiscalCode: code,
          firstName,
          lastName,
          dataInsert: now,
          dataUpdate: now,
          files: [],
        });
      }
    }
    await writeAll(client, TABLE_NAME, items);
    const expected = TOTAL - exemptCount;
    console.log(
      `${heldOut ? 'HELD-OUT: ' : ''}${TOTAL.toLocaleString('it-IT')} approved subscribers on ${CALLS} call(s), ${exemptCount} exempt → ${expected.toLocaleString('it-IT')} positions, month ${MONTH.anno}-${String(MONTH.mese).padStart(2, '0')} (Node ${process.version}; seeded in ${ms(performance.now() - t0)})\n`,
    );

    // --- the export(s), as the operator starts them; each flow's steps timed from its own progress
    // DynamoDB and S3 calls of the whole stack (one process), counted on the clients' middleware: the work
    // per position, which does not depend on how busy the machine is.
    const calls = new Map<string, number>();
    const { documentClient } = await import('../../functions/adapters/dynamo.ts');
    const { s3 } = await (await import('../../functions/adapters/s3-client.ts')).s3Client();
    const counter = (service: string) => (next: any, context: any) => (args: any) => {
      const name = `${service}.${String(context.commandName ?? '?').replace(/Command$/, '')}`;
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return next(args);
    };
    documentClient.middlewareStack.add(counter('dynamodb'), { step: 'initialize', name: 'benchCallCounter' });
    s3.middlewareStack.add(counter('s3'), { step: 'initialize', name: 'benchCallCounter' });
    const snapshot = () => new Map(calls);
    await partitionLimit(PARTITION_WRITE_UNITS);
    const start = performance.now();
    const cpuAtStart = process.cpuUsage();
    const flows = await Promise.all(callIds.map((id) => api('POST', `/api/calls/${id}/exports`, MONTH)));
    // 'Invia a MyPay' plans the month before it answers (no flow for a month with nothing new to send): its own time.
    console.log(
      `'Invia a MyPay' answered in ${ms(performance.now() - start)} (it only starts the workflow; the flows function has ${timeoutOf('flows')} s)`,
    );
    const marks = flows.map(() => [] as { at: number; label: string; calls: Map<string, number> }[]);
    const last = flows.map(() => '');
    const finished = flows.map(() => null as null | Record<string, any>);
    while (finished.some((f) => f === null)) {
      if (performance.now() - start > DEADLINE_MS) throw new Error('the export did not finish in 15 minutes');
      await Promise.all(
        flows.map(async (flow, index) => {
          if (finished[index]) return;
          const current = await api('GET', `/api/flows/${flow.id}`);
          const label = `${current.step} ${current.stato}`;
          if (label !== last[index])
            (marks[index]!.push({ at: performance.now() - start, label, calls: snapshot() }), (last[index] = label));
          if (current.step === 'COMPLETATO' || current.step === 'ERRORE') finished[index] = current;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const total = performance.now() - start;
    const platformCallsOfExport = platformCalls;
    const cpu = process.cpuUsage(cpuAtStart);
    const callsAtEnd = snapshot();
    const { throttled } = await partitionLimit(0);

    const STEP_NAMES: Record<string, string> = onGpd
      ? {
          PREPARAZIONE: 'Prepare: month generation, IUVs reserved and saved, the list to the bucket',
          INVIO: 'MarkIsees + Send: bulk creates at GPD (≤ 100 a call), results written back',
        }
      : {
          PREPARAZIONE: 'Prepare: month generation, CSV, ZIP + MD5, to the exports bucket',
          INVIO: 'MarkIsees (ISEEs used for the fees) + Send: authorise, upload',
          'ATTESA_ESITO LOAD_IMPORT': 'MyPay import (simulator: validation, IUVs, notice PDFs) + polling',
          'ATTESA_ESITO IMPORT_IN_ELAB': 'MyPay import (simulator: validation, IUVs, notice PDFs) + polling',
          'ATTESA_ESITO IMPORT_ESEGUITO': 'Collect: result files to the bucket, IUV + NAV on each position',
        };
    const slowest: { name: string; ms: number }[] = [];
    for (const [index, flow] of finished.entries()) {
      console.log(
        `flow ${flow!.id} (${callIds[index]}): ${flow!.step} ${flow!.stato}, rows ${flow!.num}, accepted ${flow!.accepted}, rejected ${flow!.rejected}${flow!.error ? `, error: ${flow!.error}` : ''}`,
      );
      // Consecutive progress marks with the same step name merge into one phase.
      const phases: { name: string; ms: number; calls: Map<string, number> }[] = [];
      let from = 0;
      let fromCalls = new Map<string, number>();
      let name = STEP_NAMES.PREPARAZIONE!;
      const diff = (a: Map<string, number>, b: Map<string, number>) =>
        new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const).filter(([, v]) => v > 0));
      for (const mark of marks[index]!) {
        const next = STEP_NAMES[mark.label] ?? STEP_NAMES[mark.label.split(' ')[0]!] ?? mark.label;
        if (next === name) continue;
        phases.push({ name, ms: mark.at - from, calls: diff(fromCalls, mark.calls) });
        from = mark.at;
        fromCalls = mark.calls;
        name = next;
      }
      const describe = (counts: Map<string, number>) =>
        [...counts]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
      for (const phase of phases)
        console.log(
          `  ${phase.name.padEnd(72)} ${ms(phase.ms).padStart(8)}${CALLS === 1 ? `   calls: ${describe(phase.calls) || '–'}` : ''}`,
        );
      slowest.push(...phases);
    }
    console.log(
      `\nTOTAL end to end (start → last flow completed)${' '.repeat(28)} ${ms(total).padStart(8)}   ${total <= 60_000 ? '≤ 60 s ✓' : '> 60 s ✗'}`,
    );
    // The whole stack is this one process: its CPU time is the figure that does not depend on how busy the machine is.
    console.log(
      `CPU used by the stack meanwhile (dynalite, s3rver, simulator, state machine, handlers) ${ms((cpu.user + cpu.system) / 1000).padStart(8)}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`,
    );
    const dynamoCalls = [...callsAtEnd].filter(([k]) => k.startsWith('dynamodb.')).reduce((sum, [, v]) => sum + v, 0);
    const s3Calls = [...callsAtEnd].filter(([k]) => k.startsWith('s3.')).reduce((sum, [, v]) => sum + v, 0);
    console.log(
      `DynamoDB calls ${dynamoCalls} (${(dynamoCalls / Math.max(1, expected)).toFixed(2)} per position), S3 calls ${s3Calls} (${(s3Calls / Math.max(1, expected)).toFixed(2)} per position), export start → end incl. the progress polls`,
    );
    console.log(
      `  by operation: ${[...callsAtEnd]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(
      `DynamoDB's per-partition limit: ${PARTITION_WRITE_UNITS ? `${PARTITION_WRITE_UNITS} write units a second per partition key` : 'off'}; writes throttled (and sent again) ${throttled}`,
    );
    const worst = slowest.sort((a, b) => b.ms - a.ms)[0];
    if (worst) console.log(`slowest step: ${worst.name} (${ms(worst.ms)})`);

    /**
     * GPD: 'Sincronizza' of the exported month at this size, as the operator starts it on each call: one position in
     * ten paid at GPD outside the portal (a counter with the notice) beforehand; the job reads GPD's list (pages of 50)
     * and records those payments. Timed, with GPD's calls by operation and the DynamoDB calls; checks that exactly the
     * positions paid there read paid.
     */
    async function syncAtScale(countersBefore: SimulatorCounters): Promise<string[]> {
      const problems: string[] = [];
      const months = await Promise.all(callIds.map(async (id) => [id, await listMonth(id)] as const));
      const all = months.flatMap(([, ps]) => ps).sort((a, b) => a.iud.localeCompare(b.iud));
      const paidThere = new Set(all.filter((_, i) => i % 10 === 0).map((p) => p.iud));
      const navs = all.filter((p) => paidThere.has(p.iud)).map((p) => p.nav);
      for (let i = 0; i < navs.length; i += 500)
        await fetch(`${simulatorAdmin}/paid`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ navs: navs.slice(i, i + 500) }),
        });
      const dynamoBefore = snapshot();
      const t = performance.now();
      await Promise.all(callIds.map((id) => api('POST', `/api/calls/${id}/positions/sync`, {})));
      // Each slice ends by writing its cursor and time on the job's record: the record, read as the job runs, times
      // the slices (each has the job function's 300 s), the first from the run's start. Two slices ending within one
      // poll (250 ms) read as one.
      const { getJob } = await import('../../functions/jobs/repository.ts');
      const slices = new Map(callIds.map((id) => [id, [] as number[]]));
      for (const id of callIds) {
        let last: string | null = null;
        for (;;) {
          if (performance.now() - t > SYNC_DEADLINE_MS) throw new Error('Sincronizza did not finish in 30 minutes');
          const job = await getJob(SYNC_JOB, id);
          if (job && job.updatedAt !== (last ?? job.startedAt)) {
            slices.get(id)!.push(Date.parse(job.updatedAt) - Date.parse(last ?? job.startedAt));
            last = job.updatedAt;
          }
          if (job && job.state !== 'RUNNING') {
            if (job.state !== 'SUCCEEDED') problems.push(`Sincronizza of ${id}: ${job.state} ${job.error}`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      const elapsed = performance.now() - t;
      const { counters } = (await (await fetch(`${simulatorAdmin}/state`)).json()) as { counters: SimulatorCounters };
      const byOperation = Object.entries(counters.calls)
        .map(([op, n]) => [op, n - (countersBefore.calls[op] ?? 0)] as const)
        .filter(([, n]) => n > 0);
      const gpd = byOperation.reduce((sum, [, n]) => sum + n, 0);
      const dynamo = [...snapshot()]
        .filter(([k]) => k.startsWith('dynamodb.'))
        .reduce((sum, [k, v]) => sum + v - (dynamoBefore.get(k) ?? 0), 0);
      const after = (await Promise.all(callIds.map(listMonth))).flat();
      const wrong = after.filter((p) => p.isPagato !== paidThere.has(p.iud));
      if (wrong.length)
        problems.push(`${wrong.length} positions whose paid state differs from GPD's after Sincronizza`);
      console.log(
        `\n'Sincronizza' of the month on ${callIds.length} call(s), ${paidThere.size.toLocaleString('it-IT')} of ${all.length.toLocaleString('it-IT')} positions paid at GPD outside the portal: ${ms(elapsed)} (each slice of the job has ${JOB_SLICE_TIMEOUT_SECONDS} s)`,
      );
      console.log(
        `  GPD calls ${gpd} (${byOperation.map(([op, n]) => `${op} ${n}`).join(', ') || '–'}; ${(gpd / Math.max(1, all.length)).toFixed(3)} per position), 429s ${counters.rateLimited - countersBefore.rateLimited}; DynamoDB calls ${dynamo} (${(dynamo / Math.max(1, all.length)).toFixed(2)} per position, the month's generation and the totals' reconcile included)`,
      );
      for (const [id, seen] of slices) {
        const longest = Math.max(0, ...seen);
        console.log(
          `  ${id}: ${seen.length} slices (${seen.map(ms).join(', ')}); longest ${ms(longest)} of the job function's ${JOB_SLICE_TIMEOUT_SECONDS} s`,
        );
        if (longest > JOB_SLICE_TIMEOUT_SECONDS * 1000)
          problems.push(`a slice of ${id} ran ${ms(longest)}, past the job function's ${JOB_SLICE_TIMEOUT_SECONDS} s`);
      }
      console.log(
        problems.length
          ? `CHECK FAILED:\n- ${problems.join('\n- ')}`
          : `check: the ${paidThere.size.toLocaleString('it-IT')} positions paid at GPD read paid, the other ${(all.length - paidThere.size).toLocaleString('it-IT')} do not ✓`,
      );
      return problems;
    }

    // --- every position got its IUV exactly once
    const problems: string[] = [];
    const { listPositionsOfMonth } = await import('../../functions/positions/repository.ts');
    const listMonth = (id: string) => listPositionsOfMonth(id, MONTH);
    const positions = (await Promise.all(callIds.map(listMonth))).flat();
    if (positions.length !== expected) problems.push(`${positions.length} positions stored, ${expected} expected`);
    const notExported = positions.filter(
      (p) => p.statoExport !== 'ESPORTATA' || !p.codIuv || !isValidIuv(p.codIuv) || p.nav !== `3${p.codIuv}`,
    );
    if (notExported.length) {
      const reasons = new Map<string, number>();
      for (const p of notExported)
        reasons.set(
          String(p.lastExportError ?? p.statoExport),
          (reasons.get(String(p.lastExportError ?? p.statoExport)) ?? 0) + 1,
        );
      problems.push(
        `${notExported.length} positions without a valid IUV/NAV: ${[...reasons]
          .slice(0, 5)
          .map(([r, n]) => `${n} × ${r}`)
          .join('; ')}`,
      );
    }
    const withIuv = positions.filter((p) => p.codIuv);
    const iuvs = new Set(withIuv.map((p) => p.codIuv));
    if (iuvs.size !== withIuv.length) problems.push(`${withIuv.length - iuvs.size} IUVs given twice`);
    console.log(
      `${onGpd ? 'GPD' : 'MyPay'} calls ${platformCallsOfExport} (${(platformCallsOfExport / Math.max(1, expected)).toFixed(3)} per position${onGpd ? '; the client paces them at 10 a second, GPD allows 100 in 10 s' : ''})`,
    );
    if (onGpd) {
      // GPD holds each position once, published (VALID), with the IUV the portal saved on it.
      const state = (await (await fetch(`${simulatorAdmin}/state`)).json()) as {
        positions: Record<string, { iupd: string; status: string; paymentOption: { iuv: string }[] }>;
        counters: SimulatorCounters;
      };
      console.log(
        `GPD's rate limit (100 calls in 10 s per key): ${state.counters.rateLimited} calls answered 429 during the export`,
      );
      const held = new Map(Object.values(state.positions).map((p) => [p.iupd, p]));
      if (held.size !== positions.length)
        problems.push(`GPD holds ${held.size} positions, the table ${positions.length}`);
      const mismatched = positions.filter((p) => {
        const at = held.get(iupdOfPosition(p));
        return at?.status !== 'VALID' || at.paymentOption[0]?.iuv !== p.codIuv;
      });
      if (mismatched.length) problems.push(`${mismatched.length} positions not VALID at GPD with the portal's IUV`);
      if (finished.some((f) => f!.accepted !== f!.num || f!.rejected !== 0)) problems.push('a flow has rejected rows');
      console.log(
        problems.length
          ? `\nCHECK FAILED:\n- ${problems.join('\n- ')}`
          : `\ncheck: ${positions.length.toLocaleString('it-IT')} positions, each with one valid IUV of the council (all distinct), published once at GPD with it ✓`,
      );
      const syncProblems = await syncAtScale(state.counters);
      process.exitCode = problems.length || syncProblems.length || total > 60_000 ? 1 : 0;
      return;
    }
    const state = (await (await fetch(`${simulatorAdmin}/state`)).json()) as {
      imports: Record<string, { fileName?: string; state: string }>;
      positions: Record<string, { iud: string; iuv: string }>;
    };
    for (const flow of finished) {
      const imports = Object.values(state.imports).filter((i) => i.fileName?.includes(flow!.id));
      if (imports.length !== 1) problems.push(`flow ${flow!.id}: ${imports.length} imports at MyPay`);
    }
    const held = Object.values(state.positions);
    if (held.length !== positions.length)
      problems.push(`MyPay holds ${held.length} positions, the table ${positions.length}`);
    const heldIuv = new Map(held.map((p) => [p.iud, p.iuv]));
    const mismatched = positions.filter((p) => heldIuv.get(p.iud) !== p.codIuv);
    if (mismatched.length) problems.push(`${mismatched.length} positions whose IUV differs from MyPay's`);
    if (finished.some((f) => f!.accepted !== f!.num || f!.rejected !== 0)) problems.push('a flow has rejected rows');
    console.log(
      problems.length
        ? `\nCHECK FAILED:\n- ${problems.join('\n- ')}`
        : `\ncheck: ${positions.length.toLocaleString('it-IT')} positions, each with one valid IUV (all distinct, same as MyPay's), one import per flow ✓`,
    );
    process.exitCode = problems.length || total > 60_000 ? 1 : 0;
  } finally {
    await stack.close();
  }
}

await main();
