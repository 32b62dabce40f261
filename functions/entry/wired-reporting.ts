import { recordAuditBatch } from '../adapters/audit-log.ts';
import { makeMyPay, myPayConfigFromEnv } from '../adapters/mypay.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { myPayReporting } from '../adapters/mypay/platform.ts';
import { gpdConfigFromEnv, paymentPlatformName } from '../adapters/payment-platform.ts';
import { makeGpdClient, type GpdClient } from '../adapters/gpd/client.ts';
import { readReceipt } from '../adapters/gpd/receipt-xml.ts';
import { gpdReporting } from '../adapters/gpd/reporting.ts';
import type { PlatformReporting } from '../domain/payment-platform.ts';
import { getCall } from '../calls/repository.ts';
import { positionWriter } from './wired-payment-list.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { deleteCheckoutMarker } from '../payments/checkouts.ts';
import { getPositionByIud } from '../positions/repository.ts';
import { makePaymentSettlement } from '../positions/settlement.ts';
import { getReportedThrough, putReportedThrough } from '../reporting/repository.ts';
import { makeReportingUseCases } from '../reporting/use-cases.ts';

/**
 * 'Rendicontazione' on the real adapters, for the job function (the kind 'reporting'). On GPD the receipts and the
 * positions paid are read page by page at once; on MyPay its export is polled
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

let clientOfGpd: GpdClient | undefined;
let reportingOnGpd: PlatformReporting | undefined;
// The receipts' documents carry the amount and receipt id the receipts list lacks: the client reads them.
export const gpdClient = () => (clientOfGpd ??= makeGpdClient({ ...gpdConfigFromEnv(), readReceipt }));
const gpd = () => (reportingOnGpd ??= gpdReporting(gpdClient()));

/** Payments recorded as the reporting records them ('Rendicontazione', and 'Sincronizza' on GPD). */
export const settlement = makePaymentSettlement({
  positions: { getPositionByIud, recordPayment: positionWriter().recordPayment, deleteCheckoutMarker },
  audit: { recordMany: recordAuditBatch },
  clock: systemClock,
  metrics: businessMetrics,
});

export const reporting = makeReportingUseCases({
  calls: { getCall },
  settlement,
  // The deployment's payment platform (PAYMENT_PLATFORM): MyPay's export of what was paid, or GPD's receipts.
  platform: {
    paidBetween: (from, to, options) =>
      (paymentPlatformName() === 'gpd' ? gpd() : myPayReporting(mypay())).paidBetween(from, to, options),
  },
  reported: { getReportedThrough, putReportedThrough },
  clock: systemClock,
  deadlineMs: WAIT_MS,
});
