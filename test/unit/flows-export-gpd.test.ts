import { describe, expect, it } from 'vitest';
import { makeExportSteps } from '../../functions/flows/export-steps.ts';
import type { FlowRecord } from '../../functions/domain/flow-record.ts';
import type { FlowRepository } from '../../functions/flows/ports.ts';
import type { ExportPositions, ExportResults } from '../../functions/adapters/ports/export.ts';
import {
  PLATFORM_CAPABILITIES,
  type PlatformExport,
  type PlatformPosition,
} from '../../functions/domain/payment-platform.ts';
import { gpdCallIupd, gpdDueDay, gpdIupd, gpdIuv, iupdOfPosition } from '../../functions/domain/gpd.ts';
import { iuvOf, needsIuv, platformAction, platformPositionOf } from '../../functions/domain/platform-export.ts';
import { reserveIuv } from '../../functions/domain/positions/transitions.ts';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import { exportDefinition } from '../../functions/flows/state-machine.ts';
import { actors, memoryMetrics } from '../support/in-memory.ts';

/**
 * The export's steps on a platform that takes the positions themselves (pagoPA GPD, issue 37): Prepare lists the
 * month's positions with their IUVs (saved first, by the positions' side), Send hands them to the platform's export
 * port a slice at a time and writes its answers back; a slice retried after a crash is sent again as it was.
 */

const flowOf = (id: string): FlowRecord => ({
  id,
  stato: 'IN_PREPARAZIONE',
  step: 'PREPARAZIONE',
  dataInsert: '2026-11-01T09:00:00.000Z',
  dataUpdate: '2026-11-01T09:00:00.000Z',
  announcement: { id: 'C1', name: 'Bando', service: { id: 'S1', name: 'Servizio' } },
  mese: 11,
  anno: 2026,
  fiscalCode: null,
  num: 0,
  accepted: null,
  rejected: null,
  isEmailSent: false,
  error: null,
  zipKey: null,
  zipName: null,
  md5: null,
  requestToken: null,
  uploadedAt: null,
  files: { avvisi: null, iuv: null, scarti: null },
  collectedAt: null,
  startedBy: actors.operator,
  attempt: 1,
});

function setup(count: number, sendSlice: number) {
  const flows = new Map<string, FlowRecord>([['F1', flowOf('F1')]]);
  let lock: string | null = 'F1';
  const repo = {
    getFlow: async (id: string) => structuredClone(flows.get(id) ?? null),
    renewExportLock: async (_c: string, flowId: string) => lock === flowId,
    runningExportOf: async () => lock,
    releaseExportLock: async () => void (lock = null),
    keepExportLock: async () => undefined,
    advanceFlow: async (id: string, fields: Partial<FlowRecord>) => {
      flows.set(id, { ...flows.get(id)!, ...structuredClone(fields) });
      return structuredClone(flows.get(id)!);
    },
    updateFlow: async (id: string, fields: Partial<FlowRecord>) => {
      flows.set(id, { ...flows.get(id)!, ...structuredClone(fields) });
      return structuredClone(flows.get(id)!);
    },
    unlistFlow: async () => undefined,
  } as unknown as FlowRepository;

  const month: PlatformPosition[] = Array.from({ length: count }, (_, i) => ({
    iud: `P202611${String(i).padStart(4, '0')}`,
    action: 'create',
    iuv: gpdIuv('47', i + 1),
    fiscalCode: 'RSSMRA80A01H501U',
    fullName: 'Rossi Mario',
    email: null,
    amountCents: 1000 + i,
    description: 'Quota novembre 2026',
    dueDay: '2026-11-30',
  }));
  /** What the platform received, call by call, and which IUD it refuses. */
  const submitted: PlatformPosition[][] = [];
  const refuse = new Set<string>([month[1]!.iud]);
  const platformExport: PlatformExport = {
    async submit({ positions }) {
      submitted.push([...positions]);
      return {
        ticket: 't',
        results: {
          accepted: positions
            .filter((p) => !refuse.has(p.iud))
            .map((p) => ({ iud: p.iud, iuv: p.iuv!, nav: `3${p.iuv}` })),
          rejected: positions
            .filter((p) => refuse.has(p.iud))
            .map((p) => ({ iud: p.iud, code: 'GPD_409', reason: 'già pagata' })),
        },
      };
    },
    progress: async () => Promise.reject(new Error('GPD answers at once')),
  };
  const recorded: ExportResults[] = [];
  let crashOnRecord = 0;
  const positions: Pick<ExportPositions, 'buildExport' | 'buildPlatformExport' | 'markIsees' | 'recordResults'> = {
    buildExport: async () => Promise.reject(new Error('no CSV on GPD')),
    buildPlatformExport: async () => ({ finished: true, positions: month, iseeIds: [] }),
    markIsees: async () => undefined,
    async recordResults(_request, results) {
      recorded.push(results);
      if (crashOnRecord > 0) {
        crashOnRecord -= 1;
        throw new Error('Task timed out');
      }
    },
  };
  const files = new Map<string, Uint8Array>();
  const metrics = memoryMetrics();
  const steps = makeExportSteps({
    flows: repo,
    positions,
    mypay: {} as never,
    platform: { name: 'gpd', capabilities: PLATFORM_CAPABILITIES.gpd, export: platformExport },
    exportFiles: {
      put: async (key, body) => void files.set(key, body),
      get: async (key) => files.get(key)!,
      downloadUrl: async (key) => key,
    },
    clock: { now: () => new Date('2026-11-02T10:00:00.000Z') },
    codIpa: '',
    sendSlice,
    metrics,
  });
  return {
    steps,
    flow: () => flows.get('F1')!,
    month,
    submitted,
    recorded,
    metrics,
    isLocked: () => lock !== null,
    crashOnNextRecord: () => (crashOnRecord = 1),
  };
}

