import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { getCall } from '../calls/repository.ts';
import { resourceHandler } from '../http/handler.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { makeReportingJobs } from '../reporting/jobs.ts';
import { reportingRoutes } from '../reporting/routes.ts';

/** 'Rendicontazione': this function starts the background job and answers its status (functions/reporting/jobs.ts). */
const reporting = makeReportingJobs({
  calls: { getCall },
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
  audit: dynamoAuditLog,
  clock: systemClock,
});

export const handler = resourceHandler(reportingRoutes, {
  runReporting: ({ params, actor }) => reporting.startReporting(params.id, actor),
  reportingStatus: ({ params }) => reporting.reportingStatus(params.id),
});
