import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import { getCall } from '../calls/repository.ts';
import { runningExportOf } from '../flows/repository.ts';
import { runningExportsOf } from '../flows/running-exports.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { listAllSubscriptionsOfCall } from '../subscriptions/repository.ts';
import { getUsersByFiscalCodes } from '../users/lookup.ts';
import { getPlan, savePlan } from '../enrolment-csv/plan-repository.ts';
import { makeEnrolmentCsvUseCases } from '../enrolment-csv/use-cases.ts';
import { enrolmentCsvRoutes } from '../enrolment-csv/routes.ts';

/**
 * Export, template, preview and the start of 'Applica'. Applying runs in the background job function
 * (functions/jobs, kind 'enrolment-import': functions/enrolment-csv/import-apply.ts), which records the
 * ISEE and writes the subscriptions; this function only reads them and stores the preview.
 */
const enrolmentCsv = makeEnrolmentCsvUseCases({
  subscriptions: { listAllSubscriptionsOfCall },
  calls: { getCall },
  users: { getUsersByFiscalCodes },
  plans: { savePlan, getPlan },
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
  exports: runningExportsOf({ runningExportOf }),
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(enrolmentCsvRoutes, {
  exportEnrolments: ({ params }) => enrolmentCsv.exportEnrolments(params.id),
  enrolmentTemplate: () => enrolmentCsv.enrolmentTemplate(),
  importEnrolments: ({ params, body, actor }) => enrolmentCsv.importEnrolments(params.id, body, actor),
  applyEnrolmentImport: ({ params, body, actor }) => enrolmentCsv.startImport(params.id, body, actor),
  enrolmentImportStatus: ({ params }) => enrolmentCsv.importStatus(params.id),
});
