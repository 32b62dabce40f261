import { recordAuditBatch } from '../adapters/audit-log.ts';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { businessMetrics } from '../adapters/observability.ts';
// Named imports (not the whole modules): the bundle keeps only what the payments use.
import { getBand } from '../bands/repository.ts';
import { getCall } from '../calls/repository.ts';
import { getConfiguration } from '../configuration/repository.ts';
import { requirePlatformConfiguration } from '../adapters/platform-configuration.ts';
import { paymentPlatformName } from '../adapters/payment-platform-name.ts';
import { runningExportOf } from '../flows/repository.ts';
import { runningExportsOf } from '../flows/running-exports.ts';
import { markIseesUsedForFee } from '../isee/repository.ts';
import { listApprovedSubscriptionsOfCall } from '../subscriptions/repository.ts';
import { getUserItems } from '../users/repository.ts';
import { makePaymentListRefresh, positionWriter } from './wired-payment-list.ts';
import * as positionRepository from '../positions/repository.ts';
import { hasLiveCheckouts } from '../payments/checkouts.ts';
import { makePaymentUseCases, type PaymentDeps } from '../payments/use-cases.ts';

const debtSummaries = makePaymentListRefresh();

/** The payments' use cases on the real adapters: the payments API and the MyPay export's steps share them. */
export const paymentUseCases = (
  extra: Pick<PaymentDeps, 'jobs' | 'iuvSequence' | 'platformSync' | 'sliceBudget' | 'exportSliceBudget'> = {},
) =>
  makePaymentUseCases({
    positions: { ...positionRepository, ...positionWriter(debtSummaries), hasLiveCheckouts },
    calls: { getCall },
    bands: { getBand },
    subscriptions: { listApprovedSubscriptionsOfCall },
    users: { getUserItems },
    isees: { markIseesUsedForFee },
    configuration: { getConfiguration },
    // MyPay's configuration page, or on GPD the council's pagoPA settings (PAYMENT_PLATFORM).
    requireConfiguration: requirePlatformConfiguration(getConfiguration),
    exports: runningExportsOf({ runningExportOf }),
    exportFiles: s3ExportFiles,
    summaries: debtSummaries,
    missingIsee: { putMissingIsee: positionRepository.putMissingIsee },
    audit: { recordMany: recordAuditBatch },
    clock: systemClock,
    metrics: businessMetrics,
    platformName: paymentPlatformName(),
    ...extra,
  });

/** Without the background jobs: the MyPay export's steps and the jobs' own slices. */
export const payments = paymentUseCases();
