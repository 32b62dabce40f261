import { REPORTING_JOB, type BackgroundJobs } from '../domain/jobs.ts';
import type { DebtTotals } from '../domain/debt-summary-rules.ts';
import { currentPeriod } from '../domain/period.ts';
import { hasOpenPositions } from '../domain/reporting.ts';
import type { Actor } from '../domain/roles.ts';
import type { Clock } from '../adapters/ports/clock.ts';

export interface ReportingScheduleDeps {
  calls: { listCallStarts(): Promise<{ id: string; dataInsert: string | null }[]> };
  /** The payment list's totals of a call-year (functions/payment-list/repository.ts). */
  totals: { getDebtTotals(callId: string, anno: number): Promise<Pick<DebtTotals, 'daPagareCount'>> };
  followUps: {
    listDueFollowUps(now: string): Promise<{ callId: string; dueAt: string }[]>;
    deleteFollowUp(followUp: { callId: string; dueAt: string }): Promise<void>;
  };
  jobs: Pick<BackgroundJobs, 'start'>;
  clock: Clock;
  /** Who the scheduled runs are audited as. */
  actor: Actor;
}

/**
 * 'Rendicontazione' without anyone clicking (issue 34): every day for every call with open positions, and a few
 * minutes after each checkout whose outcome the portal did not learn. Each starts the call's ordinary reporting
 * job (incremental, in slices: functions/reporting/use-cases.ts); a call whose reporting runs already is left
 * alone (that run reads to today).
 */
export function makeReportingSchedule({ calls, totals, followUps, jobs, clock, actor }: ReportingScheduleDeps) {
  const start = async (callId: string) =>
    (await jobs.start(REPORTING_JOB, callId, { callId, scheduled: true }, actor)) !== null;
  return {
    /** The daily run: the calls with a position due and unpaid in any year from their start to this one. */
    async startDaily(): Promise<{ started: number; running: number; checked: number }> {
      const year = currentPeriod(clock.now()).anno;
      let started = 0;
      let running = 0;
      const all = await calls.listCallStarts();
      for (const call of all) {
        const first = Math.min(year, call.dataInsert ? Number(call.dataInsert.slice(0, 4)) : year);
        const years = Array.from({ length: year - first + 1 }, (_, i) => first + i);
        if (!hasOpenPositions(await Promise.all(years.map((anno) => totals.getDebtTotals(call.id, anno))))) continue;
        if (await start(call.id)) started += 1;
        else running += 1;
      }
      return { started, running, checked: all.length };
    },
    /**
     * The reportings due after checkouts (REPORTING_FOLLOW_UP_MS later): one run per call however many
     * checkouts asked; a follow-up whose call is being reported stays for the next sweep.
     */
    async startDueFollowUps(): Promise<{ started: number; waiting: number }> {
      const due = await followUps.listDueFollowUps(clock.now().toISOString());
      const byCall = new Map<string, typeof due>();
      for (const followUp of due) byCall.set(followUp.callId, [...(byCall.get(followUp.callId) ?? []), followUp]);
      let started = 0;
      for (const [callId, items] of byCall) {
        if (!(await start(callId))) continue;
        started += 1;
        for (const item of items) await followUps.deleteFollowUp(item);
      }
      return { started, waiting: byCall.size - started };
    },
  };
}
