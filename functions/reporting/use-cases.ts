import { DomainError, NotFoundError } from '../domain/errors.ts';
import { counted, fill, messages, paymentOutcomeMessages, reportingCountWords } from '../domain/messages.ts';
import { romeDay } from '../domain/period.ts';
import {
  addDays,
  REPORTING_SLICE_DAYS,
  REPORTING_START,
  reportingWindow,
  sliceEnd,
  type ReportingCursor,
} from '../domain/reporting.ts';
import type { ReportingResult } from '../domain/position-payment.ts';
// The rules without zod (position-payment.ts adds the routes' schemas, which this function does not bundle).
import { receiptOfPayment, type PaymentReceipt } from '../domain/payment-rules.ts';
import type { PlatformReporting } from '../domain/payment-platform.ts';
import type { Actor } from '../domain/roles.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { PaymentSettlement } from '../positions/settlement.ts';

/**
 * 'Rendicontazione' (issue 8; calls-citizens-roles §2.11, §7 import-pagamenti): asks the payment platform what
 * was paid (the port's reporting.paidBetween: MyPay's export of what was paid, or pagoPA GPD's receipts) and
 * records every payment of the call's positions through the same use case as the citizen's return
 * (positions/settlement.ts): the amount actually paid, the date, the IUR; one that differs from what was due
 * (or is for a cancelled position, or a second payment) is recorded too, marked for reconciliation.
 * Incremental and bounded (domain/reporting.ts): from the last day already reported (the call's start the
 * first time) to today, a slice of at most REPORTING_SLICE_DAYS per MyPay export; each slice done moves the
 * call's last reported day. Idempotent: a second run finds every receipt recorded and writes nothing. The
 * operator's 'Rendicontazione' and the scheduled runs (functions/reporting/schedule.ts) are the same run.
 */
export interface ReportingDeps {
  calls: { getCall(id: string): Promise<CallRecord | null> };
  settlement: PaymentSettlement;
  /** The deployment's payment platform's reporting (functions/adapters/payment-platform.ts). */
  platform: PlatformReporting;
  clock: Clock;
  /** The call's last day reported (functions/reporting/repository.ts); without it every run starts at the call's start. */
  reported?: {
    getReportedThrough(callId: string): Promise<string | null>;
    putReportedThrough(callId: string, day: string, at: string): Promise<void>;
  };
  /** How long the request waits for MyPay's export before answering 'La rendicontazione è in corso' (ms). */
  deadlineMs?: number;
  /** Days per slice (REPORTING_SLICE_DAYS unless a test sets another). */
  sliceDays?: number;
}

const NOT_READY = Symbol('not-ready');

export { REPORTING_START };

export function makeReportingUseCases({
  calls,
  settlement,
  platform,
  clock,
  reported,
  deadlineMs = 20_000,
  sliceDays = REPORTING_SLICE_DAYS,
}: ReportingDeps) {
  const requireCall = async (callId: string) =>
    (await calls.getCall(callId)) ?? Promise.reject(new NotFoundError(messages.call.notFound));

  /** Where a new run starts: the days still to report. */
  async function firstCursor(call: CallRecord): Promise<ReportingCursor> {
    const window = reportingWindow({
      callStart: call.dataInsert ? romeDay(new Date(call.dataInsert)) : null,
      reportedThrough: (await reported?.getReportedThrough(call.id)) ?? null,
      today: romeDay(clock.now()),
    });
    return { ...window, start: window.from, marked: 0, alreadyPaid: 0, toReconcile: 0, unmatched: 0 };
  }

  /** The platform's payments of those days, or NOT_READY when they are not ready within the deadline (MyPay's export). */
  async function paidRows(from: string, to: string): Promise<PaymentReceipt[] | typeof NOT_READY> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        platform.paidBetween(from, to).then((payments) => payments.map(receiptOfPayment)),
        new Promise<typeof NOT_READY>((resolve) => (timer = setTimeout(() => resolve(NOT_READY), deadlineMs))),
      ]);
    } catch (error) {
      const name = (error as Error)?.name;
      // MyPay still preparing the export after the polls this run can afford: say so, don't time out.
      if (name === 'MyPayUnavailable' && /not ready/.test((error as Error).message)) return NOT_READY;
      if (name === 'MyPayUnavailable' || name === 'MyPayFault' || name === 'GpdUnavailable' || name === 'GpdRefused')
        throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One slice of a run: the days from `cursor.from` (at most sliceDays of them), their payments recorded and
   * the call's last reported day moved to the slice's end. `next` null: the run is over, `result` says it all.
   */
  async function reportSlice(
    callId: string,
    cursor: ReportingCursor | null,
    actor: Actor,
  ): Promise<{ next: ReportingCursor | null; result: ReportingResult }> {
    const call = await requireCall(callId);
    const at = cursor ?? (await firstCursor(call));
    const end = sliceEnd(at.from, at.to, sliceDays);
    const rows = await paidRows(at.from, end);
    if (rows === NOT_READY) {
      return {
        next: null,
        result: {
          from: at.start,
          to: at.to,
          inProgress: true,
          ...countsOf(at),
          message: paymentOutcomeMessages.reportingInProgress,
        },
      };
    }
    const settled = await settlement.settle(rows, actor, { callId: call.id, channel: 'reporting' });
    const count = (kind: (typeof settled)[number]['kind']) => settled.filter((s) => s.kind === kind).length;
    const counts = {
      marked: at.marked + count('recorded'),
      toReconcile: at.toReconcile + settled.filter((s) => s.kind === 'recorded' && s.reconciliation).length,
      alreadyPaid: at.alreadyPaid + count('already-recorded'),
      unmatched: at.unmatched + count('unknown'),
    };
    await reported?.putReportedThrough(call.id, end, clock.now().toISOString());
    if (end < at.to)
      return {
        next: { ...at, ...counts, from: addDays(end, 1) },
        result: { from: at.start, to: end, inProgress: false, ...counts, message: reportingMessage(counts) },
      };
    return {
      next: null,
      result: { from: at.start, to: at.to, inProgress: false, ...counts, message: reportingMessage(counts) },
    };
  }

  return {
    reportSlice,
    /** A whole run at once (every slice in turn). */
    async runReporting(callId: string, actor: Actor): Promise<ReportingResult> {
      let step = await reportSlice(callId, null, actor);
      while (step.next) step = await reportSlice(callId, step.next, actor);
      return step.result;
    },
  };
}

const countsOf = (c: Pick<ReportingCursor, 'marked' | 'alreadyPaid' | 'toReconcile' | 'unmatched'>) => ({
  marked: c.marked,
  alreadyPaid: c.alreadyPaid,
  toReconcile: c.toReconcile,
  unmatched: c.unmatched,
});

/** 'Rendicontazione completata: 2 posizioni segnate come pagate (1 da riconciliare), 0 già pagate, 2 non riconosciute.' */
export const reportingMessage = (counts: {
  marked: number;
  alreadyPaid: number;
  toReconcile: number;
  unmatched: number;
}) => {
  const words = reportingCountWords;
  return fill(paymentOutcomeMessages.reportingDone, {
    marked: counted(counts.marked, words.marked),
    toReconcile: counts.toReconcile ? ` (${counts.toReconcile} da riconciliare)` : '',
    alreadyPaid: counted(counts.alreadyPaid, words.alreadyPaid),
    unmatched: counted(counts.unmatched, words.unmatched),
  });
};

export type ReportingUseCases = ReturnType<typeof makeReportingUseCases>;
