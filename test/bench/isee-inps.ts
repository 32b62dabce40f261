/**
 * `npm run bench:isee-inps` (issue 24): a call's 'Aggiorna ISEE da INPS' for N approved subscribers end to end
 * on the local stack, as an operator starts it: the API (real JWT from the local IdP) → the background jobs'
 * state machine (local Step Functions) → the job's slices → the PDND client (client assertion, voucher from the
 * PDND simulator, reused) → the INPS simulator's ConsultazioneAttestazione (SOAP, voucher checked, rate limit
 * with 429 + Retry-After) → each citizen's outcome in the run's report. Prints the time, citizens a second, the
 * report's outcome counts (checked against the seeded mix), the token requests PDND received against the
 * voucher lifetime, the 429s INPS answered, and whether the goals hold (≤ 10 minutes; token requests ≤
 * ceil(duration / voucher lifetime)).
 *
 *   npm run bench:isee-inps                          5,000 subscribers, seed 1 (the mix the bench was built on)
 *   npm run bench:isee-inps -- --held-out            another seed and mix, not tuned on (more omissions and
 *                                                    citizens without a DSU, more already up to date)
 *   npm run bench:isee-inps -- --size 200 --seed 9   another size, another seed (with the main mix)
 *   -- --rate 10 --inps-limit 10 --lifespan 600      the job's pace (INPS_RATE_PER_SECOND, as deployed: the
 *                                                    default 10), INPS's limit (requests a second before 429),
 *                                                    PDND's voucher lifetime in seconds (its default 600)
 *
 * Not part of npm test. Seeding goes straight to dynalite with BatchWrite and to the INPS simulator's DSU file
 * before it starts (the refresh is what is measured).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/adapters/table.ts';
import { refreshOutcomes, type RefreshOutcome } from '../../functions/domain/isee-refresh.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { identities } from '../../lib/local/identities.ts';
import { dsuProtocol, makeDsu, type SimDsu } from '../../lib/local/inps-simulator.ts';
import { signIn } from '../support/sign-in.ts';
import { benchApi } from './api.ts';
import { writeAll } from './seed.ts';
import { startTestStack } from '../support/stack.ts';
import { random } from '../fixtures/isee/people.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import { romeYear } from '../../functions/domain/period.ts';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '5000' },
    seed: { type: 'string' },
    'held-out': { type: 'boolean', default: false },
    rate: { type: 'string', default: '10' },
    'inps-limit': { type: 'string', default: '10' },
    lifespan: { type: 'string', default: '600' },
  },
});
const heldOut = args['held-out']!;
const SIZE = Number(args.size);
const SEED = Number(args.seed ?? (heldOut ? 2 : 1));
const RATE = Number(args.rate);
const INPS_LIMIT = Number(args['inps-limit']);
const LIFESPAN = Number(args.lifespan);
const GOAL_MS = 10 * 60_000;
const DEADLINE_MS = 30 * 60_000;
if (![SIZE, SEED, RATE, INPS_LIMIT, LIFESPAN].every((n) => Number.isFinite(n) && n > 0))
  throw new Error('--size, --seed, --rate, --inps-limit, --lifespan: positive numbers');

/**
 * The mix of what INPS holds for the subscribers: a valid DSU the portal does not have yet (NEW), the same one
 * the portal already holds (UNCHANGED), one with omissions (REVIEW), an expired one or none at all (NONE).
 */
type Kind = 'new' | 'unchanged' | 'omissions' | 'expired' | 'none';
const MIX: [Kind, number][] = heldOut
  ? [
      ['new', 0.5],
      ['unchanged', 0.2],
      ['omissions', 0.13],
      ['expired', 0.05],
      ['none', 0.12],
    ]
  : [
      ['new', 0.72],
      ['unchanged', 0.1],
      ['omissions', 0.08],
      ['expired', 0.03],
      ['none', 0.07],
    ];
