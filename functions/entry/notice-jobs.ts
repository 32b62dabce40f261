import { noticeMessages } from '../domain/messages.ts';
import { FLOW_EMAIL_JOB } from '../domain/jobs.ts';
import { noticeUseCases } from './wired-notices.ts';
import type { KindsOf } from '../jobs/job-functions.ts';
import { jobTask } from './job-task.ts';
import type { JobKind } from '../jobs/use-cases.ts';

/** The flow's notice e-mail (functions/jobs/job-functions.ts): its `slice` and the line shown when it fails. */
const kinds: Record<KindsOf<'NoticeJobs'>, JobKind> = {
  [FLOW_EMAIL_JOB]: { slice: noticeUseCases().flowEmailSlice, failure: noticeMessages.flowEmailFailed },
};

export const { runJobStep, handler } = jobTask(kinds);
