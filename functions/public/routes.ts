import { type RouteDef } from '../http/route.ts';

/** Public documents: the routes of the public function (the full table is functions/routes.ts). */
export const publicRoutes = [
  {
    operationId: 'getOpenApi',
    method: 'GET',
    path: '/api/openapi.json',
    resource: 'public',
    access: 'public',
    summary: 'Questo documento OpenAPI',
    status: 200,
  },
] as const satisfies readonly RouteDef<'public'>[];
