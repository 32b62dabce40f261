import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { getCall } from '../calls/repository.ts';
import { getConfiguration } from '../configuration/repository.ts';
import { isJobRunning, SYNC_JOB } from '../domain/jobs.ts';
import { getJob } from '../jobs/repository.ts';
import { hasLiveCheckouts } from '../payments/checkouts.ts';
import { requirePlatformConfiguration } from '../adapters/platform-configuration.ts';
import { resourceHandler } from '../http/handler.ts';
import * as flowRepository from '../flows/repository.ts';
import { flowRoutes } from '../flows/routes.ts';
import { stepFunctionsRunner } from '../flows/runner.ts';
import { makeFlowUseCases } from '../flows/use-cases.ts';
import { paymentPlatformName } from '../adapters/payment-platform-name.ts';

const flows = makeFlowUseCases({
  flows: flowRepository,
  configuration: { requireComplete: requirePlatformConfiguration(getConfiguration) },
  calls: { getCall },
  positions: { hasLiveCheckouts },
  exportFiles: s3ExportFiles,
  runner: stepFunctionsRunner,
  positionsSync: { isRunning: async (callId) => isJobRunning(await getJob(SYNC_JOB, callId), systemClock.now()) },
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
  platform: paymentPlatformName(),
});

export const handler = resourceHandler(flowRoutes, {
  startExport: ({ params, body, actor }) => flows.startExport(params.id, body, actor),
  listFlows: ({ query }) => flows.listFlows(query),
  getFlow: ({ params }) => flows.getFlow(params.id),
  restartFlow: ({ params, actor }) => flows.restartFlow(params.id, actor),
  getFlowFile: ({ params }) => flows.flowFileLink(params.id, params.kind),
});
