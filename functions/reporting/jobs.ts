import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { REPORTING_JOB, resultJobStatus, type JobRecord, type BackgroundJobs } from '../domain/jobs.ts';
import { messages, paymentOutcomeMessages } from '../domain/messages.ts';
import type { ReportingResult, ReportingStatus } from '../domain/position-payment.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog, Clock } from '../adapters/ports.ts';
import type { CallRecord } from '../calls/repository.ts';

export interface ReportingJobDeps {
  calls: { getCall(id: string): Promise<CallRecord | null> };
  jobs: BackgroundJobs;
  audit: AuditLog;
  clock: Clock;
}

/**
 * 'Rendicontazione' as a background job: MyPay prepares its export of what was paid for as long as it takes,
 * and a call's paid rows are thousands, longer than an API request may last (29 s). The API function starts
 * the job and answers its status; the job function runs the reporting (functions/reporting/use-cases.ts,
 * functions/reporting/wired.ts) and keeps its outcome.
 */
export function makeReportingJobs({ calls, jobs, audit, clock }: ReportingJobDeps) {
  const requireCall = async (id: string) => (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
  const statusOf = (status: { job: JobRecord | null; running: boolean }): ReportingStatus =>
    resultJobStatus(status, paymentOutcomeMessages.reportingFailed, (stored) => stored as ReportingResult);
  return {
    /** POST /api/calls/{id}/reporting: starts it (409 while one runs for the call); the status at once. */
    async startReporting(callId: string, actor: Actor): Promise<ReportingStatus> {
      const call = await requireCall(callId);
      const job = await jobs.start(REPORTING_JOB, call.id, { callId: call.id }, actor);
      if (!job) throw new ConflictError(paymentOutcomeMessages.reportingRunning);
      await audit.record({ actor, entity: 'job', id: job.id, action: 'create', before: null, after: job }, clock.now());
      return statusOf({ job, running: true });
    },
    /** GET /api/calls/{id}/reporting: the latest run's status, with its outcome once done. */
    async reportingStatus(callId: string): Promise<ReportingStatus> {
      const call = await requireCall(callId);
      return statusOf(await jobs.status(REPORTING_JOB, call.id));
    },
  };
}

/** The job's one slice: the reporting itself (its own settlement and audit), its outcome kept on the record. */
export const reportingSlice =
  (reporting: { runReporting(callId: string, actor: Actor): Promise<ReportingResult> }) =>
  async (input: Record<string, unknown>, _cursor: string | null, actor: Actor) => ({ cursor: null, done: 1, total: 1, result: await reporting.runReporting(String(input.callId ?? ''), actor) });
