import { messages, positionOpsMessages } from '../../functions/domain/messages.ts';
import { describe, expect, it } from 'vitest';
import type { Band } from '../../functions/domain/bands.ts';
import type { Configuration, StoredConfiguration } from '../../functions/domain/configuration.ts';
import { positionIud, syncCandidateMonths, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import { periodKey, positionEditSchema, type Period } from '../../functions/domain/payments.ts';
import type { CallRecord } from '../../functions/domain/call-record.ts';
import { makeConfigurationUseCases } from '../../functions/configuration/use-cases.ts';
import { makePaymentUseCases, type PositionRepository, type SliceBudget } from '../../functions/payments/use-cases.ts';
import type { SubscriptionRecord } from '../../functions/domain/subscription-record.ts';
import type { StoredUser } from '../../functions/domain/user-record.ts';
import { makeDebtSummaryUseCases } from '../../functions/payment-list/use-cases.ts';
import { SKIPPED_SHOWN } from '../../functions/domain/position-rules.ts';
import { makeMonthSummaryRefresh } from '../../functions/payment-list/month-refresh.ts';
import { makePaymentListProjection } from '../../functions/payment-list/projection.ts';
import { mypayConfiguration } from '../support/configuration.ts';
import { actors, memoryAudit, memoryMetrics, tickingClock } from '../support/in-memory.ts';
import { memoryDebts } from '../support/in-memory-debts.ts';
import { memoryPositionWriter } from '../support/in-memory-positions.ts';
import { runningExportsOf } from '../../functions/flows/running-exports.ts';
import {
  edit as editTransition,
  isBatchable,
  isHeld,
  isOpen,
  settle,
  type PositionsChanged,
} from '../../functions/domain/positions/index.ts';

const band: Band = {
  id: 'band-1',
  name: 'Fascia 2',
  min: 3000.01,
  max: 20000,
  percent: 50,
  fixedCost: 10,
  hourlyQuota: 5,
};
const call: CallRecord = {
  id: 'call-1',
  name: 'Assistenza domiciliare 2026',
  year: 2026,
  state: 1,
  serviceId: 's1',
  serviceName: 'Assistenza domiciliare',
  dataInsert: '2026-01-01T00:00:00.000Z',
  nomeMyPay: 'SERVIZI_SOCIALI',
  codAccertamento: 'ACC-1',
  codCapitolo: 'CAP-1',
  bandsId: [band.id],
  files: [],
  serviceDescription: '',
  version: 1,
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/**
 * The positions on a map. The export's write-back fence (openWriteBack … closeWriteBack, recordPayment's
 * receipts) is tested on the local DynamoDB (test/integration/write-back-fence.test.ts): here it is always
 * closed and empty.
 */
function memoryPositions(changed: PositionsChanged): PositionRepository & { all: Map<string, PositionRecord> } {
  const all = new Map<string, PositionRecord>();
  const key = (p: { callId: string; userId: string } & Period) => `${p.callId}|${periodKey(p)}|${p.userId}`;
  const ofMonth = (callId: string, period: Period) =>
    [...all.values()].filter((p) => p.callId === callId && periodKey(p) === periodKey(period));
  const repository = {
    all,
    ...memoryPositionWriter(all, key, changed),
    openWriteBack: async () => undefined,
    writeBackReceipts: async () => ({ receipts: [], count: 0 }),
    closeWriteBack: async () => true,
    repairPayment: async (): Promise<'repaired' | 'paid' | 'none'> => 'none',
    listPositionsOfMonth: async (callId: string, period: Period) => structuredClone(ofMonth(callId, period)),
    listPositions: async (callId, period) => ({ items: ofMonth(callId, period), nextCursor: null }),
    getPositionByIud: async (iud) => structuredClone([...all.values()].find((p) => p.iud === iud) ?? null),
    hasOpenPositions: async (callId, period) => ofMonth(callId, period).some(isOpen),
    hasLiveCheckouts: async (callId, month, now) =>
      [...all.values()].some(
        (p) => p.callId === callId && (!month || periodKey(p) === periodKey(month)) && isHeld(p, new Date(now)),
      ),
  } satisfies PositionRepository & Record<string, unknown>;
  return repository;
}

function user(id: string, iseeEuro: number | null, iseeState = 'VALIDATED'): StoredUser {
  return {
    id,
    firstName: 'Nome',
    lastName: `Cognome ${id}`,
    fiscalCode: `CF${id}`.toUpperCase().padEnd(16, 'X'),
    state: 'VALIDATED',
    dataInsert: '2026-01-01T00:00:00.000Z',
    email: `${id}@example.it`,
    address: 'Via Roma',
    addressNumber: '1',
    cap: '00100',
    city: 'Roma',
    country: 'RM',
    nation: 'IT',
    lastIsee:
      iseeEuro === null
        ? null
        : { id: `isee-${id}`, valueCents: Math.round(iseeEuro * 100), year: 2026, state: iseeState, hasFile: false },
  };
}
const subscription = (
  userId: string,
  weeklyHour: number | null,
  state: SubscriptionRecord['state'] = 'VALIDATED',
): SubscriptionRecord => ({
  id: `call-1.${userId}`,
  state,
  announcementId: 'call-1',
  announcement: { id: 'call-1', name: call.name, year: 2026, service: { id: 's1', name: 'Assistenza domiciliare' } },
  rankingScore: null,
  weeklyHour,
  cost: null,
  dataInsert: '2026-01-01T00:00:00.000Z',
  dataUpdate: '2026-01-01T00:00:00.000Z',
  userId,
  fiscalCode: `CF${userId}`.toUpperCase().padEnd(16, 'X'),
  firstName: 'Nome',
  lastName: `Cognome ${userId}`,
  files: [],
});

function setup(
  options: {
    configuration?: Partial<Configuration> | null;
    callState?: number;
    platformName?: 'gpd';
    sliceBudget?: SliceBudget;
    exportSliceBudget?: SliceBudget;
  } = {},
) {
  // The writer tells the payment list's projection, made below on the same positions.
  const positions = memoryPositions({ positionsChanged: (changes) => projection.positionsChanged(changes) });
  const users = new Map<string, StoredUser>();
  const subscriptions: SubscriptionRecord[] = [];
  const marked = new Set<string>();
  const exportLocks = new Map<string, string>();
  let stored: StoredConfiguration | null =
    options.configuration === null
      ? null
      : { values: options.configuration ?? mypayConfiguration, updatedAt: '2026-01-01T00:00:00.000Z' };
  const audit = memoryAudit();
  const metrics = memoryMetrics();
  const clock = tickingClock('2026-03-10T09:00:00.000Z');
  /** The exports bucket: what was put (key → body, type) and the links handed out (key, name, type). */
  const files = new Map<string, { body: Uint8Array; contentType: string }>();
  const links: { key: string; fileName: string; contentType?: string }[] = [];
  const exportFiles = {
    put: async (key: string, body: Uint8Array, contentType: string) => void files.set(key, { body, contentType }),
    get: async (key: string) =>
      files.get(key)?.body ?? Promise.reject(Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' })),
    downloadUrl: async (key: string, fileName: string, contentType?: string) => (
      links.push({ key, fileName, contentType }),
      `https://exports/${key}?ttl=300`
    ),
  };
  const configurationRepository = {
    getConfiguration: async () => structuredClone(stored),
    putConfiguration: async (values: Configuration, now: string) => (stored = { values, updatedAt: now }),
  };
  const getCall = async (id: string) =>
    id === call.id ? { ...structuredClone(call), state: options.callState ?? call.state } : null;
  const getUserItems = async (ids: readonly string[]) =>
    new Map(ids.filter((id) => users.has(id)).map((id) => [id, structuredClone(users.get(id)!)]));
  const debts = memoryDebts(() => positions.all.values());
  const debtSummaries = makeDebtSummaryUseCases({
    debts,
    positions: debts,
    users: { getUserItems },
    calls: { getCall },
    clock,
  });
  /** The month refresh's batched summary writes: how many, and a concurrent change to run just before the next. */
  const batched = { summaryWrites: 0, beforeNextBatch: null as null | (() => Promise<void>) };
  const monthSummaries = makeMonthSummaryRefresh({
    debts: {
      summariesOfYear: async (callId, anno) =>
        new Map(
          [...debts.summaries.values()]
            .filter((s) => s.callId === callId && s.anno === anno)
            .map((s) => [s.userId, structuredClone(s)]),
        ),
      async putDebtSummaries(written) {
        const race = batched.beforeNextBatch;
        batched.beforeNextBatch = null;
        if (race) await race();
        batched.summaryWrites += written.length;
        for (const s of written) debts.summaries.set(`${s.callId}|${s.anno}|${s.userId}`, structuredClone(s));
      },
      addToDebtTotals: debts.addToDebtTotals,
    },
    positions,
    refresh: debtSummaries,
    clock,
  });
  const projection = makePaymentListProjection({
    refresh: debtSummaries,
    month: monthSummaries,
    users: { getUserItems },
  });
  /** GPD's IUV sequence of the council: each IUV it handed out, in order. */
  const reservedIuvs: string[] = [];
  const iuvSequence = {
    reserveIuvs: async (count: number) => {
      const block = Array.from(
        { length: count },
        (_, i) => `3000000000${String(reservedIuvs.length + i + 1).padStart(5, '0')}`,
      );
      reservedIuvs.push(...block);
      return block;
    },
  };
  /** How many times a month was planned (each plan reads the call's approved subscriptions once). */
  const plans = { count: 0 };
  const subscriptionsPort = {
    listApprovedSubscriptionsOfCall: async (callId: string) => (
      plans.count++,
      subscriptions.filter((s) => s.announcementId === callId && s.state === 'VALIDATED')
    ),
  };
  const bands = { getBand: async (id: string) => (id === band.id ? band : null) };
  const payments = makePaymentUseCases({
    positions,
    calls: { getCall },
    bands,
    subscriptions: subscriptionsPort,
    users: { getUserItems },
    isees: {
      markIseesUsedForFee: async (ids) => ids.filter((id) => !marked.has(id)).map((id) => marked.add(id)).length,
    },
    exports: runningExportsOf({ runningExportOf: async (callId) => exportLocks.get(callId) ?? null }),
    exportFiles,
    configuration: configurationRepository,
    audit: {
      recordMany: async (entries, at) => void (await Promise.all(entries.map((entry) => audit.record(entry, at)))),
    },
    summaries: { ...debtSummaries, ...monthSummaries },
    clock,
    metrics,
    sliceBudget: options.sliceBudget,
    exportSliceBudget: options.exportSliceBudget,
    iuvSequence,
    // On GPD the council's pagoPA settings stand in for MyPay's configuration page (none stored here).
    ...(options.platformName ? { platformName: options.platformName, requireConfiguration: async () => null } : {}),
  });
  const configuration = makeConfigurationUseCases({ configuration: configurationRepository, audit, clock });
  const enrol = (u: StoredUser, hours: number | null, state: SubscriptionRecord['state'] = 'VALIDATED') => {
    users.set(u.id, u);
    subscriptions.push(subscription(u.id, hours, state));
  };
  return {
    payments,
    plans,
    configuration,
    positions,
    users,
    subscriptions,
    marked,
    audit,
    metrics,
    enrol,
    exportLocks,
    files,
    links,
    debts,
    debtSummaries,
    batched,
    reservedIuvs,
  };
}

const march = { mese: 3, anno: 2026 };

describe('generating the positions of a month', () => {
  it('creates one position per approved subscription with a fee, skips what cannot be computed, exempts ISEE ≤ 3000 €', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3); // Fascia 2: 5 €/h × 3 × 31 / 7 = 66,43 €
    t.enrol(user('u2', 2500), 3); // exempt
    t.enrol(user('u3', null), 3); // no ISEE
    t.enrol(user('u4', 8000, 'LOADED'), 3); // newest ISEE not validated
    t.enrol(user('u5', 50000), 3); // no band
    t.enrol(user('u6', 8000), 3, 'ADDED'); // not approved: ignored
    const result = await t.payments.generatePositions(call.id, march, actors.operator);
    expect(result).toMatchObject({
      mese: 3,
      anno: 2026,
      created: 1,
      updated: 0,
      cancelled: 0,
      unchanged: 0,
      exempt: 1,
    });
    expect(result.skipped.map((s) => [s.fiscalCode, s.reason])).toEqual([
      ['CFU3XXXXXXXXXXXX', 'ISEE scaduto o mancante'],
      ['CFU4XXXXXXXXXXXX', 'ISEE scaduto o mancante'],
      ['CFU5XXXXXXXXXXXX', 'Il valore ISEE non rientra in nessuna fascia del bando'],
    ]);
    const [position] = [...t.positions.all.values()];
    expect(position).toMatchObject({
      userId: 'u1',
      iud: positionIud(call.id, 'u1', march),
      importoDovuto: 6643,
      azione: 'I',
      iseeId: 'isee-u1',
    });
    expect([...t.marked]).toEqual(['isee-u1']);
    expect(t.audit.entries.map((e) => [e.entity, e.action, e.id, e.actor.fiscalCode])).toEqual([
      ['position', 'create', position!.iud, actors.operator.fiscalCode],
    ]);
  });

  it('twice → the second run changes nothing; a new amount updates; amount 0 cancels, for good', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const again = await t.payments.generatePositions(call.id, march, actors.operator);
    expect(again).toMatchObject({ created: 0, updated: 0, cancelled: 0, unchanged: 1 });
    expect(t.positions.all.size).toBe(1);
    expect(t.audit.entries).toHaveLength(1);

    t.subscriptions[0]!.weeklyHour = 4; // 5 × 4 × 31 / 7 = 88,57 €
    expect(await t.payments.generatePositions(call.id, march, actors.operator)).toMatchObject({
      updated: 1,
      created: 0,
    });
    expect([...t.positions.all.values()][0]).toMatchObject({ importoDovuto: 8857, version: 2 });
    expect(t.audit.entries.at(-1)).toMatchObject({
      action: 'update',
      before: { importoDovuto: 6643 },
      after: { importoDovuto: 8857 },
    });

    t.users.set('u1', user('u1', 2000)); // a new ISEE under 3000 €
    expect(await t.payments.generatePositions(call.id, march, actors.operator)).toMatchObject({ cancelled: 1 });
    expect([...t.positions.all.values()][0]).toMatchObject({ annullato: true, importoDovuto: 0, azione: 'A' });

    t.users.set('u1', user('u1', 8000));
    const after = await t.payments.generatePositions(call.id, march, actors.operator);
    expect(after).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(after.skipped[0]!.reason).toBe('Posizione annullata: non può essere riaperta');
    expect([...t.positions.all.values()][0]).toMatchObject({ annullato: true });
  });

  it('counts the positions it creates for the dashboard: a second run counts none', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    t.enrol(user('u2', 9000), 2);
    t.enrol(user('u3', 2500), 3); // exempt
    await t.payments.generatePositions(call.id, march, actors.operator);
    expect(t.metrics.total('PositionsGenerated')).toBe(2);
    await t.payments.generatePositions(call.id, march, actors.operator);
    expect(t.metrics.total('PositionsGenerated')).toBe(2);
  });

  it('never changes a paid position', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const [key, stored] = [...t.positions.all.entries()][0]!;
    t.positions.all.set(key, { ...stored, isPagato: true, importoTotalePagato: 6643 });
    t.subscriptions[0]!.weeklyHour = 10;
    expect(await t.payments.generatePositions(call.id, march, actors.operator)).toMatchObject({
      updated: 0,
      unchanged: 1,
    });
    expect(t.positions.all.get(key)).toMatchObject({ importoDovuto: 6643, isPagato: true });
  });

  it('a position that changed meanwhile (lost race) is left alone and counted unchanged', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const [key, stored] = [...t.positions.all.entries()][0]!;
    const real = t.positions.applyTransitions.bind(t.positions);
    t.positions.applyTransitions = async (transitions, onWritten) => {
      t.positions.all.set(key, { ...stored, version: 9 }); // someone else wrote first
      return real(transitions, onWritten);
    };
    t.subscriptions[0]!.weeklyHour = 4;
    expect(await t.payments.generatePositions(call.id, march, actors.operator)).toMatchObject({
      updated: 0,
      unchanged: 1,
    });
  });

  it('refuses an unknown call (404) and an inmypayConfiguration configuration (400) before writing anything', async () => {
    const t = setup({ configuration: { ...mypayConfiguration, tipoDovuto: '' } });
    t.enrol(user('u1', 8000), 3);
    await expect(t.payments.generatePositions('nope', march, actors.operator)).rejects.toMatchObject({
      status: 404,
      message: 'Il bando selezionato non è presente.',
    });
    await expect(t.payments.generatePositions(call.id, march, actors.operator)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Configurazione MyPay incompleta.*tipoDovuto/),
    });
    await expect(t.payments.positionsCsv(call.id, march, actors.operator)).rejects.toMatchObject({ status: 400 });
    expect(t.positions.all.size).toBe(0);
    await expect(
      setup({ configuration: null }).payments.generatePositions(call.id, march, actors.operator),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('Verifica / genera CSV on pagoPA GPD', () => {
  const readCsv = async (t: ReturnType<typeof setup>, url: string) =>
    new TextDecoder().decode(t.files.get(new URL(url).pathname.slice(1))!.body);

  it('lists what the export will do at pagoPA with each pending position, without MyPay’s configuration or columns', async () => {
    const t = setup({ configuration: null, platformName: 'gpd' });
    t.enrol(user('u1', 8000), 3); // 66,43 € in March
    t.enrol(user('u2', 8000), 2); // 44,29 €
    const answer = await t.payments.positionsCsv(call.id, march, actors.operator);
    expect(answer).toMatchObject({ fileName: 'SERVIZI_SOCIALI_2026_03.csv', rows: 2, created: 2, heldBackCount: 0 });
    const [header, ...rows] = (await readCsv(t, answer.url))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header).toBe('azione;iud;codiceFiscale;anagrafica;email;importo;causale;scadenza;iuv');
    const [first] = [...t.positions.all.values()].filter((p) => p.userId === 'u1');
    expect(rows).toHaveLength(2);
    // New positions: the export gives them their IUV; the month's last day is still ahead on 10 March.
    expect(rows[0]!.split(';')).toEqual([
      'nuova',
      first!.iud,
      'CFU1XXXXXXXXXXXX',
      'Cognome u1 Nome',
      'u1@example.it',
      '66,43',
      first!.descrizione,
      '31/03/2026',
      '',
    ]);
  });

  it('gives a month already past the due day GPD will get (30 days on), and a cancelled sent position as annullamento', async () => {
    const t = setup({ configuration: null, platformName: 'gpd' });
    t.enrol(user('u1', 8000), 3);
    const february = { mese: 2, anno: 2026 };
    await t.payments.generatePositions(call.id, february, actors.operator);
    // Sent to GPD once (as the export records it), then cancelled by a new ISEE under 3.000 €.
    const [key, sent] = [...t.positions.all.entries()][0]!;
    t.positions.all.set(key, {
      ...sent,
      statoExport: 'ESPORTATA',
      exportedAt: '2026-03-01T08:00:00.000Z',
      codIuv: '01000000000000123',
    });
    const answer = await t.payments.positionsCsv(call.id, february, actors.operator);
    const [, row] = (await readCsv(t, answer.url)).trim().split('\r\n');
    expect(row).toBe(undefined); // sent and unchanged: nothing to do at pagoPA
    t.users.set('u1', user('u1', 2000));
    const cancelled = await t.payments.positionsCsv(call.id, february, actors.operator);
    const [, again] = (await readCsv(t, cancelled.url)).trim().split('\r\n');
    // 10 March + 30 days; the amount it had, as the invalidation carries it.
    expect(again!.split(';')).toEqual([
      'annullamento',
      sent.iud,
      sent.fiscalCode,
      'Cognome u1 Nome',
      'u1@example.it',
      (sent.importoDovuto / 100).toFixed(2).replace('.', ','),
      expect.any(String),
      '09/04/2026',
      '01000000000000123',
    ]);
  });
});

