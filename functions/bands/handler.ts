import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { messages } from '../domain/messages.ts';
import { recordAudit } from '../adapters/audit-log.ts';
import { resourceHandler } from '../http/handler.ts';
import { bandRoutes } from './routes.ts';
import * as bands from './repository.ts';

export const handler = resourceHandler(bandRoutes, {
  listBands: ({ query }) => bands.listBands(query),

  getBand: async ({ params }) => (await bands.getBand(params.id)) ?? Promise.reject(new NotFoundError(messages.band.notFound)),

  createBand: async ({ body, actor }) => {
    const band = await bands.createBand(body);
    await recordAudit({ actor: actor!, entity: 'band', id: band.id, action: 'create', before: null, after: band });
    return band;
  },

  updateBand: async ({ params, body, actor }) => {
    const before = await bands.getBand(params.id);
    const after = before && (await bands.updateBand(params.id, body));
    if (!after) throw new NotFoundError(messages.band.notFound);
    await recordAudit({ actor: actor!, entity: 'band', id: after.id, action: 'update', before, after });
    return after;
  },

  deleteBand: async ({ params, actor }) => {
    const before = await bands.getBand(params.id);
    if (!before) throw new NotFoundError(messages.band.notFound);
    if (await bands.bandIsUsedByCalls(params.id)) throw new ConflictError(messages.band.inUse);
    if (!(await bands.deleteBand(params.id))) throw new NotFoundError(messages.band.notFound);
    await recordAudit({ actor: actor!, entity: 'band', id: params.id, action: 'delete', before, after: null });
  },
});
