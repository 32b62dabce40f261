import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports.ts';
import { noticeMessages, paymentOutcomeMessages, positionOpsMessages } from '../domain/messages.ts';
import { logger, tracer } from '../http/observability.ts';
import { FLOW_EMAIL_JOB } from '../notices/use-cases.ts';
import { noticeUseCases } from '../notices/wired.ts';
import { payments } from '../payments/wired.ts';
import { IMPORT_JOB } from '../domain/enrolment-import.ts';
import { CSV_JOB, GENERATE_JOB, REPORTING_JOB, RESET_HOURS_JOB, SYNC_JOB } from '../domain/jobs.ts';
import { enrolmentUseCases } from '../enrolments/wired.ts';
import { reportingSlice } from '../reporting/jobs.ts';
import { reporting } from '../reporting/wired.ts';
import { enrolmentMessages } from '../domain/enrolment.ts';
import { enrolmentImport } from '../enrolment-csv/wired-import.ts';
import { inpsMessages } from '../domain/inps.ts';
import { CALL_REFRESH_JOB, EXPIRY_JOB, NEW_YEAR_JOB } from '../domain/isee-refresh.ts';
import { iseeRefresh } from '../isee/wired.ts';
import * as jobRepository from './repository.ts';
import type { JobTaskStep } from './state-machine.ts';
import { makeJobWorker, type JobKind, type JobRun } from './use-cases.ts';

/**
 * The kinds of background job, by name. A new kind is a line here: a `slice` over the use cases it needs
 * (bounded work from a cursor, idempotent) and the line shown when it fails.
 */
const notices = noticeUseCases();
const refresh = iseeRefresh();
const enrolments = enrolmentUseCases();
const kinds: Record<string, JobKind> = {
  [CALL_REFRESH_JOB]: { slice: refresh.callRefreshSlice, failure: inpsMessages.refreshFailed },
  [NEW_YEAR_JOB]: { slice: refresh.newYearSlice, failure: inpsMessages.refreshFailed },
  [EXPIRY_JOB]: { slice: refresh.expirySlice, failure: inpsMessages.expiryFailed },
  [SYNC_JOB]: { slice: payments.syncSlice, failure: positionOpsMessages.syncFailed },
  [GENERATE_JOB]: { slice: payments.generationSlice, failure: positionOpsMessages.generationFailed },
  [CSV_JOB]: { slice: payments.csvSlice, failure: positionOpsMessages.csvFailed },
  [REPORTING_JOB]: { slice: reportingSlice(reporting), failure: paymentOutcomeMessages.reportingFailed },
  [RESET_HOURS_JOB]: { slice: enrolments.resetHoursSlice, failure: enrolmentMessages.resetFailed },
  [IMPORT_JOB]: { slice: enrolmentImport.applySlice, failure: enrolmentMessages.importFailed },
  [FLOW_EMAIL_JOB]: { slice: notices.flowEmailSlice, failure: noticeMessages.flowEmailFailed },
};

const worker = makeJobWorker({ jobs: jobRepository, kinds, clock: systemClock });

export interface JobTaskEvent extends JobRun {
  step: JobTaskStep;
  error?: { Error?: string; Cause?: string } | null;
}

/** One step of a background job (functions/jobs/state-machine.ts): a thrown error keeps its name for Retry/Catch. */
export async function runJobStep(event: JobTaskEvent): Promise<unknown> {
  switch (event.step) {
    case 'Slice':
      return worker.slice(event);
    case 'MarkFailed':
      return worker.markFailed(event);
  }
}

export const handler = middy(runJobStep).use(injectLambdaContext(logger)).use(captureLambdaHandler(tracer));
