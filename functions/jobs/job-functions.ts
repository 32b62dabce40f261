import { IMPORT_JOB } from '../domain/enrolment-import.ts';
import { CALL_REFRESH_JOB, EXPIRY_JOB, NEW_YEAR_JOB } from '../domain/isee-refresh.ts';
import { CSV_JOB, FLOW_EMAIL_JOB, GENERATE_JOB, REPORTING_JOB, RESET_HOURS_JOB, SYNC_JOB } from '../domain/jobs.ts';

/**
 * The job functions and the kinds each runs, grouped by what they import, so that each bundle carries only
 * its own kinds (test/infra/bundles.test.ts). The state machine picks the function by the run's kind
 * (functions/jobs/state-machine.ts); each function's entry is functions/jobs/<entry>.ts and its kinds are typed
 * from this table. Read by the CDK app and the local stack only: a job function imports it as a type.
 */
export const JOB_FUNCTIONS = {
  /** The debt positions: 'Sincronizza', the month's generation and CSV, 'Rendicontazione' (MyPay). */
  PaymentJobs: { entry: 'payment-jobs', kinds: [SYNC_JOB, GENERATE_JOB, CSV_JOB, REPORTING_JOB] },
  /** The enrolments: 'Reset ore' and the enrolment import's 'Applica'. */
  EnrolmentJobs: { entry: 'enrolment-jobs', kinds: [RESET_HOURS_JOB, IMPORT_JOB] },
  /** The flow's notice e-mail (SES, IO). */
  NoticeJobs: { entry: 'notice-jobs', kinds: [FLOW_EMAIL_JOB] },
  /** The ISEE from INPS (a call's refresh, the January refresh) and the expiry list with its reminders. */
  IseeJobs: { entry: 'isee-jobs', kinds: [CALL_REFRESH_JOB, NEW_YEAR_JOB, EXPIRY_JOB] },
} as const;

export type JobFunctionName = keyof typeof JOB_FUNCTIONS;
/** The kinds a job function runs: its entry's table of kinds must name exactly these. */
export type KindsOf<Name extends JobFunctionName> = (typeof JOB_FUNCTIONS)[Name]['kinds'][number];
