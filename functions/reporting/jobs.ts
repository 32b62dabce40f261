import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { REPORTING_JOB, resultJobStatus, type JobRecord, type BackgroundJobs } from '../domain/jobs.ts';
import { messages, paymentOutcomeMessages } from '../domain/messages.ts';
import type { ReportingResult, ReportingStatus } from '../domain/position-payment.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditLog } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import type { CallRecord } from '../domain/call-record.ts';
import type { ReportingCursor } from '../domain/reporting.ts';
import type { ReportingUseCases } from './use-cases.ts';

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
 * functions/entry/wired-reporting.ts) and keeps its outcome.
 */
export function makeReportingJobs({ calls, jobs, audit, clock }: ReportingJobDeps) {
  const requireCall = async (id: string) =>
    (await calls.getCall(id)) ?? Promise.reject(new NotFoundError(messages.call.notFound));
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

/**
 * The job's slices: one MyPay export of at most REPORTING_SLICE_DAYS days each (functions/reporting/use-cases.ts),
 * its counts carried in the job's cursor; the last one's outcome kept on the record. `done` counts the days.
 */
export const reportingSlice =
  (reporting: Pick<ReportingUseCases, 'reportSlice'>) =>
  async (input: Record<string, unknown>, cursor: string | null, actor: Actor) => {
    const { next, result } = await reporting.reportSlice(
      String(input.callId ?? ''),
      cursor ? (JSON.parse(cursor) as ReportingCursor) : null,
      actor,
    );
    const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
    return {
      cursor: next ? JSON.stringify(next) : null,
      done: days(result.from, result.to),
      total: days(result.from, next?.to ?? result.to),
      result,
    };
  };
