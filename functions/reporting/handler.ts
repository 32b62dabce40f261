import { recordAuditBatch } from '../adapters/audit-log.ts';
import { makeMyPay, myPayConfigFromEnv } from '../adapters/mypay.ts';
import { systemClock } from '../adapters/ports.ts';
import { getCall } from '../calls/repository.ts';
import { refreshingAfter } from '../payment-list/refresh.ts';
import { resourceHandler } from '../http/handler.ts';
import { businessMetrics } from '../http/observability.ts';
import { deleteCheckoutMarker } from '../payments/checkouts.ts';
import { getPositionByIud, recordPayment } from '../payments/repository.ts';
import { makePaymentSettlement } from '../payments/settlement.ts';
import { reportingRoutes } from './routes.ts';
import { makeReportingUseCases } from './use-cases.ts';

/**
 * MyPay's export is polled every second (calls of at most 5 s); the use case waits for it 20 s at most, then
 * answers 'La rendicontazione è in corso' (the API may last 29 s) and the operator runs it again.
 */
let client: ReturnType<typeof makeMyPay> | undefined;
const mypay = () => {
  if (!client) {
    const config = myPayConfigFromEnv();
    client = makeMyPay({ ...config, timeoutMs: Math.min(config.timeoutMs ?? 5000, 5000), exportPollMs: 1000, exportMaxPolls: 15 });
  }
  return client;
};

const reporting = makeReportingUseCases({
  calls: { getCall },
  settlement: makePaymentSettlement({
    positions: { getPositionByIud, recordPayment: refreshingAfter(recordPayment, (written, position) => (written ? position : null)), deleteCheckoutMarker },
    audit: { recordMany: recordAuditBatch },
    clock: systemClock,
    metrics: businessMetrics,
  }),
  mypay: { reportPaid: (from, to) => mypay().reportPaid(from, to) },
  clock: systemClock,
});

export const handler = resourceHandler(reportingRoutes, {
  runReporting: ({ params, actor }) => reporting.runReporting(params.id, actor!),
});