describe('the payment list follows the generation', () => {
  it("creating, updating and cancelling positions refreshes the citizen's row and the call-year totals", async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3); // 66,43 € in March
    t.enrol(user('u2', 8000), 2); // 5 × 2 × 31 / 7 = 44,29 €
    await t.payments.generatePositions(call.id, march, actors.operator);
    await t.payments.generatePositions(call.id, { mese: 4, anno: 2026 }, actors.operator); // April: 64,29 € and 42,86 €
    const list = await t.debtSummaries.listDebtSummaries(call.id, {
      anno: 2026,
      sort: '-importo',
      limit: 10,
      chkNoSendMail: false,
      chkDaRiconciliare: false,
    });
    expect(list.items.map((r) => [r.userId, r.importoTotale, r.paymentIds.length])).toEqual([
      ['u1', 6643 + 6429, 2],
      ['u2', 4429 + 4286, 2],
    ]);
    expect([list.count, list.sum]).toEqual([2, 6643 + 6429 + 4429 + 4286]);

    t.subscriptions[0]!.weeklyHour = 4; // March and April of u1 change: 88,57 € + 85,71 €
    await t.payments.generatePositions(call.id, march, actors.operator);
    t.users.set('u2', user('u2', 2000)); // u2 exempt from now on: March cancelled
    await t.payments.generatePositions(call.id, march, actors.operator);
    const totals = await t.debtSummaries.debtTotals(call.id, { anno: 2026 });
    expect(totals).toMatchObject({
      cittadini: 2,
      posizioni: 4,
      annullate: 1,
      dovuto: 8857 + 6429 + 4286,
      daPagare: 8857 + 6429 + 4286,
      daPagareCount: 3,
      pagato: 0,
    });
    const reconciled = await t.debtSummaries.reconcileDebtTotals(call.id, 2026);
    expect(reconciled).toEqual(await t.debts.getDebtTotals(call.id, 2026));
  });
});

