import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as callRepository from '../calls/repository.ts';
import * as bandRepository from '../bands/repository.ts';
import { makeBandUseCases } from '../bands/use-cases.ts';
import { bandRoutes } from '../bands/routes.ts';

const bands = makeBandUseCases({
  bands: bandRepository,
  calls: callRepository,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

export const handler = resourceHandler(bandRoutes, {
  listBands: ({ query }) => bands.listBands(query),
  getBand: ({ params }) => bands.getBand(params.id),
  createBand: ({ body, actor }) => bands.createBand(body, actor),
  updateBand: ({ params, body, actor }) => bands.updateBand(params.id, body, actor),
  deleteBand: ({ params, actor }) => bands.deleteBand(params.id, actor),
});
