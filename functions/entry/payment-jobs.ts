import { paymentOutcomeMessages, positionOpsMessages } from '../domain/messages.ts';
import { CSV_JOB, GENERATE_JOB, REPORTING_JOB, SYNC_JOB } from '../domain/jobs.ts';
import { paymentUseCases } from './wired-payments.ts';
import { reportingSlice } from '../reporting/jobs.ts';
import { gpdClient, reporting, settlement } from './wired-reporting.ts';
import { paymentPlatformName } from '../adapters/payment-platform-name.ts';
import { gpdPositionStates } from '../adapters/gpd/reporting.ts';
import type { KindsOf } from '../jobs/job-functions.ts';
import { jobTask } from './job-task.ts';
import type { JobKind } from '../jobs/use-cases.ts';

// On GPD 'Sincronizza' also reads the sent positions' states there (GPD's list) (the client is made once the secrets are loaded).
const payments = paymentUseCases(
  paymentPlatformName() === 'gpd'
    ? { platformSync: { positionStates: (positions) => gpdPositionStates(gpdClient())(positions), settlement } }
    : {},
);

/** The debt positions' jobs (functions/jobs/job-functions.ts): a kind is a `slice` and the line shown when it fails. */
const kinds: Record<KindsOf<'PaymentJobs'>, JobKind> = {
  [SYNC_JOB]: { slice: payments.syncSlice, failure: positionOpsMessages.syncFailed },
  [GENERATE_JOB]: { slice: payments.generationSlice, failure: positionOpsMessages.generationFailed },
  [CSV_JOB]: { slice: payments.csvSlice, failure: positionOpsMessages.csvFailed },
  [REPORTING_JOB]: { slice: reportingSlice(reporting), failure: paymentOutcomeMessages.reportingFailed },
};

export const { runJobStep, handler } = jobTask(kinds);