describe('Verifica / genera CSV', () => {
  it('generates the month, then leaves the CSV of the rows to send in the exports bucket and answers a link named after the call', async () => {
    const t = setup();
    t.enrol(user('u2', 9000), 2);
    t.enrol(user('u1', 8000), 3);
    const csv = await t.payments.positionsCsv(call.id, march, actors.operator);
    expect(csv).toMatchObject({ fileName: 'SERVIZI_SOCIALI_2026_03.csv', rows: 2, created: 2 });
    expect(csv).not.toHaveProperty('content');
    expect(t.links).toEqual([
      {
        key: expect.stringMatching(/^csv\/call-1\/2026-03\/.+\/SERVIZI_SOCIALI_2026_03\.csv$/),
        fileName: 'SERVIZI_SOCIALI_2026_03.csv',
        contentType: 'text/csv; charset=utf-8',
      },
    ]);
    expect(csv.url).toBe(`https://exports/${t.links[0]!.key}?ttl=300`);
    const stored = t.files.get(t.links[0]!.key)!;
    expect(stored.contentType).toBe('text/csv; charset=utf-8');
    const lines = new TextDecoder().decode(stored.body).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `${positionIud(call.id, 'u1', march)};;F;CFU1XXXXXXXXXXXX;Cognome u1 Nome;Via Roma;1;00100;Roma;RM;IT;u1@example.it;2026-03-31;66.43;;SERVIZI_SOCIALI;ALL;`,
    );
    // Accepted by MyPay and unchanged since: not in the next file.
    for (const [key, p] of t.positions.all)
      if (p.userId === 'u2')
        t.positions.all.set(key, {
          ...p,
          statoExport: 'ESPORTATA',
          exportedAt: '2026-03-10T12:00:00.000Z',
          codIuv: '01000000001234519',
        });
    const next = await t.payments.positionsCsv(call.id, march, actors.operator);
    expect(next).toMatchObject({ rows: 1, created: 0, unchanged: 2, heldBackCount: 0, heldBackUrl: null });
  });

  it('keeps the whole held-back list beside the file, not in the job’s answer: a month where every citizen has a CAP MyPay refuses', async () => {
    const t = setup();
    const count = SKIPPED_SHOWN + 20;
    for (let i = 0; i < count; i++) t.enrol({ ...user(`h${i}`, 8000), cap: '00100-A' }, 2);
    const csv = await t.payments.positionsCsv(call.id, march, actors.operator);
    expect(csv).toMatchObject({ rows: 0, heldBackCount: count });
    expect(csv.heldBack).toHaveLength(SKIPPED_SHOWN);
    const link = t.links.find((l) => l.fileName === 'Trattenute_SERVIZI_SOCIALI_2026_03.csv')!;
    expect(csv.heldBackUrl).toBe(`https://exports/${link.key}?ttl=300`);
    const lines = new TextDecoder()
      .decode(t.files.get(link.key)!.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('codiceFiscale;cognome;nome;datiDaCorreggere');
    expect(lines).toHaveLength(count + 1);
    expect(lines[1]).toContain('il CAP “00100-A” non è accettato da MyPay');
  });
});

