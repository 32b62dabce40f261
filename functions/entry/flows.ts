import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { systemClock } from '../adapters/ports.ts';
import { getBand } from '../bands/repository.ts';
import { getCall } from '../calls/repository.ts';
import { getConfiguration } from '../configuration/repository.ts';
import { isJobRunning, SYNC_JOB } from '../domain/jobs.ts';
import { getJob } from '../jobs/repository.ts';
import { hasLiveCheckouts } from '../payments/checkouts.ts';
import { completeConfiguration } from '../domain/configuration.ts';
import { NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import { resourceHandler } from '../http/handler.ts';
import { listPositionsOfMonth } from '../positions/repository.ts';
import { makeMonthPlanner } from '../payments/use-cases.ts';
import { listApprovedSubscriptionsOfCall } from '../subscriptions/repository.ts';
import { getUserItems } from '../users/repository.ts';
import * as flowRepository from '../flows/repository.ts';
import { flowRoutes } from '../flows/routes.ts';
import { stepFunctionsRunner } from '../flows/runner.ts';
import { makeFlowUseCases } from '../flows/use-cases.ts';

/**
 * What a month would send now, planned as its generation would (nothing written): 'Invia a MyPay' asks first,
 * and keeps the plan in the exports bucket for the flow's Prepare.
 */
const planner = makeMonthPlanner({ subscriptions: { listApprovedSubscriptionsOfCall }, bands: { getBand }, users: { getUserItems }, positions: { listPositionsOfMonth }, exportFiles: s3ExportFiles });

const flows = makeFlowUseCases({
  flows: flowRepository,
  configuration: { requireComplete: async () => completeConfiguration(await getConfiguration()) },
  calls: { getCall },
  positions: {
    hasLiveCheckouts,
    async pendingCount({ callId, ...request }) {
      const call = await getCall(callId);
      if (!call) throw new NotFoundError(messages.call.notFound);
      return planner.pendingExportCount(call, request, systemClock.now().toISOString());
    },
  },
  exportFiles: s3ExportFiles,
  runner: stepFunctionsRunner,
  positionsSync: { isRunning: async (callId) => isJobRunning(await getJob(SYNC_JOB, callId), systemClock.now()) },
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(flowRoutes, {
  startExport: ({ params, body, actor }) => flows.startExport(params.id, body, actor),
  listFlows: ({ query }) => flows.listFlows(query),
  getFlow: ({ params }) => flows.getFlow(params.id),
  restartFlow: ({ params, actor }) => flows.restartFlow(params.id, actor),
  getFlowFile: ({ params }) => flows.flowFileLink(params.id, params.kind),
});
