import { DomainError, NotFoundError } from '../domain/errors.ts';
import { counted, fill, messages, paymentOutcomeMessages, reportingCountWords } from '../domain/messages.ts';
import { romeDay } from '../domain/period.ts';
import type { ReportingResult } from '../domain/position-payment.ts';
import type { Actor } from '../domain/roles.ts';
import type { Clock, MyPay, MyPayPaidRow } from '../adapters/ports.ts';
import type { CallRecord } from '../calls/repository.ts';
import type { PaymentSettlement } from '../payments/settlement.ts';

/**
 * 'Rendicontazione' (issue 8; calls-citizens-roles §2.11, §7 import-pagamenti): asks MyPay what was paid
 * from the call's start (never before 2025-01-01, the spec's totals start) to today, and records every
 * payment of the call's positions through the same use case as the citizen's return (payments/settlement.ts):
 * the amount actually paid, the date, the IUR; one that differs from what was due (or is for a cancelled
 * position, or a second payment) is recorded too, marked for reconciliation. Idempotent: a second run finds
 * every receipt recorded and writes nothing.
 */
export interface ReportingDeps {
  calls: { getCall(id: string): Promise<CallRecord | null> };
  settlement: PaymentSettlement;
  mypay: Pick<MyPay, 'reportPaid'>;
  clock: Clock;
  /** How long the request waits for MyPay's export before answering 'La rendicontazione è in corso' (ms). */
  deadlineMs?: number;
}

const NOT_READY = Symbol('not-ready');

/** The spec's fixed start of the payment totals (operator-admin §9). */
export const REPORTING_START = '2025-01-01';


export function makeReportingUseCases({ calls, settlement, mypay, clock, deadlineMs = 20_000 }: ReportingDeps) {
  return {
    async runReporting(callId: string, actor: Actor): Promise<ReportingResult> {
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      const now = clock.now();
      const callStart = call.dataInsert ? romeDay(new Date(call.dataInsert)) : REPORTING_START;
      const from = callStart > REPORTING_START ? callStart : REPORTING_START;
      const to = romeDay(now);
      const base = { from, to: to < from ? from : to };

      let rows: MyPayPaidRow[] | typeof NOT_READY;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        rows = await Promise.race([
          mypay.reportPaid(base.from, base.to),
          new Promise<typeof NOT_READY>((resolve) => (timer = setTimeout(() => resolve(NOT_READY), deadlineMs))),
        ]);
      } catch (error) {
        const name = (error as Error)?.name;
        // MyPay still preparing the export after the polls this request can afford: say so, don't time out.
        if (name === 'MyPayUnavailable' && /not ready/.test((error as Error).message)) {
          return { ...base, inProgress: true, marked: 0, alreadyPaid: 0, toReconcile: 0, unmatched: 0, message: paymentOutcomeMessages.reportingInProgress };
        }
        if (name === 'MyPayUnavailable' || name === 'MyPayFault') throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
        throw error;
      } finally {
        clearTimeout(timer);
      }
      if (rows === NOT_READY) return { ...base, inProgress: true, marked: 0, alreadyPaid: 0, toReconcile: 0, unmatched: 0, message: paymentOutcomeMessages.reportingInProgress };

      const settled = await settlement.settle(rows, actor, { callId: call.id, channel: 'reporting' });
      const count = (kind: (typeof settled)[number]['kind']) => settled.filter((s) => s.kind === kind).length;
      const marked = count('recorded');
      const toReconcile = settled.filter((s) => s.kind === 'recorded' && s.reconciliation).length;
      const alreadyPaid = count('already-recorded');
      const unmatched = count('unknown');
      return { ...base, inProgress: false, marked, alreadyPaid, toReconcile, unmatched, message: reportingMessage({ marked, alreadyPaid, toReconcile, unmatched }) };
    },
  };
}

/** 'Rendicontazione completata: 2 posizioni segnate come pagate (1 da riconciliare), 0 già pagate, 2 non riconosciute.' */
export const reportingMessage = (counts: { marked: number; alreadyPaid: number; toReconcile: number; unmatched: number }) => {
  const words = reportingCountWords;
  return fill(paymentOutcomeMessages.reportingDone, {
    marked: counted(counts.marked, words.marked),
    toReconcile: counts.toReconcile ? ` (${counts.toReconcile} da riconciliare)` : '',
    alreadyPaid: counted(counts.alreadyPaid, words.alreadyPaid),
    unmatched: counted(counts.unmatched, words.unmatched),
  });
};