/** The export's Prepare as flows calls it: whether its flow holds the call's export lock is flows' answer (here the test's locks). */
const exportCsv = async (
  t: ReturnType<typeof setup>,
  request: { callId: string; mese: number; anno: number; fiscalCode: string | null; flowId: string },
  actor: typeof actors.operator,
) => {
  const file = await t.payments.exportCsv(
    { ...request, underLock: t.exportLocks.get(request.callId) === request.flowId },
    actor,
  );
  if (!file.finished) throw new Error('The month is bigger than one Prepare here.');
  return file;
};

describe("the export to MyPay (the flow's side of the positions)", () => {
  it('while an export of the call runs, only that flow may (re)generate the month: Sincronizza and Verifica / genera CSV get a 409', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    t.exportLocks.set(call.id, 'flow-1');
    await expect(t.payments.generatePositions(call.id, march, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: messages.positions.exportRunning,
    });
    await expect(t.payments.positionsCsv(call.id, march, actors.operator)).rejects.toMatchObject({ status: 409 });
    expect(t.positions.all.size).toBe(0);
    const file = await exportCsv(t, { callId: call.id, ...march, fiscalCode: null, flowId: 'flow-1' }, actors.operator);
    expect(file.rows).toBe(1);
  });

  it('an export plans its month once, in its Prepare', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    t.enrol(user('u2', 8000), 4);
    t.exportLocks.set(call.id, 'flow-1');
    const file = await exportCsv(t, { callId: call.id, ...march, fiscalCode: null, flowId: 'flow-1' }, actors.operator);
    expect(t.plans.count).toBe(1);
    expect(file.rows).toBe(2);
    expect([...t.positions.all.values()].map((p) => p.importoDovuto).sort()).toEqual([6643, 8857]);
  });

  it("the single payment carries one citizen's row only", async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    t.enrol(user('u2', 9000), 2);
    const file = await exportCsv(
      t,
      { callId: call.id, ...march, fiscalCode: 'CFU2XXXXXXXXXXXX', flowId: 'f' },
      actors.operator,
    );
    expect(file.rows).toBe(1);
    expect(file.csv).toContain('CFU2XXXXXXXXXXXX');
    expect(file.csv).not.toContain('CFU1XXXXXXXXXXXX');
  });

  it('writes the IUV and NAV of accepted rows and the reason of rejected ones; twice changes nothing; exported positions leave the next file', async () => {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    t.enrol(user('u2', 9000), 2);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const [p1, p2] = [...t.positions.all.values()].sort((a, b) => a.userId.localeCompare(b.userId));
    const results = {
      accepted: [{ iud: p1!.iud, iuv: '01000000001234519', nav: '301000000001234519' }],
      rejected: [{ iud: p2!.iud, code: 'PAA_CF_NON_VALIDO', reason: 'Codice fiscale non valido' }],
    };
    await t.payments.recordExportResults({ callId: call.id, ...march }, results);
    const after = structuredClone([...t.positions.all.values()]);
    expect(after.find((p) => p.iud === p1!.iud)).toMatchObject({
      codIuv: '01000000001234519',
      nav: '301000000001234519',
      statoExport: 'ESPORTATA',
    });
    expect(after.find((p) => p.iud === p2!.iud)).toMatchObject({
      codIuv: null,
      statoExport: 'ERRORE',
      lastExportError: 'PAA_CF_NON_VALIDO: Codice fiscale non valido',
    });
    // Again (a restarted Collect): nothing is written, the verdicts are already there.
    const writes: string[] = [];
    const apply = t.positions.applyTransitions;
    t.positions.applyTransitions = (transitions, onWritten) => (
      writes.push(...transitions.map((transition) => transition.after.iud)),
      apply(transitions, onWritten)
    );
    await t.payments.recordExportResults({ callId: call.id, ...march }, results);
    expect(writes).toEqual([]);
    expect([...t.positions.all.values()]).toEqual(after);
    // A verdict for an IUD that is not a position of that call's month changes nothing.
    await t.payments.recordExportResults(
      { callId: call.id, ...march },
      { accepted: [{ iud: 'P-OTHER', iuv: '01000000009999919', nav: '301000000009999919' }], rejected: [] },
    );
    expect(writes).toEqual([]);
    await t.payments.recordExportResults({ callId: call.id, mese: 4, anno: 2026 }, results);
    expect(writes).toEqual([]);
    expect([...t.positions.all.values()]).toEqual(after);
    const next = await exportCsv(t, { callId: call.id, ...march, fiscalCode: null, flowId: 'f' }, actors.operator);
    expect(next.rows).toBe(1);
    expect(next.csv).toContain(p2!.iud);
  });
});

