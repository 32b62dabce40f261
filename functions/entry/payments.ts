import { resourceHandler } from '../http/handler.ts';
import { paymentRoutes } from '../payments/routes.ts';
import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports/clock.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { paymentUseCases } from './wired-payments.ts';

/** The API's payments: the wired use cases, and the background jobs they start ('Sincronizza', the generation, the CSV). */
const payments = paymentUseCases({
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
});

export const handler = resourceHandler(paymentRoutes, {
  generatePositions: ({ params, body, actor }) => payments.startGeneration(params.id, body, actor),
  generationStatus: ({ params }) => payments.generationStatus(params.id),
  positionsCsv: ({ params, body, actor }) => payments.startCsv(params.id, body, actor),
  positionsCsvStatus: ({ params }) => payments.csvStatus(params.id),
  listPositions: ({ params, query }) => payments.listPositions(params.id, query),
  editPosition: ({ params, body, actor }) => payments.editPosition(params.id, body, actor),
  closeReconciliation: ({ params, body, actor }) => payments.closeReconciliation(params.id, body, actor),
  startPositionsSync: ({ params, actor }) => payments.startSync(params.id, actor),
  positionsSyncStatus: ({ params }) => payments.syncStatus(params.id),
});
