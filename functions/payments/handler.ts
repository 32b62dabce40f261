import { resourceHandler } from '../http/handler.ts';
import { paymentRoutes } from './routes.ts';
import { payments } from './wired.ts';

export const handler = resourceHandler(paymentRoutes, {
  generatePositions: ({ params, body, actor }) => payments.generatePositions(params.id, body, actor!),
  positionsCsv: ({ params, body, actor }) => payments.positionsCsv(params.id, body, actor!),
  listPositions: ({ params, query }) => payments.listPositions(params.id, query),
});