describe("the export's month generation, in batches (a month of hundreds of citizens)", () => {
  const MANY = 240; // above the month refresh's threshold (200 written positions)
  const exportMonth = (t: ReturnType<typeof setup>, flowId = 'flow-1') =>
    exportCsv(t, { callId: call.id, ...march, fiscalCode: null, flowId }, actors.operator);
  /** Counts the creates of each kind: one by one on their condition, or in batches under the export's lock (isBatchable). */
  function countWrites(t: ReturnType<typeof setup>) {
    const counts = { createPosition: 0, createPositions: 0, batchedCreates: 0 };
    const { applyTransitions } = t.positions;
    t.positions.applyTransitions = async (transitions, onWritten) => {
      const creates = transitions.filter((transition) => transition.name === 'create');
      const batched = creates.filter((transition) => isBatchable(transition.guard));
      counts.createPosition += creates.length - batched.length;
      if (batched.length) (counts.createPositions++, (counts.batchedCreates += batched.length));
      return applyTransitions.call(t.positions, transitions, onWritten);
    };
    return counts;
  }
  /** Every row of the payment list and the totals, recomputed from the positions (what they must show). */
  async function expectListMatchesPositions(t: ReturnType<typeof setup>) {
    const { summarize, summaryPersonOf, debtTotalKeys } = await import('../../functions/domain/debt-summaries.ts');
    const byUser = new Map<string, PositionRecord[]>();
    for (const p of t.positions.all.values()) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
    const expectedTotals = Object.fromEntries(debtTotalKeys.map((k) => [k, 0])) as Record<string, number>;
    for (const [userId, positions] of byUser) {
      const expected = summarize({
        callId: call.id,
        anno: 2026,
        userId,
        positions,
        person: summaryPersonOf(t.users.get(userId)),
      })!;
      const stored = t.debts.summaries.get(`${call.id}|2026|${userId}`);
      expect(stored, userId).toMatchObject({
        importoTotale: expected.importoTotale,
        paymentIds: expected.paymentIds,
        contribution: expected.contribution,
      });
      for (const k of debtTotalKeys) expectedTotals[k]! += expected.contribution[k];
    }
    expect(await t.debtSummaries.debtTotals(call.id, { anno: 2026 })).toMatchObject(expectedTotals);
  }

  it('the flow holding the lock creates in batches; the list shows every citizen; a second export changes nothing', async () => {
    const t = setup();
    for (let i = 0; i < MANY; i++) t.enrol(user(`u${i}`, 8000), 1 + (i % 4));
    t.exportLocks.set(call.id, 'flow-1');
    const counts = countWrites(t);
    const first = await exportMonth(t);
    expect(first.rows).toBe(MANY);
    expect(counts).toEqual({ createPosition: 0, createPositions: 1, batchedCreates: MANY });
    // The ISEEs are left to the flow's MarkIsees step: named, not marked yet; then marked once.
    expect(t.marked.size).toBe(0);
    expect(new Set(first.iseeIds)).toEqual(new Set([...t.users.values()].map((u) => u.lastIsee!.id)));
    expect(await t.payments.markIseesUsedForFee(first.iseeIds ?? [])).toEqual({ marked: MANY });
    expect(await t.payments.markIseesUsedForFee(first.iseeIds ?? [])).toEqual({ marked: 0 });
    expect(t.positions.all.size).toBe(MANY);
    expect(t.batched.summaryWrites).toBe(MANY);
    await expectListMatchesPositions(t);
    expect(t.audit.entries.filter((e) => e.entity === 'position')).toHaveLength(MANY);

    const before = structuredClone([...t.positions.all.values()]);
    const summariesBefore = structuredClone([...t.debts.summaries.values()]);
    const again = await exportMonth(t);
    expect(again.rows).toBe(MANY); // not exported yet: the same rows again, and nothing written
    expect([...t.positions.all.values()]).toEqual(before);
    expect([...t.debts.summaries.values()]).toEqual(summariesBefore);
    expect(t.audit.entries.filter((e) => e.entity === 'position')).toHaveLength(MANY);
    expect(counts.batchedCreates).toBe(MANY);
  });

  it("without the lock (the API's generation) every create keeps its condition", async () => {
    const t = setup();
    for (let i = 0; i < MANY; i++) t.enrol(user(`u${i}`, 8000), 2);
    const counts = countWrites(t);
    expect(await t.payments.generatePositions(call.id, march, actors.operator)).toMatchObject({ created: MANY });
    expect(counts).toMatchObject({ createPosition: MANY, createPositions: 0 });
    await expectListMatchesPositions(t);
    // A flow that does not hold the lock (none held) does not batch either.
    t.subscriptions.push(subscription('late', 2));
    t.users.set('late', user('late', 8000));
    await exportCsv(t, { callId: call.id, ...march, fiscalCode: null, flowId: 'not-holding' }, actors.operator);
    expect(counts).toMatchObject({ createPosition: MANY + 1, createPositions: 0 });
  });

  it('a paid position is never touched, a cancelled one stays cancelled, the others follow the new hours', async () => {
    const t = setup();
    for (let i = 0; i < MANY; i++) t.enrol(user(`u${i}`, 8000), 3);
    t.exportLocks.set(call.id, 'flow-1');
    await exportMonth(t);
    const keyOf = (userId: string) => [...t.positions.all.entries()].find(([, p]) => p.userId === userId)![0];
    const paidKey = keyOf('u0');
    const cancelledKey = keyOf('u1');
    t.positions.all.set(paidKey, {
      ...t.positions.all.get(paidKey)!,
      isPagato: true,
      importoTotalePagato: 6643,
      version: 2,
    });
    t.positions.all.set(cancelledKey, {
      ...t.positions.all.get(cancelledKey)!,
      annullato: true,
      importoDovuto: 0,
      azione: 'A',
      version: 2,
    });
    const paid = structuredClone(t.positions.all.get(paidKey));
    const cancelled = structuredClone(t.positions.all.get(cancelledKey));
    for (const s of t.subscriptions) s.weeklyHour = 4;
    await exportMonth(t);
    expect(t.positions.all.get(paidKey)).toEqual(paid);
    expect(t.positions.all.get(cancelledKey)).toEqual(cancelled);
    const others = [...t.positions.all.entries()]
      .filter(([k]) => k !== paidKey && k !== cancelledKey)
      .map(([, p]) => p);
    expect(new Set(others.map((p) => [p.importoDovuto, p.version].join()))).toEqual(new Set(['8857,2']));
    await t.debtSummaries.refreshDebtSummaries(
      [paidKey, cancelledKey].map((k) => ({ callId: call.id, anno: 2026, userId: t.positions.all.get(k)!.userId })),
    );
    await expectListMatchesPositions(t);
  });

  it('a citizen paying an older month while the rows are written keeps the payment, and the list repairs that row', async () => {
    const t = setup();
    for (let i = 0; i < MANY; i++) t.enrol(user(`u${i}`, 8000), 3);
    t.exportLocks.set(call.id, 'flow-1');
    await exportCsv(t, { callId: call.id, mese: 2, anno: 2026, fiscalCode: null, flowId: 'flow-1' }, actors.operator);
    const february = [...t.positions.all.entries()].find(([, p]) => p.userId === 'u7' && p.mese === 2)!;
    // Between the month refresh's reads and its batched writes, u7 pays February and the payment's own
    // (conditional) refresh writes u7's row: the batch then overwrites that row with what it computed before.
    t.batched.beforeNextBatch = async () => {
      const [key, position] = february;
      const paid = settle(
        position,
        {
          iud: position.iud,
          iuv: '01000000000000012',
          amountCents: position.importoDovuto,
          paidOn: '2026-03-12',
          iur: 'IUR7',
        },
        '2026-03-12T10:00:00.000Z',
      ).transition!;
      expect(await t.positions.applyTransition(paid)).toBe(true);
      await t.debtSummaries.refreshDebtSummaries([{ callId: call.id, anno: 2026, userId: 'u7' }]);
      expect(t.positions.all.get(key)).toMatchObject({ isPagato: true });
    };
    await exportMonth(t);
    expect(t.batched.beforeNextBatch).toBeNull();
    expect(t.positions.all.get(february[0])).toMatchObject({
      isPagato: true,
      importoTotalePagato: february[1].importoDovuto,
    });
    expect(t.debts.summaries.get(`${call.id}|2026|u7`)).toMatchObject({
      contribution: { pagate: 1, daPagareCount: 1 },
    });
    await expectListMatchesPositions(t);
  });
});

describe('configuration', () => {
  it('is null until saved; saving is audited with before and after', async () => {
    const t = setup({ configuration: null });
    expect(await t.configuration.getConfiguration()).toEqual({ configuration: null, updatedAt: null });
    const saved = await t.configuration.updateConfiguration(mypayConfiguration, actors.operator);
    expect(saved.configuration).toEqual(mypayConfiguration);
    await t.configuration.updateConfiguration({ ...mypayConfiguration, tipoDovuto: 'ALTRO' }, actors.operator);
    expect(
      t.audit.entries.map((e) => [
        e.entity,
        e.action,
        (e.before as Configuration | null)?.tipoDovuto ?? null,
        (e.after as Configuration).tipoDovuto,
      ]),
    ).toEqual([
      ['configuration', 'create', null, 'SERVIZI_SOCIALI'],
      ['configuration', 'update', 'SERVIZI_SOCIALI', 'ALTRO'],
    ]);
  });
});

