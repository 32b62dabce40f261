import { ioConfigFromEnv, makeIo } from '../adapters/io.ts';
import { sesMailer } from '../adapters/mail.ts';
import type { IoMessages } from '../adapters/ports.ts';
import { inpsMessages } from '../domain/inps.ts';
import { CALL_REFRESH_JOB, EXPIRY_JOB, NEW_YEAR_JOB } from '../domain/isee-refresh.ts';
import { iseeRefresh } from './wired-isee.ts';
import type { KindsOf } from '../jobs/job-functions.ts';
import { jobTask } from './job-task.ts';
import type { JobKind } from '../jobs/use-cases.ts';

/** The ISEE jobs (functions/jobs/job-functions.ts): a kind is a `slice` and the line shown when it fails. */
let io: IoMessages | undefined;
const refresh = iseeRefresh({
  reminders: { io: { sendMessage: (fiscalCode, content) => (io ??= makeIo(ioConfigFromEnv())).sendMessage(fiscalCode, content) }, mailer: sesMailer },
});
const kinds: Record<KindsOf<'IseeJobs'>, JobKind> = {
  [CALL_REFRESH_JOB]: { slice: refresh.callRefreshSlice, failure: inpsMessages.refreshFailed },
  [NEW_YEAR_JOB]: { slice: refresh.newYearSlice, failure: inpsMessages.refreshFailed },
  [EXPIRY_JOB]: { slice: refresh.expirySlice, failure: inpsMessages.expiryFailed },
};

export const { runJobStep, handler } = jobTask(kinds);