const EXPECTED: Record<Kind, RefreshOutcome> = {
  new: 'NEW',
  unchanged: 'UNCHANGED',
  omissions: 'REVIEW',
  expired: 'NONE',
  none: 'NONE',
};

const rnd = random(SEED * 0x9e3779b1).next;
const pick = <T>(items: readonly T[] | string): T => items[Math.floor(rnd() * items.length)] as T;
/** A fiscal code not given before in this run. */
function fiscalCode(used: Set<string>): string {
  for (;;) {
    const code = randomFiscalCodeFrom(rnd);
    if (!used.has(code)) return (used.add(code), code);
  }
}
function kindOf(): Kind {
  let r = rnd();
  for (const [kind, share] of MIX) if ((r -= share) < 0) return kind;
  return MIX[0]![0];
}
const LAST = [
  'Rossi',
  'Bianchi',
  'Verdi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  "D'Alò",
  'Mazzà',
];
const FIRST = ['Maria', 'Giuseppe', 'Anna', 'Luca', 'Giulia', 'Marco', 'Niccolò', 'Chiara'];
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  // --- the people and what INPS holds for them (written before the simulator starts: it reads its DSU file)
  const year = romeYear(new Date());
  const now = new Date().toISOString();
  const callId = 'bench-isee-call';
  const used = new Set<string>();
  const dsus: SimDsu[] = [];
  const items: Record<string, unknown>[] = [];
  const expected = Object.fromEntries(refreshOutcomes.map((o) => [o, 0])) as Record<RefreshOutcome, number>;
  const kinds = new Map<Kind, number>();
  // The portal's items are built once the stack has set the table's environment (the repository reads it on import).
  const builders: ((userItem: (user: never) => Record<string, unknown>) => void)[] = [];
  for (let i = 0; i < SIZE; i++) {
    const id = `isee-bench-${String(i).padStart(6, '0')}`;
    const code = fiscalCode(used);
    const lastName = pick(LAST);
    const firstName = pick(FIRST);
    const kind = kindOf();
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    expected[EXPECTED[kind]] += 1;
    const iseeCents = 300_000 + Math.floor(rnd() * 3_000_000);
    if (kind !== 'none') {
      const dsu = makeDsu(
        {
          fiscalCode: code,
          firstName,
          lastName,
          iseeCents,
          kind: kind === 'omissions' ? 'omissions' : kind === 'expired' ? 'expired' : 'valid',
          members: 1 + Math.floor(rnd() * 4),
        },
        year,
      );
      dsu.protocol = dsuProtocol(code, year - (kind === 'expired' ? 1 : 0), `bench-${SEED}`);
      dsus.push(dsu);
    }
    // Those 'unchanged' already hold this year's DSU on the portal; the others last year's ISEE (or none).
    const held =
      kind === 'unchanged'
        ? { valueCents: iseeCents, year, protocollo: dsuProtocol(code, year, `bench-${SEED}`) }
        : rnd() < 0.7
          ? {
              valueCents: 250_000 + Math.floor(rnd() * 3_000_000),
              year: year - 1,
              protocollo: dsuProtocol(code, year - 1, 'old'),
            }
          : null;
    const iseeId = `isee-${id}`;
    builders.push((userItem) =>
      items.push({
        ...userItem({
          id,
          firstName,
          lastName,
          fiscalCode: code,
          email: `${id}@example.it`,
          address: 'Via Roma',
          addressNumber: String(1 + (i % 200)),
          cap: '00100',
          city: 'Roma',
          country: 'RM',
          nation: 'IT',
          state: 'VALIDATED',
          dataInsert: now,
        } as never),
        ...(held
          ? {
              lastIsee: {
                id: iseeId,
                valueCents: held.valueCents,
                year: held.year,
                state: 'VALIDATED',
                hasFile: false,
              },
            }
          : {}),
      }),
    );
    if (held) {
      const date = `${held.year}-01-20T09:00:00.000Z`;
      items.push({
        ...keys.isee(iseeId),
        id: iseeId,
        userId: id,
        valueCents: held.valueCents,
        year: held.year,
        protocollo: held.protocollo,
        date,
        state: 'VALIDATED',
        hasFile: false,
        uploadedBy: 'OPERATOR',
        dataInsert: date,
        updatedAt: date,
        gsi2pk: keys.iseesOfUser(id),
        gsi2sk: `${date}#${iseeId}`,
      });
    }
    items.push({
      ...keys.subscription(callId, id),
      gsi1pk: keys.subscriptionsOfUser(id),
      gsi1sk: `${now}#${callId}`,
      gsi2pk: keys.subscriptionsOfCall(callId),
      gsi2sk: `SUBSCRIBER#${id}`,
      id: `${callId}.${id}`,
      state: 'VALIDATED',
      announcementId: callId,
      weeklyHour: 1 + (i % 5),
      userId: id,
      fiscalCode: code,
      firstName,
      lastName,
      dataInsert: now,
      dataUpdate: now,
      files: [],
    });
  }
  items.push({
    ...keys.call(callId),
    id: callId,
    name: 'Bando benchmark ISEE',
    year,
    state: 1,
    serviceId: 's',
    serviceName: 'Assistenza domiciliare',
    dataInsert: now,
    nomeMyPay: 'SERVIZI_SOCIALI',
    codAccertamento: 'ACC-1',
    codCapitolo: 'CAP-1',
    bandsId: [],
    files: [],
    version: 1,
    updatedAt: now,
  });
  // The call's enrolment counters (functions/subscriptions/repository.ts): the job's total.
  items.push({ pk: `CALL#${callId}`, sk: 'ENROLMENT_COUNTS', c_VALIDATED: SIZE });

  // The job's pace, as a deployment sets it (CDK context inpsRatePerSecond → INPS_RATE_PER_SECOND).
  process.env.INPS_RATE_PER_SECOND = String(RATE);
  const stack = await startTestStack({ web: 'none', seed: false }, async (dataDir) => {
    await fs.mkdir(path.join(dataDir, 'inps'), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'inps', 'dsus.json'), JSON.stringify(dsus));
  });
  try {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: stack.dynamoEndpoint,
        region: 'eu-south-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    const { userItem } = await import('../../functions/users/repository.ts');
    for (const build of builders) build(userItem as never);
    const t0 = performance.now();
    await writeAll(client, TABLE_NAME, items);
    const seededIn = performance.now() - t0;

    const admin = async (base: string, route: string, body?: unknown) => {
      const response = await fetch(
        `${base}/admin/${route}`,
        body === undefined
          ? {}
          : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      );
      if (!response.ok) throw new Error(`${base}/admin/${route}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, any>>;
    };
    // INPS's limit (429 with Retry-After beyond it) and PDND's voucher lifetime; the counters from zero.
    await admin(stack.inpsUrl, 'reset', { counts: true });
    await admin(stack.inpsUrl, 'rate-limit', { perSecond: INPS_LIMIT });
    await admin(stack.pdndUrl, 'reset', { counts: true });
    await admin(stack.pdndUrl, 'voucher-lifespan', { seconds: LIFESPAN });

    const { accessToken } = await signIn({ issuer: stack.issuer, appUrl: stack.appUrl, sub: identities[2].sub });
    const api = benchApi(stack.appUrl, accessToken);

    const mix = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(
      `${heldOut ? 'HELD-OUT: ' : ''}${SIZE.toLocaleString('it-IT')} approved subscribers on one call, seed ${SEED} (${mix}); ` +
        `INPS_RATE_PER_SECOND ${RATE}, INPS limit ${INPS_LIMIT}/s, voucher lifetime ${LIFESPAN} s (Node ${process.version}; seeded in ${s(seededIn)})`,
    );

    // --- the refresh, as the operator starts it ('Aggiorna ISEE da INPS'), then its progress until it ends
    const start = performance.now();
    const cpuAtStart = process.cpuUsage();
    await api('POST', `/api/calls/${callId}/isee-refresh`);
    let status: Record<string, any>;
    let lastPrint = 0;
    for (;;) {
      status = await api('GET', `/api/calls/${callId}/isee-refresh`);
      if (!status.isUpdating && status.state !== 'RUNNING') break;
      if (performance.now() - start > DEADLINE_MS)
        throw new Error(`the refresh did not finish in ${DEADLINE_MS / 60_000} minutes`);
      if (performance.now() - lastPrint > 30_000) {
        lastPrint = performance.now();
        console.log(`  ${s(lastPrint - start).padStart(8)}: ${status.done}/${status.total ?? '?'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const total = performance.now() - start;
    const cpu = process.cpuUsage(cpuAtStart);
    const pdnd = await admin(stack.pdndUrl, 'state');
    const inps = await admin(stack.inpsUrl, 'state');

    // --- the figures and the goals
    const counts = status.counts as Record<RefreshOutcome, number>;
    const asked = refreshOutcomes.reduce((sum, o) => sum + counts[o], 0);
    const allowedTokens = Math.ceil(total / 1000 / LIFESPAN);
    console.log(
      `\njob ${status.state}${status.error ? ` (${status.error})` : ''}: ${status.done}/${status.total} walked`,
    );
    console.log(
      `TOTAL (start → job ended)         ${s(total).padStart(9)}   ${total <= GOAL_MS ? '≤ 10 min ✓' : '> 10 min ✗'}`,
    );
    console.log(
      `citizens a second                 ${(asked / (total / 1000)).toFixed(2).padStart(9)}   (pace ${RATE}/s: the floor is ${s((SIZE / RATE) * 1000)})`,
    );
    console.log(
      `report: ${refreshOutcomes.map((o) => `${o} ${counts[o]}`).join(', ')}   (seeded: ${refreshOutcomes.map((o) => `${o} ${expected[o]}`).join(', ')})`,
    );
    console.log(
      `PDND token requests ${pdnd.tokenRequests} (issued ${pdnd.issued}, 400 ${pdnd.refused}, 429 ${pdnd.rateLimited}), voucher lifetime ${pdnd.voucherLifespanSeconds} s → ` +
        `at most ceil(${s(total)} / ${LIFESPAN} s) = ${allowedTokens}   ${pdnd.tokenRequests <= allowedTokens ? '✓' : '✗'}`,
    );
    console.log(
      `INPS requests ${inps.requests}, 429s ${inps.rateLimited} (Retry-After waited by the adapter), vouchers refused ${inps.unauthorized}; esiti ${JSON.stringify(inps.byEsito)}`,
    );
    console.log(
      `CPU used by the stack meanwhile ${s((cpu.user + cpu.system) / 1000)}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`,
    );

    const problems: string[] = [];
    if (status.state !== 'SUCCEEDED') problems.push(`the job ended ${status.state}`);
    if (asked !== SIZE) problems.push(`${asked} citizens in the report, ${SIZE} subscribers`);
    for (const o of refreshOutcomes)
      if (counts[o] !== expected[o]) problems.push(`${o}: ${counts[o]} in the report, ${expected[o]} seeded`);
    if (total > GOAL_MS) problems.push(`${s(total)} > 10 minutes`);
    if (pdnd.tokenRequests > allowedTokens)
      problems.push(`${pdnd.tokenRequests} token requests > ${allowedTokens} (one per voucher lifetime)`);
    console.log(
      problems.length
        ? `\nGOALS NOT MET:\n- ${problems.join('\n- ')}`
        : '\ngoals: ≤ 10 minutes ✓, ≤ 1 token request per voucher lifetime ✓, every outcome as seeded ✓',
    );
    process.exitCode = problems.length ? 1 : 0;
  } finally {
    await stack.close();
  }
}

await main();