describe('the payment edit modal (PUT /api/positions/{id})', () => {
  const edit = (descrizione: string, importo: unknown) => positionEditSchema.parse({ descrizione, importo });

  it('validates description and amount with the spec’s messages; euro in, cents out', () => {
    const errors = (input: unknown) => positionEditSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(errors({ descrizione: '   ', importo: 10 })).toEqual(['Il campo descrizione è obbligatorio!']);
    expect(errors({ importo: 10 })).toEqual(['Il campo descrizione è obbligatorio!']);
    expect(errors({ descrizione: 'x'.repeat(301), importo: 10 })).toEqual([
      'Il campo Descrizione deve essere massimo 300 caratteri!',
    ]);
    for (const bad of [-1, 'dieci', '', null, 12.345, '1e3x', Number.POSITIVE_INFINITY])
      expect(errors({ descrizione: 'Quota', importo: bad }), String(bad)).toEqual([messages.positions.amount]);
    expect(edit('x'.repeat(300), 66.43)).toEqual({ descrizione: 'x'.repeat(300), importoCents: 6643 });
    expect(edit(' Quota ', '12,5')).toEqual({ descrizione: 'Quota', importoCents: 1250 });
    expect(edit('Quota', 0)).toEqual({ descrizione: 'Quota', importoCents: 0 });
  });

  async function generated() {
    const t = setup();
    t.enrol(user('u1', 8000), 3);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const position = () => [...t.positions.all.values()][0]!;
    return { t, position };
  }

  it('changes description and amount (I before MyPay knows it, M after), audited', async () => {
    const { t, position } = await generated();
    const answer = await t.payments.editPosition(position().iud, edit('Quota rivista', 50), actors.operator);
    expect(answer).toMatchObject({
      descrizione: 'Quota rivista',
      importoDovuto: 5000,
      azione: 'I',
      statoExport: 'DA_ESPORTARE',
    });
    expect(answer).not.toHaveProperty('version');
    expect(position()).toMatchObject({ importoDovuto: 5000, version: 2 });
    expect(t.audit.entries.at(-1)).toMatchObject({
      entity: 'position',
      action: 'update',
      id: position().iud,
      before: { importoDovuto: 6643 },
      after: { importoDovuto: 5000 },
    });

    await t.payments.recordExportResults(
      { callId: call.id, ...march },
      { accepted: [{ iud: position().iud, iuv: '01000000000000012', nav: '301000000000000012' }], rejected: [] },
    );
    expect(await t.payments.editPosition(position().iud, edit('Quota rivista', 40), actors.operator)).toMatchObject({
      importoDovuto: 4000,
      azione: 'M',
      statoExport: 'DA_ESPORTARE',
    });
  });

  it('0 cancels for good: A to send when MyPay knows it, NESSUNA when it never saw it; then 409', async () => {
    const { t, position } = await generated();
    expect(await t.payments.editPosition(position().iud, edit('Annullata', 0), actors.operator)).toMatchObject({
      annullato: true,
      importoDovuto: 0,
      azione: 'A',
      statoExport: 'NESSUNA',
    });
    await expect(t.payments.editPosition(position().iud, edit('Riapro', 10), actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.final,
    });

    const known = await generated();
    await known.t.payments.recordExportResults(
      { callId: call.id, ...march },
      { accepted: [{ iud: known.position().iud, iuv: '01000000000000012', nav: '301000000000000012' }], rejected: [] },
    );
    expect(
      await known.t.payments.editPosition(known.position().iud, edit('Annullata', 0), actors.operator),
    ).toMatchObject({ annullato: true, azione: 'A', statoExport: 'DA_ESPORTARE' });
  });

  it('refuses an unknown (404), a paid one (409), one being exported (409) and a lost race (409), writing nothing', async () => {
    const { t, position } = await generated();
    await expect(t.payments.editPosition('PNOPE', edit('x', 1), actors.operator)).rejects.toMatchObject({
      status: 404,
      message: positionOpsMessages.notFound,
    });
    t.exportLocks.set(call.id, 'flow-1');
    await expect(t.payments.editPosition(position().iud, edit('x', 1), actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.exportRunningEdit,
    });
    t.exportLocks.clear();
    const key = [...t.positions.all.keys()][0]!;
    const real = t.positions.applyTransition.bind(t.positions);
    t.positions.applyTransition = async (transition) => {
      t.positions.all.set(key, { ...t.positions.all.get(key)!, version: 7 });
      return real(transition);
    };
    await expect(t.payments.editPosition(position().iud, edit('x', 1), actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.staleCopy,
    });
    t.positions.all.set(key, { ...position(), isPagato: true, importoTotalePagato: 6643 });
    await expect(t.payments.editPosition(position().iud, edit('x', 1), actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.final,
    });
    expect(position()).toMatchObject({ importoDovuto: 6643, descrizione: expect.stringMatching(/^Quota Marzo 2026/) });
    expect(t.audit.entries).toHaveLength(1);
  });
});

