import { beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { exportDefinition } from '../../functions/flows/state-machine.ts';
import { EXPORT_LEASE_MS, isFlowRunning } from '../../functions/domain/flows.ts';
import type { FlowRecord } from '../../functions/domain/flow-record.ts';
import { makeExportSteps } from '../../functions/flows/export-steps.ts';
import type { ExportPositions } from '../../functions/adapters/ports/export.ts';
import type { FlowRepository, MyPayImport } from '../../functions/flows/ports.ts';
import { makeFlowUseCases } from '../../functions/flows/use-cases.ts';
import type { Clock } from '../../functions/adapters/ports/clock.ts';
import { actors, memoryAudit, memoryMetrics, sequentialIds } from '../support/in-memory.ts';
import { MYPAY_CSV_COLUMNS } from '../../functions/domain/mypay-csv-format.ts';

/**
 * The export workflow end to end at unit level: the real state-machine definition runs in
 * aws-local-stepfunctions, its tasks call the real use cases, and MyPay is an in-memory fake that keeps
 * what it received (so "sent twice" is visible) and fails on demand.
 */
let StateMachine: any;
beforeAll(async () => {
  (Promise as any).withResolvers ??= function <T>() {
    let resolve!: (v: T) => void, reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
    return { promise, resolve, reject };
  };
  ({ StateMachine } = await import('aws-local-stepfunctions'));
});

class MyPayUnavailable extends Error {
  override name = 'MyPayUnavailable';
}

class MyPayFault extends Error {
  override name = 'MyPayFault';
  constructor(
    readonly faultCode: string,
    readonly description?: string,
  ) {
    super(`${faultCode} ${description ?? ''}`);
  }
}

/**
 * MyPay as MyPay4 behaves (FlussoService.validateFile, FlussoDao.countDuplicateFileName,
 * PagamentiTelematiciDovutiPagatiImpl.paaSILChiediStatoImportFlusso): a ZIP name it already received is
 * refused at upload, and a failed import answers its error code as `stato`.
 */
function fakeMyPay() {
  const imports = new Map<
    string,
    { rows: Record<string, string>[]; polls: number; uploaded: boolean; fileName?: string }
  >();
  const faults: { op: string; times: number }[] = [];
  const received = new Set<string>();
  let tokens = 0;
  let failure: string | null = null;
  let stuck = false;
  let refuseUpload: { code: string; description: string } | null = null;
  const rejectIuds = new Set<string>();
  /** The rows MyPay holds, IUD → IUV, and each paaSILImportaDovuto asked (its IUD and azione). */
  const held = new Map<string, string>();
  const importedOneByOne: { iud: string; azione: string }[] = [];
  /** A failed import (PAA_IMPORT_ERROR) that inserted its first rows before failing, as MyPay4 may (ImportFlussoTaskService.java:873-981). */
  let insertedBeforeFailure = 0;
  let generated = 0;
  const newIuv = () => `0200000000${String(++generated).padStart(3, '0')}0000`;
  const fail = (op: string) => {
    const fault = faults.find((f) => f.op === op && f.times > 0);
    if (fault) {
      fault.times -= 1;
      throw new MyPayUnavailable(`MyPay ${op}: 503`);
    }
  };
  const csvOf = (rows: Record<string, string>[], extra: string[] = []) => {
    const header = ['IUD', 'codIuv', ...extra];
    return [header.join(';'), ...rows.map((row) => header.map((h) => row[h] ?? '').join(';'))].join('\n');
  };
  const mypay: MyPayImport & { imports: typeof imports } = {
    imports,
    async authorize() {
      fail('authorise');
      const requestToken = `tok-${++tokens}`;
      imports.set(requestToken, { rows: [], polls: 0, uploaded: false });
      return {
        uploadUrl: 'http://mypay/upload',
        authorizationToken: 'auth',
        requestToken,
        importPath: 'C_X999/IMPORT',
      };
    },
    async upload(ticket, zip, fileName) {
      fail('upload');
      const entry = imports.get(ticket.requestToken)!;
      if (entry.uploaded) throw new Error('token già usato');
      if (refuseUpload) throw new MyPayFault(refuseUpload.code, refuseUpload.description);
      if (received.has(fileName))
        throw new MyPayFault('MYBOX_NOME_FILE_DUPLICATO', `[abc] Lo stesso nome di file [${fileName}] esiste gia'.`);
      received.add(fileName);
      entry.fileName = fileName;
      const [csv] = Object.values(unzipSync(zip));
      const [header, ...lines] = strFromU8(csv).trim().split('\n');
      const names = header.split(';');
      entry.rows = lines.map((line) => Object.fromEntries(line.split(';').map((v, i) => [names[i], v])));
      entry.uploaded = true;
    },
    async importStatus(token) {
      fail('status');
      const entry = imports.get(token);
      if (!entry?.uploaded) return null;
      entry.polls += 1;
      if (failure) {
        for (const row of entry.rows.slice(0, insertedBeforeFailure))
          if (!held.has(row.IUD)) held.set(row.IUD, newIuv());
        return { stato: failure };
      }
      if (stuck) return { stato: 'IMPORT_IN_ELAB' };
      if (entry.polls < 3) return { stato: entry.polls === 1 ? 'LOAD_IMPORT' : 'IMPORT_IN_ELAB' };
      return {
        stato: 'IMPORT_ESEGUITO',
        urlFileIUV: `iuv:${token}`,
        urlFileScarti: `scarti:${token}`,
        urlFileAvvisi: `avvisi:${token}`,
      };
    },
    // paaSILImportaDovuto (DovutoService.importDovuto): an 'I' MyPay holds is PAA_IMPORT_IUD_DUPLICATO; an 'M'
    // without IUV asks for a new one in place of the old.
    async importDovuto(row) {
      fail('importaDovuto');
      importedOneByOne.push({ iud: row.IUD, azione: row.azione });
      if (row.azione === 'I' && held.has(row.IUD)) throw new MyPayFault('PAA_IMPORT_IUD_DUPLICATO');
      const iuv = newIuv();
      held.set(row.IUD, iuv);
      return { iuv, noticeUrl: null };
    },
    async download(url) {
      fail('download');
      const [kind, token] = url.split(':');
      const rows = imports.get(token)!.rows;
      const accepted = rows
        .filter((r) => !rejectIuds.has(r.IUD))
        .map((r, i) => ({ ...r, codIuv: `0100000000${String(i).padStart(3, '0')}0000` }));
      const rejected = rows
        .filter((r) => rejectIuds.has(r.IUD))
        .map((r) => ({ ...r, cod_rifiuto: 'E01', de_rifiuto: 'Codice fiscale non valido' }));
      if (kind === 'iuv') return zipSync({ 'x_IUV.csv': strToU8(csvOf(accepted)) });
      if (kind === 'scarti')
        return zipSync({ 'x_SCARTI.csv': strToU8(csvOf(rejected, ['cod_rifiuto', 'de_rifiuto'])) });
      return zipSync({ 'avviso.pdf': strToU8('%PDF-1.4') });
    },
  };
  return {
    mypay,
    failNext: (op: string, times = 1) => faults.push({ op, times }),
    clearFaults: () => void faults.splice(0),
    failImports: (code: string | null, rowsInserted = 0) => {
      failure = code;
      insertedBeforeFailure = rowsInserted;
    },
    held,
    importedOneByOne,
    refuseUploads: (refusal: { code: string; description: string } | null) => (refuseUpload = refusal),
    setStuck: (value: boolean) => (stuck = value),
    reject: (iud: string) => rejectIuds.add(iud),
    uploads: () => [...imports.values()].filter((i) => i.uploaded),
    tokens: () => [...imports.entries()].filter(([, i]) => i.uploaded).map(([token]) => token),
  };
}

/** Positions of one call/month: IUD → state, as the payments side keeps them. */
function fakePositions(iuds: string[]) {
  const positions = new Map(
    iuds.map((iud) => [
      iud,
      { iuv: null as string | null, nav: null as string | null, rejection: null as string | null, writes: 0 },
    ]),
  );
  /** Each call of recordResults (a slice of Collect): its IUDs; `crashAt` makes that call fail once. */
  const calls: string[][] = [];
  let crashAt: number | null = null;
  /** The ISEEs marked as used for a fee, and each call of markIsees (a slice of MarkIsees). */
  const marked = new Set<string>();
  const markCalls: string[][] = [];
  /** Positions a bad CAP (or the like) keeps out of the file, with their reason. */
  const heldBack = new Map<string, string>();
  /** How many times the month was planned (buildExport), and how many calls the month takes to generate. */
  let builds = 0;
  let callsToGenerate = 1;
  const due = (fiscalCode: string | null) =>
    [...positions.entries()].filter(([iud, p]) => !p.iuv && (!fiscalCode || iud.includes(fiscalCode)));
  const port: Pick<ExportPositions, 'buildExport' | 'markIsees' | 'recordResults'> = {
    async buildExport({ fiscalCode }) {
      builds += 1;
      // A month bigger than one call's budget: the calls before the last answer how much is left.
      if (builds < callsToGenerate) return { finished: false, remaining: callsToGenerate - builds };
      const rows = due(fiscalCode).filter(([iud]) => !heldBack.has(iud));
      return {
        finished: true,
        // MyPay's columns ('Rielabora' reads the rows back from the file): a new row 'I' of 10 € each.
        csv: [
          MYPAY_CSV_COLUMNS.join(';'),
          ...rows.map(([iud]) =>
            MYPAY_CSV_COLUMNS.map((c) => ({ IUD: iud, importoDovuto: '10.00', azione: 'I' })[c as string] ?? '').join(
              ';',
            ),
          ),
        ].join('\n'),
        rows: rows.length,
        heldBack: due(fiscalCode)
          .filter(([iud]) => heldBack.has(iud))
          .map(([iud]) => ({
            fiscalCode: iud.split('-')[1]!,
            cognome: 'Rossi',
            nome: 'Maria',
            reason: heldBack.get(iud)!,
          })),
        iseeIds: [...positions.keys()].map((iud) => `isee-${iud}`),
      };
    },
    async markIsees(ids) {
      markCalls.push([...ids]);
      for (const id of ids) marked.add(id);
    },
    async recordResults(_request, results) {
      calls.push([...results.accepted, ...results.rejected].map((r) => r.iud));
      if (crashAt === calls.length) {
        crashAt = null;
        throw new Error('Task timed out');
      }
      for (const { iud, iuv, nav } of results.accepted) {
        const p = positions.get(iud)!;
        if (p.iuv !== iuv) Object.assign(p, { iuv, nav, rejection: null, writes: p.writes + 1 });
      }
      for (const { iud, reason } of results.rejected) {
        const p = positions.get(iud)!;
        if (!p.iuv) p.rejection = reason;
      }
    },
  };
  return {
    port,
    positions,
    calls,
    marked,
    markCalls,
    heldBack,
    builds: () => builds,
    generateIn: (calls: number) => (callsToGenerate = calls),
    crashAtCall: (n: number) => (crashAt = n),
  };
}

/** The flows and the call's export lock, a lease as the repository keeps it (functions/flows/repository.ts). */
function memoryFlows(
  clock: Clock,
): FlowRepository & { all: Map<string, FlowRecord>; locks: Map<string, { flowId: string; expiresAt: string | null }> } {
  const all = new Map<string, FlowRecord>();
  const locks = new Map<string, { flowId: string; expiresAt: string | null }>();
  const unlisted = new Set<string>();
  const expired = (lock: { expiresAt: string | null }, now: string) => lock.expiresAt !== null && lock.expiresAt < now;
  return {
    all,
    locks,
    getFlow: async (id) => (all.has(id) ? structuredClone(all.get(id)!) : null),
    takeExportLock: async (callId, flowId, lease) => {
      const holder = locks.get(callId);
      if (holder && holder.flowId !== flowId && !expired(holder, lease.now)) return false;
      locks.set(callId, { flowId, expiresAt: lease.until });
      return true;
    },
    renewExportLock: async (callId, flowId, until) => {
      const holder = locks.get(callId);
      if (holder?.flowId !== flowId) return false;
      holder.expiresAt = until;
      return true;
    },
    keepExportLock: async (callId, flowId) => {
      const holder = locks.get(callId);
      if (holder?.flowId === flowId) holder.expiresAt = null;
    },
    createFlow: async (flow) => void all.set(flow.id, structuredClone(flow)),
    unlistFlow: async (id) => void unlisted.add(id),
    updateFlow: async (id, fields, now) => {
      const next = { ...all.get(id)!, ...structuredClone(fields), dataUpdate: now };
      all.set(id, next);
      return structuredClone(next);
    },
    advanceFlow: async (id, fields, now) => {
      if (!isFlowRunning(all.get(id)!)) throw Object.assign(new Error('not running'), { name: 'FlowStopped' });
      const next = { ...all.get(id)!, ...structuredClone(fields), dataUpdate: now };
      all.set(id, next);
      return structuredClone(next);
    },
    releaseExportLock: async (callId, flowId) => void (locks.get(callId)?.flowId === flowId && locks.delete(callId)),
    runningExportOf: async (callId) => {
      const holder = locks.get(callId);
      return holder && !expired(holder, clock.now().toISOString()) ? holder.flowId : null;
    },
    listFlows: async () => ({ items: [...all.values()].filter((flow) => !unlisted.has(flow.id)), nextCursor: null }),
  };
}

const setConfigurationComplete = (t: { restoreConfiguration: () => void }) => t.restoreConfiguration();

function setup(
  iuds = ['C1-RSSMRA85C52H501N-202611', 'C1-VRDGPP90P07F839R-202611', 'C1-BNCLRA79H61F205F-202611'],
  collectSlice?: number,
  iseeSlice?: number,
  reconcileSlice?: number,
) {
  const mypay = fakeMyPay();
  const positions = fakePositions(iuds);
  // A second a read, as tickingClock; `advance` jumps ahead (a lease that runs out).
  let time = Date.parse('2026-03-01T09:00:00.000Z');
  const clock: Clock & { advance(ms: number): void } = {
    now: () => new Date((time += 1000)),
    advance: (ms) => void (time += ms),
  };
  const flows = memoryFlows(clock);
  const files = new Map<string, Uint8Array>();
  const runs: Promise<unknown>[] = [];
  /** How each execution ended, in order (a failed one raises the state machine's alarm in the cloud). */
  const outcomes: string[] = [];
  let crashAfterUpload = false;
  let configurationComplete = true;
  let syncing = false;
  const machine = new StateMachine(
    exportDefinition('arn:aws:lambda:eu-south-1:000000000000:function:FlowTask', IMPORT_MAX_WAIT_MINUTES),
  );
  let executions = 0;
  let executionsStop = false;
  const exportFiles = {
    put: async (key: string, body: Uint8Array) => void files.set(key, body),
    get: async (key: string) => files.get(key)!,
    downloadUrl: async (key: string) => `https://exports/${key}?ttl=300`,
  };
  const metrics = memoryMetrics();
  const useCases = makeFlowUseCases({
    flows,
    configuration: {
      requireComplete: async () =>
        configurationComplete
          ? {}
          : Promise.reject(Object.assign(new Error('Configurazione MyPay incompleta'), { status: 400 })),
    },
    calls: {
      getCall: async (id) =>
        id === 'C1'
          ? { id, name: 'Assistenza domiciliare 2026', serviceId: 'S1', serviceName: 'Assistenza domiciliare' }
          : null,
    },
    positions: { hasLiveCheckouts: async () => false },
    exportFiles,
    runner: {
      start: async (flowId) => {
        // An execution that never runs a step stands for one the timeout or an abort stopped before any Catch.
        if (!executionsStop) runs.push(run(flowId));
        return `arn:execution:${flowId}-${++executions}`;
      },
    },
    positionsSync: { isRunning: async () => syncing },
    audit: memoryAudit(),
    clock,
    ids: sequentialIds('flow'),
  });
  const stepsOf = makeExportSteps({
    flows,
    positions: positions.port,
    mypay: {
      ...mypay.mypay,
      upload: async (...args) => {
        await mypay.mypay.upload(...args);
        if (crashAfterUpload) {
          crashAfterUpload = false;
          throw new Error('Task timed out');
        }
      },
    },
    exportFiles,
    clock,
    codIpa: 'C_X999',
    collectSlice,
    iseeSlice,
    reconcileSlice,
    metrics,
    importMaxWaitMinutes: IMPORT_MAX_WAIT_MINUTES,
  });
  const steps: Record<string, (p: any) => Promise<unknown>> = {
    Prepare: (p) => stepsOf.prepare(p.flowId),
    MarkIsees: (p) => stepsOf.markIsees(p.flowId),
    Send: (p) => stepsOf.send(p.flowId),
    CheckImport: (p) => stepsOf.checkImport(p.flowId),
    Collect: (p) => stepsOf.collect(p.flowId),
    MarkFailed: (p) => stepsOf.markFailed(p.flowId, p.error),
  };
  const asLambda = (name: string) => async (input: any) => {
    try {
      return { StatusCode: 200, Payload: (await steps[name](input.Payload)) ?? null };
    } catch (error) {
      // As a Lambda error reaches Step Functions: its name is the error to match, its message the cause.
      const failure = new Error(JSON.stringify({ errorMessage: (error as Error).message }));
      failure.name = (error as Error).name;
      throw failure;
    }
  };
  const run = (flowId: string) =>
    machine
      .run(
        { flowId },
        {
          overrides: {
            taskResourceLocalHandlers: Object.fromEntries(
              ['Prepare', 'MarkIsees', 'Send', 'CheckImport', 'Collect', 'MarkFailed'].map((s) => [s, asLambda(s)]),
            ),
            waitTimeOverrides: { WaitForImport: 0 },
            retryIntervalOverrides: { Prepare: 0, MarkIsees: 0, Send: 0, CheckImport: 0, Collect: 0, MarkFailed: 0 },
          },
          noThrowOnAbort: true,
        },
      )
      .result.then(
        () => void outcomes.push('SUCCEEDED'),
        () => void outcomes.push('FAILED'),
      );
  const settle = async () => {
    while (runs.length) await runs.shift();
  };
  return {
    useCases,
    outcomes,
    clock,
    steps: stepsOf,
    stopExecutions: (value: boolean) => (executionsStop = value),
    mypay,
    positions,
    flows,
    files,
    metrics,
    settle,
    crashAfterUpload: () => (crashAfterUpload = true),
    incompleteConfiguration: () => (configurationComplete = false),
    restoreConfiguration: () => void (configurationComplete = true),
    setSyncing: (value: boolean) => (syncing = value),
  };
}

const month = { mese: 11, anno: 2026 };
/** The deployment's wait for MyPay (MYPAY_IMPORT_MAX_WAIT_MINUTES), short here: the clock ticks a second a read. */
const IMPORT_MAX_WAIT_MINUTES = 1;

describe('the export of a month to MyPay', () => {
  it('sends the ZIP once, writes each IUV and NAV back and marks the flow approved', async () => {
    const t = setup();
    const started = await t.useCases.startExport('C1', month, actors.operator);
    expect(started.statoLabel).toBe('In preparazione');
    await t.settle();
    const flow = await t.useCases.getFlow(started.id);
    expect(flow).toMatchObject({
      stato: 'IMPORT_ESEGUITO',
      statoLabel: 'Flusso approvato',
      step: 'COMPLETATO',
      num: 3,
      accepted: 3,
      rejected: 0,
      available: true,
    });
    expect(t.mypay.uploads()).toHaveLength(1);
    for (const p of t.positions.positions.values()) {
      expect(p.iuv).toMatch(/^\d{17}$/);
      expect(p.nav).toBe(`3${p.iuv}`);
    }
    expect([...t.files.keys()]).toContain(`flows/${started.id}/C_X999-${started.id}-1_3.zip`);
    expect((await t.useCases.flowFileLink(started.id, 'iuv')).url).toContain('_IUV.zip');
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
  });

  it('a month bigger than one Prepare: the state machine calls Prepare again until the month is whole, then sends it once', async () => {
    const t = setup();
    t.positions.generateIn(3);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(t.positions.builds()).toBe(3);
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', num: 3, accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
    const states = exportDefinition('arn:task').States as Record<string, any>;
    expect(states.Prepare.Next).toBe('IsPrepared');
    expect(states.IsPrepared).toEqual({
      Type: 'Choice',
      Choices: [{ Variable: '$.prepared.value.done', BooleanEquals: false, Next: 'Prepare' }],
      Default: 'HasRows',
    });
  });

  it('records each rejected row with its reason and the others with their IUV', async () => {
    const t = setup();
    t.mypay.reject('C1-VRDGPP90P07F839R-202611');
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ accepted: 2, rejected: 1 });
    expect(t.positions.positions.get('C1-VRDGPP90P07F839R-202611')).toMatchObject({
      iuv: null,
      rejection: 'Codice fiscale non valido',
    });
  });

  it('counts for the dashboard and the alarms: a completed export with its accepted and rejected rows, an aborted one as failed', async () => {
    const t = setup();
    t.mypay.reject('C1-VRDGPP90P07F839R-202611');
    await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect([
      t.metrics.total('ExportsCompleted'),
      t.metrics.total('PositionsExported'),
      t.metrics.total('MyPayRowsRejected'),
      t.metrics.total('ExportsFailed'),
    ]).toEqual([1, 2, 1, 0]);

    const aborted = setup();
    aborted.mypay.failImports('IMPORT_ABORTITO');
    await aborted.useCases.startExport('C1', month, actors.operator);
    await aborted.settle();
    expect([
      aborted.metrics.total('ExportsFailed'),
      aborted.metrics.total('ExportsCompleted'),
      aborted.metrics.total('PositionsExported'),
    ]).toEqual([1, 0, 0]);
  });

  it('retries MyPay 5xx and timeouts on every operation and still sends exactly once', async () => {
    const t = setup();
    for (const op of ['authorise', 'upload', 'status', 'download']) t.mypay.failNext(op, 2);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
  });

  it('an unavailable MyPay stops the flow as "Errore flusso interno", and Rielabora finishes it without sending twice', async () => {
    const t = setup();
    t.mypay.failNext('status', 50);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const failed = await t.useCases.getFlow(id);
    expect(failed).toMatchObject({ step: 'ERRORE', statoLabel: 'Errore flusso interno' });
    expect(failed.error).toContain('MyPay non risponde');
    // MyPay may hold the file: the call stays locked, so no second export sends the same positions.
    await expect(t.useCases.startExport('C1', month, actors.operator)).rejects.toThrow('già in corso');

    t.mypay.clearFaults(); // the outage is over
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
    expect([...t.positions.positions.values()].every((p) => p.writes === 1)).toBe(true);
  });

  it('a crash between the upload and the write-back, then Rielabora: the file is not sent again and every position gets its IUV once', async () => {
    const t = setup();
    t.crashAfterUpload();
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect((await t.useCases.getFlow(id)).step).toBe('ERRORE');
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
    expect([...t.positions.positions.values()].every((p) => p.writes === 1 && p.iuv)).toBe(true);
  });

  it('writes the results back in slices (the step loops), and a crash mid-way resumes from the slice it stopped at', async () => {
    const iuds = Array.from({ length: 7 }, (_, i) => `C1-POS${i}-202611`);
    const t = setup(iuds, 3, 4);
    t.mypay.reject('C1-POS5-202611');
    t.positions.crashAtCall(2);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'ERRORE' });
    // The first slice (3 accepted rows) is written; the second failed.
    expect(t.positions.calls.map((c) => c.length)).toEqual([3, 3]);
    expect([...t.positions.positions.values()].filter((p) => p.iuv)).toHaveLength(3);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 6, rejected: 1 });
    // Resumed at the second slice: 3 + 3 failed, then 3 (again) + 1 (the rejected row).
    expect(t.positions.calls.map((c) => c.length)).toEqual([3, 3, 3, 1]);
    expect(t.positions.calls[3]).toEqual(['C1-POS5-202611']);
    expect(t.mypay.uploads()).toHaveLength(1);
    // The ISEEs of the month's fees: marked before the upload, 4 a call (7 → 4 + 3), not again on the restart.
    expect(t.positions.markCalls.map((c) => c.length)).toEqual([4, 3]);
    expect(t.positions.marked).toEqual(new Set(iuds.map((iud) => `isee-${iud}`)));
    for (const [iud, p] of t.positions.positions) {
      if (iud === 'C1-POS5-202611') expect(p).toMatchObject({ iuv: null, writes: 0, rejection: expect.any(String) });
      else expect(p).toMatchObject({ writes: 1, iuv: expect.stringMatching(/^\d{17}$/) });
    }
  });

  it('Rielabora after PAA_IMPORT_ERROR past one slice: the rows MyPay inserted and the rest are settled one by one in slices, a crash mid-way resumes, each position gets one IUV and nothing is sent twice', async () => {
    const iuds = Array.from({ length: 7 }, (_, i) => `C1-POS${i}-202611`);
    const t = setup(iuds, undefined, undefined, 3);
    // MyPay failed the import after inserting its first 4 rows, and deleted its IUV file (MyPay4 stage 'iuv').
    t.mypay.failImports('PAA_IMPORT_ERROR', 4);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'ERRORE', stato: 'PAA_IMPORT_ERROR' });
    expect([...t.positions.positions.values()].every((p) => p.iuv === null)).toBe(true);
    expect(t.mypay.held.size).toBe(4);

    t.mypay.failImports(null);
    t.positions.crashAtCall(3); // the second slice of 3 rows is cut once while it writes back
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect((await t.useCases.getFlow(id)).step).toBe('ERRORE');
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 7, rejected: 0, error: null });

    // Every position holds the IUV MyPay now holds for it, written once; no file went again.
    for (const [iud, p] of t.positions.positions)
      expect(p, iud).toMatchObject({ iuv: t.mypay.held.get(iud), writes: 1 });
    expect(t.mypay.uploads()).toHaveLength(1);
    // MyPay holds each IUD once. The write-backs: none from the failed import's files (MyPay deleted them), then
    // slices of 3 (3 + 3 + 1), the cut one asked again.
    expect([...t.mypay.held.keys()].sort()).toEqual([...iuds].sort());
    expect(new Set(t.mypay.importedOneByOne.map((r) => r.iud))).toEqual(new Set(iuds));
    expect(t.positions.calls.map((c) => c.length)).toEqual([0, 3, 3, 3, 1]);
  });

  it.each([
    ['PAA_IMPORT_NO_MATCH_MD5', 'l’impronta MD5 non corrisponde'],
    ['PAA_IMPORT_FLUSSO_DUPLICATO', 'MyPay ha già caricato un flusso con questo identificativo'],
    ['PAA_IMPORT_ENTE_ERR(C_ALTRO,C_X999)', 'Il codice IPA nel nome del file non è quello dell’ente'],
    ['IMPORT_ABORTITO', 'MyPay ha interrotto l’importazione'],
  ])(
    'MyPay failing the import with %s: "Errore flusso" with its meaning and no code; Rielabora sends the file again with a new token, IUF and name',
    async (code, meaning) => {
      const t = setup();
      t.mypay.failImports(code);
      const { id } = await t.useCases.startExport('C1', month, actors.operator);
      await t.settle();
      const failed = await t.useCases.getFlow(id);
      expect(failed).toMatchObject({ step: 'ERRORE', stato: code, statoLabel: 'Errore flusso' });
      expect(failed.error).toContain(meaning);
      expect(failed.error).not.toMatch(/PAA_|IMPORT_/);
      t.mypay.failImports(null);
      await t.useCases.restartFlow(id, actors.operator);
      await t.settle();
      expect(await t.useCases.getFlow(id)).toMatchObject({
        step: 'COMPLETATO',
        stato: 'IMPORT_ESEGUITO',
        accepted: 3,
        error: null,
      });
      // MyPay refuses a ZIP name (and an IUF) it already received: the second sending has its own.
      expect(t.mypay.uploads().map((u) => u.fileName)).toEqual([`C_X999-${id}-1_3.zip`, `C_X999-${id}_2-1_3.zip`]);
      expect(new Set(t.mypay.tokens()).size).toBe(2);
      expect([...t.positions.positions.values()].every((p) => p.writes === 1)).toBe(true);
    },
  );

  it('MyPay refusing the upload (a reused request token) reads as its refusal, not as the portal’s failure; Rielabora asks for a new token', async () => {
    const t = setup();
    t.mypay.refuseUploads({ code: 'PAA_REQUEST_TOKEN_GIA_USATO', description: '[e1] Request token già usato' });
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const failed = await t.useCases.getFlow(id);
    expect(failed).toMatchObject({ step: 'ERRORE', statoLabel: 'Errore flusso' });
    expect(failed.error).toBe(
      'MyPay ha rifiutato l’invio: l’autorizzazione ricevuta era già stata usata. «Rielabora» ne chiede una nuova e invia il file di nuovo.',
    );
    // One refusal, one failure: the flow's (the alarm 'flusso in errore' counts it) and its execution's.
    expect(t.metrics.total('ExportsFailed')).toBe(1);
    expect(t.outcomes).toEqual(['FAILED']);
    // The token was not this flow's: nothing holds the call.
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    t.mypay.refuseUploads(null);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
  });

  it('an import MyPay keeps in IMPORT_IN_ELAB (GPD) waits, not fails: past the deployment’s wait the flow is suspended, the call locked; Rielabora asks again and never sends twice', async () => {
    const t = setup();
    t.mypay.setStuck(true);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const waiting = await t.useCases.getFlow(id);
    expect(waiting).toMatchObject({
      step: 'SOSPESO',
      stato: 'IMPORT_IN_ELAB',
      statoLabel: 'In elaborazione...',
      stepLabel: 'In attesa dell’esito di MyPay',
    });
    expect(waiting.error).toContain('MyPay sta ancora elaborando il flusso');
    expect(await t.useCases.isExportRunning('C1')).toBe(true);
    // MyPay holds the file: the lock stays with the flow for as long as it takes, not for a lease.
    t.clock.advance(3 * EXPORT_LEASE_MS);
    expect(await t.useCases.isExportRunning('C1')).toBe(true);
    // Suspended is not failed: the execution succeeds (no failed-execution alarm) and no failure is counted.
    expect(t.outcomes).toEqual(['SUCCEEDED']);
    expect(t.metrics.total('ExportsFailed')).toBe(0);
    t.mypay.setStuck(false);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
  });

  it('an execution that timed out or was aborted (no Catch runs) fails the flow so Rielabora works; an older execution’s end changes nothing', async () => {
    const t = setup();
    t.stopExecutions(true);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    const stopped = (await t.flows.getFlow(id))!;
    expect(stopped).toMatchObject({ step: 'PREPARAZIONE', execution: expect.stringContaining(id) });
    // What the timeout leaves without the rule: a flow "running" for ever, the call locked, no Rielabora.
    await expect(t.useCases.restartFlow(id, actors.operator)).rejects.toMatchObject({ status: 409 });
    await t.steps.executionEnded({ flowId: id, execution: 'arn:execution:an-older-one', status: 'TIMED_OUT' });
    expect((await t.useCases.getFlow(id)).step).toBe('PREPARAZIONE');
    await t.steps.executionEnded({ flowId: id, execution: stopped.execution!, status: 'TIMED_OUT' });
    const failed = await t.useCases.getFlow(id);
    expect(failed).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ERROR_SL', statoLabel: 'Errore flusso interno' });
    expect(failed.error).toContain('«Rielabora» lo riprende');
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    // A step the stopped execution had already invoked finishes late: it cannot move the failed flow back.
    await expect(t.steps.prepare(id)).rejects.toMatchObject({ name: 'FlowStopped' });
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ERROR_SL' });
    t.stopExecutions(false);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    // The end of an execution that finished its work changes nothing.
    await t.steps.executionEnded({ flowId: id, execution: (await t.flows.getFlow(id))!.execution!, status: 'ABORTED' });
    expect((await t.useCases.getFlow(id)).step).toBe('COMPLETATO');
  });

  it('a month with nothing new to send: the flow the route started ends saying so, sends nothing and frees the call', async () => {
    const t = setup();
    await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const again = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(again.id)).toMatchObject({
      step: 'COMPLETATO',
      num: 0,
      error: 'Nessuna posizione da inviare per questo mese.',
    });
    expect((await t.useCases.listFlows({})).items.map((flow) => flow.id)).not.toContain(again.id);
    expect(t.mypay.uploads()).toHaveLength(1);
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
  });

  it('‘Invia a MyPay’ only starts the workflow: the month is planned by its Prepare, not by the route', async () => {
    const t = setup();
    t.stopExecutions(true); // the workflow has not run a step yet
    const started = await t.useCases.startExport('C1', month, actors.operator);
    expect(started).toMatchObject({ step: 'PREPARAZIONE', num: 0 });
    expect(t.positions.builds()).toBe(0);
    expect(await t.useCases.isExportRunning('C1')).toBe(true);
  });

  it('the export lock is a lease: a run that died holding it frees the call when it expires; each step renews it', async () => {
    const t = setup();
    // 'Invia a MyPay' took the lock and its function was cut short before the flow existed.
    expect(
      await t.flows.takeExportLock('C1', 'ghost', {
        now: t.clock.now().toISOString(),
        until: new Date(t.clock.now().getTime() + EXPORT_LEASE_MS).toISOString(),
      }),
    ).toBe(true);
    await expect(t.useCases.startExport('C1', month, actors.operator)).rejects.toMatchObject({
      status: 409,
      message: 'È già in corso un invio a MyPay per questo bando: attendi che finisca.',
    });
    t.clock.advance(EXPORT_LEASE_MS);
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    // A stopped workflow leaves a lease too: a step that runs again later renews it for another EXPORT_LEASE_MS.
    t.stopExecutions(true);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    t.clock.advance(EXPORT_LEASE_MS - 60_000);
    await t.steps.prepare(id);
    t.clock.advance(EXPORT_LEASE_MS - 60_000);
    expect(await t.useCases.isExportRunning('C1')).toBe(true);
    expect(t.flows.locks.get('C1')!.flowId).toBe(id);
  });

  it('positions held back for their data are not sent and the flow lists them with the reason', async () => {
    const t = setup();
    t.positions.heldBack.set(
      'C1-VRDGPP90P07F839R-202611',
      'il CAP “00184-1” non è accettato da MyPay (solo lettere e cifre, al massimo 16)',
    );
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({
      step: 'COMPLETATO',
      num: 2,
      accepted: 2,
      heldBack: [
        {
          fiscalCode: 'VRDGPP90P07F839R',
          cognome: 'Rossi',
          nome: 'Maria',
          reason: 'il CAP “00184-1” non è accettato da MyPay (solo lettere e cifre, al massimo 16)',
        },
      ],
    });
    expect(t.positions.positions.get('C1-VRDGPP90P07F839R-202611')!.iuv).toBeNull();
  });

  it('the single payment sends one citizen only', async () => {
    const t = setup();
    const { id } = await t.useCases.startExport('C1', { ...month, fiscalCode: 'VRDGPP90P07F839R' }, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ num: 1, accepted: 1 });
  });

  it('waits for Sincronizza: no export or restart starts while it recalculates the call, and the lock stays as it was', async () => {
    const t = setup();
    const syncRunning = {
      status: 409,
      message: 'È già in corso un ricalcolo delle posizioni debitorie per questo bando.',
    };
    t.setSyncing(true);
    await expect(t.useCases.startExport('C1', month, actors.operator)).rejects.toMatchObject(syncRunning);
    expect(t.flows.all.size).toBe(0);
    expect(await t.useCases.isExportRunning('C1')).toBe(false);

    // A flow stopped before MyPay had its file (no token) leaves the call free; its restart waits too.
    t.setSyncing(false);
    t.mypay.failNext('authorise', 50);
    const early = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    t.setSyncing(true);
    await expect(t.useCases.restartFlow(early.id, actors.operator)).rejects.toMatchObject(syncRunning);
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    expect(t.mypay.uploads()).toHaveLength(0);

    t.setSyncing(false);
    t.mypay.clearFaults();
    await t.useCases.restartFlow(early.id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(early.id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
  });

  it('refuses an unknown call, a restart of a flow that did not stop, and links to files not there', async () => {
    const t = setup();
    await expect(t.useCases.startExport('NOPE', month, actors.operator)).rejects.toMatchObject({ status: 404 });
    t.incompleteConfiguration();
    await expect(t.useCases.startExport('C1', month, actors.operator)).rejects.toMatchObject({ status: 400 });
    expect(t.flows.all.size).toBe(0);
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
    setConfigurationComplete(t);
    t.mypay.failNext('status', 50);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await expect(t.useCases.flowFileLink(id, 'avvisi')).rejects.toMatchObject({
      status: 404,
      message: 'Nessun link presente',
    });
    await t.settle();
    t.mypay.clearFaults();
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    await expect(t.useCases.restartFlow(id, actors.operator)).rejects.toMatchObject({ status: 409 });
  });
});
