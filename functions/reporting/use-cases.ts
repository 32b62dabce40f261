import type { PositionRecord } from '../domain/debt-positions.ts';
import { DomainError, NotFoundError } from '../domain/errors.ts';
import { counted, fill, messages, paymentOutcomeMessages, reportingCountWords } from '../domain/messages.ts';
import { applyPayment, type ReportingResult } from '../domain/position-payment.ts';
import type { Actor } from '../domain/roles.ts';
import { noMetrics, type AuditEntry, type BusinessMetrics, type Clock, type MyPay, type MyPayPaidRow } from '../adapters/ports.ts';
import type { CallRecord } from '../calls/repository.ts';

/**
 * 'Rendicontazione' (issue 8; calls-citizens-roles §2.11, §7 import-pagamenti): asks MyPay what was paid
 * from the call's start (never before 2025-01-01, the spec's totals start) to today, and marks the
 * matching positions of the call paid with MyPay's amount and date through the same domain rule as the
 * citizen's return (applyPayment). Idempotent: a second run finds them paid and marks none.
 */
export interface ReportingDeps {
  calls: { getCall(id: string): Promise<CallRecord | null> };
  positions: {
    getPositionByIud(iud: string): Promise<PositionRecord | null>;
    recordPayment(position: PositionRecord, expectedVersion: number): Promise<boolean>;
  };
  mypay: Pick<MyPay, 'reportPaid'>;
  audit: { recordMany(entries: readonly AuditEntry[], at: Date): Promise<void> };
  clock: Clock;
  /** How long the request waits for MyPay's export before answering 'La rendicontazione è in corso' (ms). */
  deadlineMs?: number;
  /** PaymentsRecorded and PaymentsToReconcile, channel reporting (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
}

const NOT_READY = Symbol('not-ready');

/** The spec's fixed start of the payment totals (operator-admin §9). */
export const REPORTING_START = '2025-01-01';

/** Today in Europe/Rome, yyyy-MM-dd. */
export const romeDate = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

const LOOKUPS_AT_ONCE = 25;

export function makeReportingUseCases({ calls, positions, mypay, audit, clock, deadlineMs = 20_000, metrics = noMetrics }: ReportingDeps) {
  return {
    async runReporting(callId: string, actor: Actor): Promise<ReportingResult> {
      const call = await calls.getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      const now = clock.now();
      const callStart = call.dataInsert ? romeDate(new Date(call.dataInsert)) : REPORTING_START;
      const from = callStart > REPORTING_START ? callStart : REPORTING_START;
      const to = romeDate(now);
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
          return { ...base, inProgress: true, marked: 0, alreadyPaid: 0, unmatched: 0, message: paymentOutcomeMessages.reportingInProgress };
        }
        if (name === 'MyPayUnavailable' || name === 'MyPayFault') throw new DomainError(503, 'Servizio non disponibile', paymentOutcomeMessages.unavailable);
        throw error;
      } finally {
        clearTimeout(timer);
      }
      if (rows === NOT_READY) return { ...base, inProgress: true, marked: 0, alreadyPaid: 0, unmatched: 0, message: paymentOutcomeMessages.reportingInProgress };

      let marked = 0;
      let alreadyPaid = 0;
      let unmatched = 0;
      /** Receipts for a position of this call that cannot be applied (another amount, a cancelled position). */
      let toReconcile = 0;
      const entries: AuditEntry[] = [];
      const at = now.toISOString();
      async function settle(row: MyPayPaidRow) {
        for (let attempt = 0; attempt < 3; attempt++) {
          const position = await positions.getPositionByIud(row.iud);
          if (!position) {
            unmatched += 1;
            return;
          }
          if (position.callId !== call!.id) return; // another call's payment: its own reporting marks it
          const effect = applyPayment(position, row, at);
          if (effect.kind === 'already-paid') {
            alreadyPaid += 1;
            return;
          }
          if (effect.kind !== 'paid') {
            unmatched += 1;
            toReconcile += 1;
            return;
          }
          if (await positions.recordPayment(effect.after, position.version)) {
            marked += 1;
            entries.push({ actor, entity: 'position', id: position.iud, action: 'update', before: position, after: effect.after });
            return;
          }
        }
        unmatched += 1;
      }
      for (let i = 0; i < rows.length; i += LOOKUPS_AT_ONCE) await Promise.all(rows.slice(i, i + LOOKUPS_AT_ONCE).map(settle));
      if (entries.length) await audit.recordMany(entries, now);
      metrics.count('PaymentsRecorded', marked, { channel: 'reporting' });
      metrics.count('PaymentsToReconcile', toReconcile, { channel: 'reporting' });
      return { ...base, inProgress: false, marked, alreadyPaid, unmatched, message: reportingMessage({ marked, alreadyPaid, unmatched }) };
    },
  };
}

/** 'Rendicontazione completata: 1 posizione segnata come pagata, 0 già pagate, 2 non riconosciute.' */
export const reportingMessage = (counts: { marked: number; alreadyPaid: number; unmatched: number }) => {
  const words = reportingCountWords;
  return fill(paymentOutcomeMessages.reportingDone, {
    marked: counted(counts.marked, words.marked),
    alreadyPaid: counted(counts.alreadyPaid, words.alreadyPaid),
    unmatched: counted(counts.unmatched, words.unmatched),
  });
};