describe('a citizen paying, two operators, and a call that is over (issue 21)', () => {
  const edit = (descrizione: string, importo: unknown, updatedAt?: string) =>
    positionEditSchema.parse({ descrizione, importo, updatedAt });
  async function owed(options: { callState?: number } = {}) {
    const t = setup(options);
    t.enrol(user('u1', 8000), 3);
    await t.payments.generatePositions(call.id, march, actors.operator);
    const key = [...t.positions.all.keys()][0]!;
    const position = () => t.positions.all.get(key)!;
    /** A citizen's checkout takes the position for 30 minutes (domain/positions hold). */
    const hold = (until = '2026-03-10T09:30:00.000Z') =>
      t.positions.all.set(key, {
        ...position(),
        checkoutSession: 's1',
        checkoutUrl: 'https://mypay/x',
        checkoutUntil: until,
      });
    return { t, position, hold };
  }

  it('the second operator saving on a stale copy gets 409 and changes nothing', async () => {
    const { t, position } = await owed();
    const read = position().updatedAt;
    await t.payments.editPosition(position().iud, edit('Prima modifica', 50, read), actors.operator);
    await expect(
      t.payments.editPosition(position().iud, edit('Seconda modifica', 40, read), actors.operator),
    ).rejects.toMatchObject({
      status: 409,
      message: 'Il record è stato modificato da un altro operatore: ricarica la pagina.',
    });
    expect(position()).toMatchObject({ descrizione: 'Prima modifica', importoDovuto: 5000 });
    // With the copy read after the first save, the second goes through.
    await t.payments.editPosition(position().iud, edit('Seconda modifica', 40, position().updatedAt), actors.operator);
    expect(position().importoDovuto).toBe(4000);
  });

  it('while a citizen’s checkout holds the position: no edit, no cancellation, no recalculation of its month or call (409)', async () => {
    const { t, position, hold } = await owed();
    hold();
    const before = structuredClone(position());
    for (const importo of [50, 0]) {
      await expect(t.payments.editPosition(position().iud, edit('x', importo), actors.operator)).rejects.toMatchObject({
        status: 409,
        message: positionOpsMessages.checkoutLive,
      });
    }
    await expect(t.payments.generatePositions(call.id, march, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.checkoutLiveMonth,
    });
    await expect(t.payments.positionsCsv(call.id, march, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.checkoutLiveMonth,
    });
    await expect(t.payments.startSync(call.id, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: positionOpsMessages.checkoutLiveCall,
    });
    // Another month of the call still generates; the held position's write condition refuses anyway.
    expect((await t.payments.generatePositions(call.id, { mese: 4, anno: 2026 }, actors.operator)).created).toBe(1);
    t.users.set('u1', { ...t.users.get('u1')!, lastIsee: { ...t.users.get('u1')!.lastIsee!, valueCents: 1_800_000 } });
    expect(
      await t.positions.applyTransition(
        editTransition(position(), 1, position().descrizione, '2026-03-10T09:10:00.000Z'),
      ),
    ).toBe(false);
    expect(position()).toEqual(before);
  });

  it('Chiudi riconciliazione: closes a payment to reconcile with the note, audited, the payment list no longer counts it; again, or a stale copy, is a 409 changing nothing', async () => {
    const { t, position } = await owed();
    const paid = [
      {
        iur: 'IUR1',
        iuv: '01000000000000012',
        importo: 6643,
        data: '2026-03-12',
        registratoIl: '2026-03-12T10:00:00.000Z',
      },
      {
        iur: 'IUR2',
        iuv: '01000000000000012',
        importo: 6643,
        data: '2026-03-13',
        registratoIl: '2026-03-13T10:00:00.000Z',
      },
    ];
    t.positions.all.set([...t.positions.all.keys()][0]!, {
      ...position(),
      isPagato: true,
      importoTotalePagato: 13286,
      pagamenti: paid,
      riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: 6643 },
      version: position().version + 1,
    });
    const row = () => t.debts.summaries.get(`${call.id}|2026|u1`)!;
    await t.debtSummaries.refreshDebtSummaries([{ callId: call.id, userId: 'u1', anno: 2026 }]);
    expect(row().contribution).toMatchObject({ daRiconciliare: 1, differenzaDaRiconciliare: 6643 });
    const stale = position().updatedAt;
    const answer = await t.payments.closeReconciliation(
      position().iud,
      { nota: 'Rimborsati 66,43 € con bonifico', updatedAt: position().updatedAt },
      actors.operator,
    );
    expect(answer).toMatchObject({
      riconciliazione: null,
      riconciliazioneChiusa: {
        motivo: 'PAGATA_PIU_VOLTE',
        differenza: 6643,
        nota: 'Rimborsati 66,43 € con bonifico',
        chiusaDa: actors.operator.fullName,
      },
      importoTotalePagato: 13286,
    });
    expect(position().pagamenti).toEqual(paid);
    expect(row().contribution).toMatchObject({
      daRiconciliare: 0,
      cittadiniDaRiconciliare: 0,
      differenzaDaRiconciliare: 0,
      pagate: 1,
    });
    expect(t.audit.entries.at(-1)).toMatchObject({
      entity: 'position',
      action: 'update',
      id: position().iud,
      before: { riconciliazione: { motivo: 'PAGATA_PIU_VOLTE' } },
      after: { riconciliazione: null },
    });
    const closed = structuredClone(position());
    await expect(
      t.payments.closeReconciliation(position().iud, { nota: 'Di nuovo' }, actors.operator),
    ).rejects.toMatchObject({ status: 409, message: positionOpsMessages.notToReconcile });
    await expect(t.payments.closeReconciliation('PNOPE', { nota: 'x' }, actors.operator)).rejects.toMatchObject({
      status: 404,
    });
    expect(position()).toEqual(closed);
    // Another operator's copy, read before the first closed it (the position to reconcile again meanwhile).
    t.positions.all.set([...t.positions.all.keys()][0]!, {
      ...closed,
      riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: 13286 },
    });
    await expect(
      t.payments.closeReconciliation(position().iud, { nota: 'Copia vecchia', updatedAt: stale }, actors.operator),
    ).rejects.toMatchObject({ status: 409, message: positionOpsMessages.staleCopy });
  });

  it('an expired hold no longer blocks: the edit goes through', async () => {
    const { t, position, hold } = await owed();
    hold('2026-03-10T08:00:00.000Z');
    expect(await t.payments.editPosition(position().iud, edit('x', 50), actors.operator)).toMatchObject({
      importoDovuto: 5000,
    });
  });

  it('an archived call is billed no more (409, nothing written); a closed one keeps billing', async () => {
    const archived = setup({ callState: 3 });
    archived.enrol(user('u1', 8000), 3);
    for (const run of [
      () => archived.payments.generatePositions(call.id, march, actors.operator),
      () => archived.payments.positionsCsv(call.id, march, actors.operator),
      () => archived.payments.startSync(call.id, actors.operator),
    ]) {
      await expect(run()).rejects.toMatchObject({ status: 409, message: positionOpsMessages.archived });
    }
    expect(archived.positions.all.size).toBe(0);
    const closed = setup({ callState: 2 });
    closed.enrol(user('u1', 8000), 3);
    expect((await closed.payments.generatePositions(call.id, march, actors.operator)).created).toBe(1);
  });
});

