import { beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { exportDefinition } from '../../functions/flows/state-machine.ts';
import { makeExportSteps, makeFlowUseCases, type ExportPositions, type FlowRecord, type FlowRepository, type MyPayImport } from '../../functions/flows/use-cases.ts';
import { actors, memoryAudit, memoryMetrics, sequentialIds, tickingClock } from '../support/in-memory.ts';

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

function fakeMyPay() {
  const imports = new Map<string, { rows: Record<string, string>[]; polls: number; uploaded: boolean }>();
  const faults: { op: string; times: number }[] = [];
  let tokens = 0;
  let abort = false;
  let stuck = false;
  const rejectIuds = new Set<string>();
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
      return { uploadUrl: 'http://mypay/upload', authorizationToken: 'auth', requestToken, importPath: 'C_X999/IMPORT' };
    },
    async upload(ticket, zip) {
      fail('upload');
      const entry = imports.get(ticket.requestToken)!;
      if (entry.uploaded) throw new Error('token già usato');
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
      if (abort) return { stato: 'IMPORT_ABORTITO' };
      if (stuck) return { stato: 'IMPORT_IN_ELAB' };
      if (entry.polls < 3) return { stato: entry.polls === 1 ? 'LOAD_IMPORT' : 'IMPORT_IN_ELAB' };
      return { stato: 'IMPORT_ESEGUITO', urlFileIUV: `iuv:${token}`, urlFileScarti: `scarti:${token}`, urlFileAvvisi: `avvisi:${token}` };
    },
    async download(url) {
      fail('download');
      const [kind, token] = url.split(':');
      const rows = imports.get(token)!.rows;
      const accepted = rows.filter((r) => !rejectIuds.has(r.IUD)).map((r, i) => ({ ...r, codIuv: `0100000000${String(i).padStart(3, '0')}0000` }));
      const rejected = rows.filter((r) => rejectIuds.has(r.IUD)).map((r) => ({ ...r, cod_rifiuto: 'E01', de_rifiuto: 'Codice fiscale non valido' }));
      if (kind === 'iuv') return zipSync({ 'x_IUV.csv': strToU8(csvOf(accepted)) });
      if (kind === 'scarti') return zipSync({ 'x_SCARTI.csv': strToU8(csvOf(rejected, ['cod_rifiuto', 'de_rifiuto'])) });
      return zipSync({ 'avviso.pdf': strToU8('%PDF-1.4') });
    },
  };
  return {
    mypay,
    failNext: (op: string, times = 1) => faults.push({ op, times }),
    clearFaults: () => void faults.splice(0),
    setAbort: (value: boolean) => (abort = value),
    setStuck: (value: boolean) => (stuck = value),
    reject: (iud: string) => rejectIuds.add(iud),
    uploads: () => [...imports.values()].filter((i) => i.uploaded),
  };
}

