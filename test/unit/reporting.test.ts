import { describe, expect, it } from 'vitest';
import type { MyPayPaidRow } from '../../functions/adapters/ports/mypay.ts';
import type { CallRecord } from '../../functions/domain/call-record.ts';
import { REPORTING_JOB, type JobRecord } from '../../functions/domain/jobs.ts';
import { followUpTimes } from '../../functions/domain/reporting.ts';
import type { PaymentSettlement } from '../../functions/positions/settlement.ts';
import { reportingSlice } from '../../functions/reporting/jobs.ts';
import { makeReportingSchedule } from '../../functions/reporting/schedule.ts';
import { makeReportingUseCases } from '../../functions/reporting/use-cases.ts';
import { myPayReporting } from '../../functions/adapters/mypay/platform.ts';
import { actors } from '../support/in-memory.ts';

/**
 * 'Rendicontazione' by itself (issue 34): incremental from the last day reported, in bounded slices, every day
 * for the calls with open positions and a few minutes after a checkout of unknown outcome.
 */
const call = { id: 'call-1', dataInsert: '2026-02-01T08:00:00.000Z' } as CallRecord;

function reportingOf(options: { notReadyFrom?: string } = {}) {
  let now = new Date('2026-03-10T10:00:00.000Z');
  const asked: [string, string][] = [];
  const reportedThrough = new Map<string, string>();
  // Each day's payments: what MyPay's export of a window lists.
  const paidOn = new Map<string, MyPayPaidRow[]>();
  const recorded = new Set<string>();
  const settlement: PaymentSettlement = {
    settle: async (rows) =>
      rows.map((row) =>
        recorded.has(row.iur)
          ? { kind: 'already-recorded' }
          : (recorded.add(row.iur), { kind: 'recorded', reconciliation: null }),
      ) as never,
  } as PaymentSettlement;
  const reporting = makeReportingUseCases({
    calls: { getCall: async (id) => (id === call.id ? call : null) },
    settlement,
    platform: myPayReporting({
      reportPaid: async (from, to) => {
        asked.push([from, to]);
        if (options.notReadyFrom && from >= options.notReadyFrom) return new Promise(() => {});
        return [...paidOn].filter(([day]) => day >= from && day <= to).flatMap(([, rows]) => rows);
      },
    }),
    clock: { now: () => now },
    reported: {
      getReportedThrough: async (id) => reportedThrough.get(id) ?? null,
      putReportedThrough: async (id, day) =>
        void (day > (reportedThrough.get(id) ?? '') && reportedThrough.set(id, day)),
    },
    deadlineMs: 20,
  });
  const pay = (day: string, iur: string) =>
    paidOn.set(day, [
      ...(paidOn.get(day) ?? []),
      { iud: `IUD-${iur}`, iuv: '', amountCents: 100, paidOn: day, iur, fiscalCode: '', causale: '' },
    ]);
  return { reporting, asked, reportedThrough, pay, setNow: (iso: string) => (now = new Date(iso)) };
}

describe('Rendicontazione, incremental and in slices', () => {
  it('reads from the call’s start the first time, then from the last day already reported, at most 31 days per MyPay export', async () => {
    const { reporting, asked, reportedThrough, pay, setNow } = reportingOf();
    pay('2026-02-10', 'IUR-1');
    pay('2026-03-10', 'IUR-2');
    const first = await reporting.runReporting(call.id, actors.operator);
    expect(asked).toEqual([
      ['2026-02-01', '2026-03-03'],
      ['2026-03-04', '2026-03-10'],
    ]);
    expect(first).toMatchObject({ from: '2026-02-01', to: '2026-03-10', marked: 2, inProgress: false });
    expect(reportedThrough.get(call.id)).toBe('2026-03-10');

    // Two days later: only the last day reported (again: a receipt may reach MyPay late) and the new ones.
    setNow('2026-03-12T05:00:00.000Z');
    pay('2026-03-11', 'IUR-3');
    asked.length = 0;
    const second = await reporting.runReporting(call.id, actors.operator);
    expect(asked).toEqual([['2026-03-10', '2026-03-12']]);
    expect(second).toMatchObject({ from: '2026-03-10', to: '2026-03-12', marked: 1, alreadyPaid: 1 });
    expect(reportedThrough.get(call.id)).toBe('2026-03-12');
  });

  it('keeps the last slice done when MyPay’s export is not ready: the next run starts there', async () => {
    const { reporting, asked, reportedThrough } = reportingOf({ notReadyFrom: '2026-03-04' });
    expect(await reporting.runReporting(call.id, actors.operator)).toMatchObject({
      inProgress: true,
      message: 'La rendicontazione è in corso',
    });
    expect(reportedThrough.get(call.id)).toBe('2026-03-03');
    asked.length = 0;
    await reporting.runReporting(call.id, actors.operator);
    expect(asked[0]).toEqual(['2026-03-03', '2026-03-10']);
  });

  it('as a background job: one export per slice, the counts carried in the cursor, the whole outcome at the end', async () => {
    const { reporting, pay } = reportingOf();
    pay('2026-02-10', 'IUR-1');
    pay('2026-03-09', 'IUR-2');
    const slice = reportingSlice(reporting);
    const first = await slice({ callId: call.id }, null, actors.operator);
    expect(first.cursor).not.toBeNull();
    expect(first.total).toBe(38);
    const last = await slice({ callId: call.id }, first.cursor, actors.operator);
    expect(last.cursor).toBeNull();
    expect(last.result).toMatchObject({
      from: '2026-02-01',
      to: '2026-03-10',
      marked: 2,
      message: 'Rendicontazione completata: 2 posizioni segnate come pagate, 0 già pagate, 0 non riconosciute.',
    });
  });
});