describe('Sincronizza: the job’s slices', () => {
  it('finds the months with open positions plus the current one, then regenerates one month per slice', async () => {
    const t = setup(); // the clock is in March 2026
    t.enrol(user('u1', 8000), 3);
    t.enrol(user('u2', 8000), 3);
    await t.payments.generatePositions(call.id, { mese: 1, anno: 2026 }, actors.operator);
    await t.payments.generatePositions(call.id, { mese: 2, anno: 2026 }, actors.operator);
    // January: both paid → nothing to recalculate there.
    for (const [key, p] of t.positions.all)
      if (p.mese === 1) t.positions.all.set(key, { ...p, isPagato: true, importoTotalePagato: p.importoDovuto });

    const first = await t.payments.syncSlice({ callId: call.id }, null, actors.operator);
    expect(first).toMatchObject({ done: 0, total: 2 });
    expect(JSON.parse(first.cursor!)).toEqual({ months: ['2026-02', '2026-03'], next: 0 });

    t.subscriptions[0]!.weeklyHour = 4; // 5 × 4 × 28 / 7 = 80,00 € in February
    const second = await t.payments.syncSlice({ callId: call.id }, first.cursor, actors.operator);
    expect(second).toMatchObject({ done: 1, total: 2 });
    const feb = [...t.positions.all.values()].find((p) => p.mese === 2 && p.userId === 'u1')!;
    expect(feb).toMatchObject({ importoDovuto: 8000, azione: 'I' });
    const last = await t.payments.syncSlice({ callId: call.id }, second.cursor, actors.operator);
    expect(last).toEqual({ cursor: null, done: 2, total: 2 });
    expect([...t.positions.all.values()].filter((p) => p.mese === 3)).toHaveLength(2);
    // Paid January untouched.
    expect(
      [...t.positions.all.values()].filter((p) => p.mese === 1).map((p) => [p.importoDovuto, p.isPagato, p.version]),
    ).toEqual([
      [6643, true, 1],
      [6643, true, 1],
    ]);
    await expect(
      t.payments.syncSlice({ callId: call.id }, '{"months":[],"next":0}', actors.operator),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('a month bigger than a slice’s budget goes on in the next slices, each position written and audited once', async () => {
    // Two positions a chunk, and no time left after the first chunk: each slice writes two of March's five.
    const t = setup({ sliceBudget: { chunk: 2, ms: 0 } });
    for (const id of ['u1', 'u2', 'u3', 'u4', 'u5']) t.enrol(user(id, 8000), 3);
    const march = () => [...t.positions.all.values()].filter((p) => p.mese === 3);

    const first = await t.payments.syncSlice({ callId: call.id }, null, actors.operator);
    const second = await t.payments.syncSlice({ callId: call.id }, first.cursor, actors.operator);
    expect(march()).toHaveLength(2);
    expect(second).toMatchObject({ done: 0, total: 1 });
    expect(JSON.parse(second.cursor!)).toEqual({ months: ['2026-03'], next: 0, resume: true });
    const third = await t.payments.syncSlice({ callId: call.id }, second.cursor, actors.operator);
    expect(march()).toHaveLength(4);
    // The same slice run again (a Lambda retried after its answer was lost) writes only what is still missing.
    const again = await t.payments.syncSlice({ callId: call.id }, second.cursor, actors.operator);
    expect(again).toEqual({ cursor: null, done: 1, total: 1 });
    const last = await t.payments.syncSlice({ callId: call.id }, third.cursor, actors.operator);
    expect(last).toEqual({ cursor: null, done: 1, total: 1 });

    expect(
      march()
        .map((p) => p.userId)
        .sort(),
    ).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    expect(march().every((p) => p.version === 1 && p.importoDovuto === 6643)).toBe(true);
    const audited = t.audit.entries.filter((e) => e.entity === 'position' && e.action === 'create');
    expect(audited.map((e) => e.id).sort()).toEqual(
      march()
        .map((p) => p.iud)
        .sort(),
    );
  });

  it('lists the call’s year, or up to the current month, at most 36 months', () => {
    expect(syncCandidateMonths(2026, { mese: 3, anno: 2026 }).map(periodKey)).toEqual(
      [...Array(12)].map((_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
    );
    const long = syncCandidateMonths(2020, { mese: 3, anno: 2026 });
    expect(long).toHaveLength(36);
    expect(periodKey(long[0]!)).toBe('2023-04');
    expect(periodKey(long.at(-1)!)).toBe('2026-03');
  });
});

/**
 * The month's long writes in slices (issue 37): 'Generazione posizioni' and the export's Prepare, on both platforms,
 * each call a budget of work (SliceBudget), the next one going on where it stopped, also after a call cut mid-write.
 */
describe('the month in slices: the generation job and the export’s Prepare', () => {
  const FIVE = ['u1', 'u2', 'u3', 'u4', 'u5'];
  const marchOf = (t: ReturnType<typeof setup>) => [...t.positions.all.values()].filter((p) => p.mese === 3);
  /** The next applyTransitions writes only its first `written` transitions, then the function is cut (its timeout). */
  function cutNextWrite(t: ReturnType<typeof setup>, written: number) {
    const apply = t.positions.applyTransitions;
    t.positions.applyTransitions = async (transitions, onWritten) => {
      if (!transitions.length) return apply.call(t.positions, transitions, onWritten);
      t.positions.applyTransitions = apply;
      await apply.call(t.positions, transitions.slice(0, written), onWritten);
      throw new Error('Task timed out after 300.00 seconds');
    };
  }

  it('‘Generazione posizioni’ writes two positions a slice and says how far it is; the last slice answers the whole month', async () => {
    const t = setup({ sliceBudget: { chunk: 2, ms: 0 } });
    for (const id of FIVE) t.enrol(user(id, 8000), 3);
    t.enrol(user('u6', 2500), 3); // exempt
    const input = { callId: call.id, ...march };
    const answers = [];
    let cursor: string | null = null;
    do {
      const answer = await t.payments.generationSlice(input, cursor, actors.operator);
      answers.push({ done: answer.done, total: answer.total, written: marchOf(t).length });
      cursor = answer.cursor;
      if (cursor === null) expect(answer.result).toMatchObject({ created: 5, updated: 0, unchanged: 0, exempt: 1 });
    } while (cursor !== null);
    expect(answers).toEqual([
      { done: 2, total: 5, written: 2 },
      { done: 4, total: 5, written: 4 },
      { done: 5, total: 5, written: 5 },
    ]);
    expect(marchOf(t).every((p) => p.version === 1 && p.importoDovuto === 6643)).toBe(true);
    const audited = t.audit.entries.filter((e) => e.entity === 'position' && e.action === 'create').map((e) => e.id);
    expect(audited.sort()).toEqual(
      marchOf(t)
        .map((p) => p.iud)
        .sort(),
    );
    // Generated again in one go: nothing to write, every position unchanged.
    const again = await t.payments.generationSlice(input, null, actors.operator);
    expect(again).toMatchObject({ cursor: null, result: { created: 0, unchanged: 5 } });
    await expect(t.payments.generationSlice(input, '{"created":-1}', actors.operator)).rejects.toMatchObject({
      status: 400,
    });
  });

  it('MyPay: the export’s Prepare goes on call after call; one cut mid-write is completed by the next, each position written once and in the file once', async () => {
    const t = setup({ exportSliceBudget: { chunk: 2, ms: 0 } });
    for (const id of FIVE) t.enrol(user(id, 8000), 3);
    t.exportLocks.set(call.id, 'flow-1');
    const request = { callId: call.id, ...march, fiscalCode: null, flowId: 'flow-1', underLock: true };
    expect(await t.payments.exportCsv(request, actors.operator)).toEqual({ finished: false, remaining: 3 });
    expect(marchOf(t)).toHaveLength(2);
    cutNextWrite(t, 1); // the second call writes one of its two, and is cut
    await expect(t.payments.exportCsv(request, actors.operator)).rejects.toThrow('Task timed out');
    expect(marchOf(t)).toHaveLength(3);
    const last = await t.payments.exportCsv(request, actors.operator);
    if (!last.finished) throw new Error('the third call finishes the month');
    expect(last.rows).toBe(5);
    const iuds = marchOf(t).map((p) => p.iud);
    expect(iuds).toHaveLength(5);
    expect(marchOf(t).every((p) => p.version === 1 && p.importoDovuto === 6643 && p.azione === 'I')).toBe(true);
    const lines = last.csv.trim().split('\r\n').slice(1);
    expect(iuds.map((iud) => lines.filter((line) => line.startsWith(`${iud};`)).length)).toEqual([1, 1, 1, 1, 1]);
    // No position was audited twice (the one written by the cut call is the one without its entry).
    const audited = t.audit.entries.filter((e) => e.entity === 'position' && e.action === 'create').map((e) => e.id);
    expect(new Set(audited).size).toBe(audited.length);
    expect(audited).toHaveLength(4);
    expect(last.iseeIds).toHaveLength(5);
  });

  it('GPD: the export’s Prepare goes on with the IUVs too; one cut while saving them is completed by the next, each IUV saved once and sent as saved', async () => {
    const t = setup({ configuration: null, platformName: 'gpd', exportSliceBudget: { chunk: 2, ms: 0 } });
    for (const id of FIVE) t.enrol(user(id, 8000), 3);
    t.exportLocks.set(call.id, 'flow-1');
    const request = { callId: call.id, ...march, fiscalCode: null, flowId: 'flow-1', underLock: true };
    const prepare = () => t.payments.exportPlatformPositions(request, actors.operator);
    // The month: 2 + 2 + 1 creates (the third call then saves two IUVs), then the IUVs two a call.
    expect(await prepare()).toEqual({ finished: false, remaining: 3 });
    expect(await prepare()).toEqual({ finished: false, remaining: 1 });
    expect(await prepare()).toEqual({ finished: false, remaining: 3 });
    expect(marchOf(t).filter((p) => p.reservedIuv)).toHaveLength(2);
    cutNextWrite(t, 1); // the fourth call reserves two IUVs, saves one, and is cut
    await expect(prepare()).rejects.toThrow('Task timed out');
    expect(marchOf(t).filter((p) => p.reservedIuv)).toHaveLength(3);
    const last = await prepare();
    if (!last.finished) throw new Error('the last call lists the month');
    expect(last.positions).toHaveLength(5);
    const saved = new Map(marchOf(t).map((p) => [p.iud, p.reservedIuv]));
    expect(last.positions.map((p) => p.iuv)).toEqual(last.positions.map((p) => saved.get(p.iud)));
    expect(new Set(last.positions.map((p) => p.iuv)).size).toBe(5);
    // Six IUVs handed out: the one reserved for the position the cut call did not save is never used.
    expect(t.reservedIuvs).toHaveLength(6);
    expect(marchOf(t).every((p) => p.version === 2)).toBe(true);
  });
});
