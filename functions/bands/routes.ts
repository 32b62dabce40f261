import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { bandInputSchema, bandSchema } from '../domain/bands.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** ISEE bands (fasce): the routes of the bands function (the full table is functions/routes.ts). */
export const bandRoutes = [
  {
    operationId: 'listBands',
    method: 'GET',
    path: '/api/bands',
    resource: 'bands',
    access: 'public',
    summary: 'Elenco delle fasce ISEE (pubblico: serve alla pagina pubblica del bando)',
    query: pageQuerySchema,
    status: 200,
    response: pageOf(bandSchema),
  },
  {
    operationId: 'getBand',
    method: 'GET',
    path: '/api/bands/{id}',
    resource: 'bands',
    access: OPERATOR,
    summary: 'Dettaglio di una fascia ISEE',
    params: idParamsSchema,
    status: 200,
    response: bandSchema,
  },
  {
    operationId: 'createBand',
    method: 'POST',
    path: '/api/bands',
    resource: 'bands',
    access: OPERATOR,
    summary: 'Nuova fascia ISEE',
    body: bandInputSchema,
    status: 201,
    response: bandSchema,
  },
  {
    operationId: 'updateBand',
    method: 'PUT',
    path: '/api/bands/{id}',
    resource: 'bands',
    access: OPERATOR,
    summary: 'Modifica di una fascia ISEE',
    params: idParamsSchema,
    body: bandInputSchema,
    status: 200,
    response: bandSchema,
  },
  {
    operationId: 'deleteBand',
    method: 'DELETE',
    path: '/api/bands/{id}',
    resource: 'bands',
    access: OPERATOR,
    summary: 'Rimozione di una fascia ISEE non usata da alcun bando',
    params: idParamsSchema,
    status: 204,
  },
] as const satisfies readonly RouteDef<'bands'>[];