/** Positions of one call/month: IUD → state, as the payments side keeps them. */
function fakePositions(iuds: string[]) {
  const positions = new Map(iuds.map((iud) => [iud, { iuv: null as string | null, nav: null as string | null, rejection: null as string | null, writes: 0 }]));
  /** Each call of recordResults (a slice of Collect): its IUDs; `crashAt` makes that call fail once. */
  const calls: string[][] = [];
  let crashAt: number | null = null;
  /** The ISEEs marked as used for a fee, and each call of markIsees (a slice of MarkIsees). */
  const marked = new Set<string>();
  const markCalls: string[][] = [];
  const port: ExportPositions = {
    async buildExport({ fiscalCode }) {
      const rows = [...positions.entries()].filter(([iud, p]) => !p.iuv && (!fiscalCode || iud.includes(fiscalCode)));
      return { csv: ['IUD;importoDovuto', ...rows.map(([iud]) => `${iud};10.00`)].join('\n'), rows: rows.length, iseeIds: [...positions.keys()].map((iud) => `isee-${iud}`) };
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
  return { port, positions, calls, marked, markCalls, crashAtCall: (n: number) => (crashAt = n) };
}

function memoryFlows(): FlowRepository & { all: Map<string, FlowRecord> } {
  const all = new Map<string, FlowRecord>();
  const locks = new Map<string, string>();
  return {
    all,
    getFlow: async (id) => (all.has(id) ? structuredClone(all.get(id)!) : null),
    takeExportLock: async (callId, flowId) => {
      const holder = locks.get(callId);
      if (holder && holder !== flowId) return false;
      locks.set(callId, flowId);
      return true;
    },
    createFlow: async (flow) => void all.set(flow.id, structuredClone(flow)),
    updateFlow: async (id, fields, now) => {
      const next = { ...all.get(id)!, ...structuredClone(fields), dataUpdate: now };
      all.set(id, next);
      return structuredClone(next);
    },
    releaseExportLock: async (callId, flowId) => void (locks.get(callId) === flowId && locks.delete(callId)),
    runningExportOf: async (callId) => locks.get(callId) ?? null,
    listFlows: async () => ({ items: [...all.values()], nextCursor: null }),
  };
}

const setConfigurationComplete = (t: { restoreConfiguration: () => void }) => t.restoreConfiguration();

function setup(iuds = ['C1-RSSMRA85C52H501N-202611', 'C1-VRDGPP90P07F839R-202611', 'C1-BNCLRA79H61F205F-202611'], collectSlice?: number, iseeSlice?: number) {
  const mypay = fakeMyPay();
  const positions = fakePositions(iuds);
  const flows = memoryFlows();
  const files = new Map<string, Uint8Array>();
  const runs: Promise<unknown>[] = [];
  let crashAfterUpload = false;
  let configurationComplete = true;
  let syncing = false;
  const machine = new StateMachine(exportDefinition('arn:aws:lambda:eu-south-1:000000000000:function:FlowTask'));
  const exportFiles = {
    put: async (key: string, body: Uint8Array) => void files.set(key, body),
    get: async (key: string) => files.get(key)!,
    downloadUrl: async (key: string) => `https://exports/${key}?ttl=300`,
  };
  const clock = tickingClock();
  const metrics = memoryMetrics();
  const useCases = makeFlowUseCases({
    flows,
    configuration: { requireComplete: async () => (configurationComplete ? {} : Promise.reject(Object.assign(new Error('Configurazione MyPay incompleta'), { status: 400 }))) },
    calls: { getCall: async (id) => (id === 'C1' ? { id, name: 'Assistenza domiciliare 2026', serviceId: 'S1', serviceName: 'Assistenza domiciliare' } : null) },
    exportFiles,
    runner: { start: async (flowId) => void runs.push(run(flowId)) },
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
    metrics,
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
    machine.run({ flowId }, {
      overrides: {
        taskResourceLocalHandlers: Object.fromEntries(['Prepare', 'MarkIsees', 'Send', 'CheckImport', 'Collect', 'MarkFailed'].map((s) => [s, asLambda(s)])),
        waitTimeOverrides: { WaitForImport: 0 },
        retryIntervalOverrides: { Prepare: 0, MarkIsees: 0, Send: 0, CheckImport: 0, Collect: 0, MarkFailed: 0 },
      },
      noThrowOnAbort: true,
    }).result.catch(() => undefined);
  const settle = async () => {
    while (runs.length) await runs.shift();
  };
  return { useCases, mypay, positions, flows, files, metrics, settle, crashAfterUpload: () => (crashAfterUpload = true), incompleteConfiguration: () => (configurationComplete = false), restoreConfiguration: () => void (configurationComplete = true), setSyncing: (value: boolean) => (syncing = value) };
}

const month = { mese: 11, anno: 2026 };

describe('the export of a month to MyPay', () => {
  it('sends the ZIP once, writes each IUV and NAV back and marks the flow approved', async () => {
    const t = setup();
    const started = await t.useCases.startExport('C1', month, actors.operator);
    expect(started.statoLabel).toBe('In preparazione');
    await t.settle();
    const flow = await t.useCases.getFlow(started.id);
    expect(flow).toMatchObject({ stato: 'IMPORT_ESEGUITO', statoLabel: 'Flusso approvato', step: 'COMPLETATO', num: 3, accepted: 3, rejected: 0, available: true });
    expect(t.mypay.uploads()).toHaveLength(1);
    for (const p of t.positions.positions.values()) {
      expect(p.iuv).toMatch(/^\d{17}$/);
      expect(p.nav).toBe(`3${p.iuv}`);
    }
    expect([...t.files.keys()]).toContain(`flows/${started.id}/C_X999-${started.id}-1_3.zip`);
    expect((await t.useCases.flowFileLink(started.id, 'iuv')).url).toContain('_IUV.zip');
    expect(await t.useCases.isExportRunning('C1')).toBe(false);
  });

  it('records each rejected row with its reason and the others with their IUV', async () => {
    const t = setup();
    t.mypay.reject('C1-VRDGPP90P07F839R-202611');
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ accepted: 2, rejected: 1 });
    expect(t.positions.positions.get('C1-VRDGPP90P07F839R-202611')).toMatchObject({ iuv: null, rejection: 'Codice fiscale non valido' });
  });

  it('counts for the dashboard and the alarms: a completed export with its accepted and rejected rows, an aborted one as failed', async () => {
    const t = setup();
    t.mypay.reject('C1-VRDGPP90P07F839R-202611');
    await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect([t.metrics.total('ExportsCompleted'), t.metrics.total('PositionsExported'), t.metrics.total('MyPayRowsRejected'), t.metrics.total('ExportsFailed')]).toEqual([1, 2, 1, 0]);

    const aborted = setup();
    aborted.mypay.setAbort(true);
    await aborted.useCases.startExport('C1', month, actors.operator);
    await aborted.settle();
    expect([aborted.metrics.total('ExportsFailed'), aborted.metrics.total('ExportsCompleted'), aborted.metrics.total('PositionsExported')]).toEqual([1, 0, 0]);
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

  it('an aborted import is visible, and Rielabora sends the file again with a new token', async () => {
    const t = setup();
    t.mypay.setAbort(true);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ABORTITO', statoLabel: 'Errore flusso' });
    t.mypay.setAbort(false);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(2);
    expect([...t.positions.positions.values()].every((p) => p.writes === 1)).toBe(true);
  });

  it('an import stuck at MyPay ends after the last poll as a visible error, with the call still locked', async () => {
    const t = setup();
    t.mypay.setStuck(true);
    const { id } = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const flow = await t.useCases.getFlow(id);
    expect(flow).toMatchObject({ step: 'ERRORE', stato: 'IMPORT_ERROR_SL' });
    expect(flow.error).toContain('IMPORT_IN_ELAB');
    expect(await t.useCases.isExportRunning('C1')).toBe(true);
    t.mypay.setStuck(false);
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ step: 'COMPLETATO', accepted: 3 });
    expect(t.mypay.uploads()).toHaveLength(1);
  });

  it('a second export of the same month sends nothing already exported', async () => {
    const t = setup();
    await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    const second = await t.useCases.startExport('C1', month, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(second.id)).toMatchObject({ num: 0, step: 'COMPLETATO', error: 'Nessuna posizione debitoria da inviare per il mese scelto.' });
    expect(t.mypay.uploads()).toHaveLength(1);
  });

  it('the single payment sends one citizen only', async () => {
    const t = setup();
    const { id } = await t.useCases.startExport('C1', { ...month, fiscalCode: 'VRDGPP90P07F839R' }, actors.operator);
    await t.settle();
    expect(await t.useCases.getFlow(id)).toMatchObject({ num: 1, accepted: 1 });
  });

  it('waits for Sincronizza: no export or restart starts while it recalculates the call, and the lock stays as it was', async () => {
    const t = setup();
    const syncRunning = { status: 409, message: 'È già in corso un ricalcolo delle posizioni debitorie per questo bando.' };
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
    await expect(t.useCases.flowFileLink(id, 'avvisi')).rejects.toMatchObject({ status: 404, message: 'Nessun link presente' });
    await t.settle();
    t.mypay.clearFaults();
    await t.useCases.restartFlow(id, actors.operator);
    await t.settle();
    await expect(t.useCases.restartFlow(id, actors.operator)).rejects.toMatchObject({ status: 409 });
  });
});