describe('the export on pagoPA GPD', () => {
  it('sends the listed positions in slices, writes each slice back, then completes the flow with its counts and frees the call', async () => {
    const t = setup(5, 2);
    expect(await t.steps.prepare('F1')).toEqual({ rows: 5, done: true });
    expect(t.flow()).toMatchObject({ num: 5, step: 'INVIO', sendCursor: 0, zipKey: null });
    // Prepare again (a retried step) lists nothing new and keeps the list it wrote.
    expect(await t.steps.prepare('F1')).toEqual({ rows: 5, done: true });

    expect(await t.steps.send('F1')).toEqual({ done: false, completed: false });
    expect(await t.steps.send('F1')).toEqual({ done: false, completed: false });
    expect(t.isLocked()).toBe(true);
    expect(await t.steps.send('F1')).toEqual({ done: true, completed: true });

    expect(t.submitted.map((slice) => slice.map((p) => p.iud))).toEqual([
      [t.month[0]!.iud, t.month[1]!.iud],
      [t.month[2]!.iud, t.month[3]!.iud],
      [t.month[4]!.iud],
    ]);
    // Each position went with the IUV it was listed with: the one saved on it before anything was sent.
    expect(t.submitted.flat().map((p) => p.iuv)).toEqual(t.month.map((p) => p.iuv));
    expect(t.recorded.flatMap((r) => r.rejected.map((x) => x.iud))).toEqual([t.month[1]!.iud]);
    expect(t.flow()).toMatchObject({
      step: 'COMPLETATO',
      stato: 'IMPORT_ESEGUITO',
      accepted: 4,
      rejected: 1,
      sendCursor: 5,
      error: null,
    });
    expect(t.isLocked()).toBe(false);
    expect(t.metrics.total('PositionsExported')).toBe(4);
    // A completed flow's Send changes nothing more.
    expect(await t.steps.send('F1')).toEqual({ done: true, completed: true });
    expect(t.submitted).toHaveLength(3);
  });

  it('a crash after the platform answered and before the slice was written back: the same slice goes again, and no count doubles', async () => {
    const t = setup(3, 2);
    await t.steps.prepare('F1');
    t.crashOnNextRecord();
    await expect(t.steps.send('F1')).rejects.toThrow('Task timed out');
    expect(t.flow().sendCursor).toBe(0);
    expect(await t.steps.send('F1')).toEqual({ done: false, completed: false });
    expect(await t.steps.send('F1')).toEqual({ done: true, completed: true });
    const sentFirst = t.submitted.slice(0, 2).map((slice) => slice.map((p) => [p.iud, p.iuv]));
    expect(sentFirst[1]).toEqual(sentFirst[0]);
    expect(t.flow()).toMatchObject({ step: 'COMPLETATO', accepted: 2, rejected: 1 });
  });

  it('the state machine ends after Send when the platform has answered, and calls Send again while slices remain', () => {
    const states = exportDefinition('arn:task').States as Record<string, any>;
    expect(states.Send.Next).toBe('IsSent');
    expect(states.IsSent.Choices).toEqual([
      { Variable: '$.sent.value.done', BooleanEquals: false, Next: 'Send' },
      { Variable: '$.sent.value.completed', BooleanEquals: true, Next: 'Collected' },
    ]);
    expect(states.IsSent.Default).toBe('InitPolls');
    expect(states.Send.Retry[0].ErrorEquals).toContain('GpdUnavailable');
  });
});

