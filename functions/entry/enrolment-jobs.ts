import { IMPORT_JOB } from '../domain/enrolment-import.ts';
import { enrolmentMessages } from '../domain/enrolment.ts';
import { RESET_HOURS_JOB } from '../domain/jobs.ts';
import { enrolmentImport } from './wired-enrolment-import.ts';
import { enrolmentUseCases } from './wired-enrolments.ts';
import type { KindsOf } from '../jobs/job-functions.ts';
import { jobTask } from './job-task.ts';
import type { JobKind } from '../jobs/use-cases.ts';

/** The enrolments' jobs (functions/jobs/job-functions.ts): a kind is a `slice` and the line shown when it fails. */
const kinds: Record<KindsOf<'EnrolmentJobs'>, JobKind> = {
  [RESET_HOURS_JOB]: { slice: enrolmentUseCases().resetHoursSlice, failure: enrolmentMessages.resetFailed },
  [IMPORT_JOB]: { slice: enrolmentImport.applySlice, failure: enrolmentMessages.importFailed },
};

export const { runJobStep, handler } = jobTask(kinds);