describe('Rendicontazione without a click', () => {
  function scheduleOf(running: string[] = []) {
    const started: { kind: string; key: string; input: Record<string, unknown>; actor: unknown }[] = [];
    const followUps = new Map<string, { callId: string; dueAt: string }>();
    const now = new Date('2026-03-10T06:00:00.000Z');
    const totals: Record<string, number> = { 'open-2026': 2, 'old-2025': 1, 'paid-2026': 0, 'paid-2025': 0 };
    const schedule = makeReportingSchedule({
      calls: {
        listCallStarts: async () => [
          { id: 'open', dataInsert: '2026-01-10T00:00:00.000Z' },
          { id: 'old', dataInsert: '2025-09-01T00:00:00.000Z' },
          { id: 'paid', dataInsert: '2025-09-01T00:00:00.000Z' },
        ],
      },
      totals: { getDebtTotals: async (callId, anno) => ({ daPagareCount: totals[`${callId}-${anno}`] ?? 0 }) },
      followUps: {
        listDueFollowUps: async (at) => [...followUps.values()].filter((f) => f.dueAt <= at),
        deleteFollowUp: async (f) => void followUps.delete(`${f.dueAt}#${f.callId}`),
      },
      jobs: {
        start: async (kind, key, input, actor) => {
          if (running.includes(key)) return null;
          started.push({ kind, key, input, actor });
          return { id: `job-${key}` } as JobRecord;
        },
      },
      clock: { now: () => now },
      actor: actors.operator,
    });
    const followUp = (callId: string, dueAt: string) => followUps.set(`${dueAt}#${callId}`, { callId, dueAt });
    return { schedule, started, followUps, followUp };
  }

  it('every day starts the reporting of each call with a position still to pay, in any year since its start', async () => {
    const { schedule, started } = scheduleOf(['old']);
    expect(await schedule.startDaily()).toEqual({ started: 1, running: 1, checked: 3 });
    expect(started).toEqual([
      { kind: REPORTING_JOB, key: 'open', input: { callId: 'open', scheduled: true }, actor: actors.operator },
    ]);
  });

  it('reports a call a few minutes after a checkout of unknown outcome, once however many checkouts asked; a call being reported keeps its follow-ups', async () => {
    const { schedule, started, followUps, followUp } = scheduleOf(['busy']);
    followUp('open', '2026-03-10T05:55:00.000Z');
    followUp('open', '2026-03-10T05:58:00.000Z');
    followUp('busy', '2026-03-10T05:59:00.000Z');
    followUp('later', '2026-03-10T06:30:00.000Z');
    expect(await schedule.startDueFollowUps()).toEqual({ started: 1, waiting: 1 });
    expect(started.map((s) => s.key)).toEqual(['open']);
    expect([...followUps.values()].map((f) => f.callId).sort()).toEqual(['busy', 'later']);
  });

  it('a checkout asks for its call’s reporting five minutes later and five minutes after its 30-minute hold', () => {
    expect(followUpTimes(new Date('2026-03-10T10:00:00.000Z'))).toEqual([
      '2026-03-10T10:05:00.000Z',
      '2026-03-10T10:35:00.000Z',
    ]);
  });
});