describe('what a pending position is at the platform', () => {
  const base = {
    iud: 'P2026110001',
    callId: 'bando-1',
    fiscalCode: 'RSSMRA80A01H501U',
    cognome: 'Rossi',
    nome: 'Mario',
    descrizione: 'Quota',
    dataScadenza: '2026-11-30',
    importoDovuto: 4350,
    annullato: false,
    exportedAt: null,
    codIuv: null,
    reservedIuv: null,
    importoAnnullato: null,
    version: 3,
  } as unknown as PositionRecord;

  it('never accepted: created, and it needs an IUV until one is reserved', () => {
    expect(platformAction(base)).toBe('create');
    expect(needsIuv(base)).toBe(true);
    const reserved = reserveIuv(base, gpdIuv('47', 12), '2026-11-02T10:00:00.000Z');
    // The iupd GPD will know it by goes with the IUV: call-first, so that the call's positions sit together at GPD.
    expect(reserved.after).toMatchObject({
      reservedIuv: gpdIuv('47', 12),
      iupd: gpdCallIupd('bando-1', 'P2026110001'),
      version: 4,
    });
    expect(reserved.guard).toEqual([{ kind: 'export-lock' }]);
    expect(reserveIuv(base, gpdIuv('47', 12), 'x', false).guard).toEqual([{ kind: 'version', version: 3 }]);
    expect(needsIuv(reserved.after)).toBe(false);
    expect(platformPositionOf(reserved.after, 'mario@example.it')).toMatchObject({
      action: 'create',
      iupd: gpdCallIupd('bando-1', 'P2026110001'),
      iuv: gpdIuv('47', 12),
      fullName: 'Rossi Mario',
      email: 'mario@example.it',
      amountCents: 4350,
      dueDay: '2026-11-30',
    });
  });

  it('accepted before: updated with its IUV; cancelled: invalidated with the amount it had', () => {
    const accepted = { ...base, exportedAt: '2026-11-01', codIuv: gpdIuv('47', 5), reservedIuv: gpdIuv('47', 5) };
    expect(platformAction(accepted)).toBe('update');
    expect(iuvOf(accepted)).toBe(gpdIuv('47', 5));
    // Reserved before iupds were stored: GPD knows it by the iupd derived from its IUD, and keeps it.
    expect(iupdOfPosition(platformPositionOf(accepted, null))).toBe(gpdIupd('P2026110001'));
    const cancelled = { ...accepted, annullato: true, importoDovuto: 0, importoAnnullato: 4350 };
    expect(platformPositionOf(cancelled, null)).toMatchObject({ action: 'cancel', amountCents: 4350 });
    expect(needsIuv(cancelled)).toBe(false);
  });

  it("GPD's due day: the month's while it is ahead, else 30 days from today (GPD refuses one in the past)", () => {
    expect(gpdDueDay('2026-11-30', '2026-11-29')).toBe('2026-11-30');
    expect(gpdDueDay('2026-11-30', '2026-11-30')).toBe('2026-11-30');
    expect(gpdDueDay('2026-10-31', '2026-11-29')).toBe('2026-12-29');
  });
});
