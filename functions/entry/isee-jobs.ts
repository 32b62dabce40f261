import { ioConfigFromEnv, makeIo } from '../adapters/io.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { sesMailer } from '../adapters/mail.ts';
import { inpsMessages } from '../domain/inps.ts';
import { CALL_REFRESH_JOB, EXPIRY_JOB, NEW_YEAR_JOB } from '../domain/isee-refresh.ts';
import { getCall } from '../calls/repository.ts';
import { getServiceBenefitCode } from '../services/repository.ts';
import type { KindsOf } from '../jobs/job-functions.ts';
import type { JobKind } from '../jobs/use-cases.ts';
import { jobTask } from './job-task.ts';
import { iseeRefreshJobs } from './wired-isee.ts';

// The December reminders' IO client, made at the first send and again when its key is rotated.
const io = clientFromSettings(() => ioConfigFromEnv(), makeIo);
/** The ISEE jobs (functions/jobs/job-functions.ts): a kind is a `slice` and the line shown when it fails. */
/** The benefit code of each call's service, read once per slice of a run (a slice asks INPS for many of its subscribers). */
let benefitCodes = new Map<string, Promise<string | null>>();
const benefitCodeOfCall = (callId: string) => {
  if (!benefitCodes.has(callId))
    benefitCodes.set(
      callId,
      getCall(callId).then((call) => call && getServiceBenefitCode(call.serviceId)),
    );
  return benefitCodes.get(callId)!;
};
const refresh = iseeRefreshJobs({
  benefitCodeOfCall,
  reminders: {
    io: { sendMessage: (fiscalCode, content) => io().sendMessage(fiscalCode, content) },
    mailer: sesMailer,
  },
});
/** A slice reads the services' codes afresh: an operator's change reaches the next slice. */
const withFreshCodes =
  (slice: JobKind['slice']): JobKind['slice'] =>
  (...args) => {
    benefitCodes = new Map();
    return slice(...args);
  };
const kinds: Record<KindsOf<'IseeJobs'>, JobKind> = {
  [CALL_REFRESH_JOB]: { slice: withFreshCodes(refresh.callRefreshSlice), failure: inpsMessages.refreshFailed },
  [NEW_YEAR_JOB]: { slice: withFreshCodes(refresh.newYearSlice), failure: inpsMessages.refreshFailed },
  [EXPIRY_JOB]: { slice: refresh.expirySlice, failure: inpsMessages.expiryFailed },
};

export const { runJobStep, handler } = jobTask(kinds);
