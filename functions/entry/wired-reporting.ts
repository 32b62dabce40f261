import { recordAuditBatch } from '../adapters/audit-log.ts';
import { makeMyPay, myPayConfigFromEnv } from '../adapters/mypay.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { systemClock } from '../adapters/ports.ts';
import { getCall } from '../calls/repository.ts';
import { positionWriter } from './wired-payment-list.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { deleteCheckoutMarker } from '../payments/checkouts.ts';
import { getPositionByIud } from '../positions/repository.ts';
import { makePaymentSettlement } from '../positions/settlement.ts';
import { getReportedThrough, putReportedThrough } from '../reporting/repository.ts';
import { makeReportingUseCases } from '../reporting/use-cases.ts';

/**
 * 'Rendicontazione' on the real adapters, for the job function (the kind 'reporting'): MyPay's export is polled
 * every second (calls of at most 5 s) for up to four minutes, within the job function's five; past it the
 * answer is 'La rendicontazione è in corso' and the operator runs it again.
 */
const WAIT_MS = 4 * 60_000;
const mypay = clientFromSettings(
  () => myPayConfigFromEnv(),
  (config) =>
    makeMyPay({
      ...config,
      timeoutMs: Math.min(config.timeoutMs ?? 5000, 5000),
      exportPollMs: 1000,
      exportMaxPolls: WAIT_MS / 1000,
    }),
);

export const reporting = makeReportingUseCases({
  calls: { getCall },
  settlement: makePaymentSettlement({
    positions: { getPositionByIud, recordPayment: positionWriter().recordPayment, deleteCheckoutMarker },
    audit: { recordMany: recordAuditBatch },
    clock: systemClock,
    metrics: businessMetrics,
  }),
  mypay: { reportPaid: (from, to) => mypay().reportPaid(from, to) },
  reported: { getReportedThrough, putReportedThrough },
  clock: systemClock,
  deadlineMs: WAIT_MS,
});
