import { idParamsSchema, pageOf, pageQuerySchema } from '../domain/validation.ts';
import { serviceInputSchema, serviceSchema } from '../domain/services.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/** Services (servizi): the routes of the services function (the full table is functions/routes.ts). */
export const serviceRoutes = [
  {
    operationId: 'listServices',
    method: 'GET',
    path: '/api/services',
    resource: 'services',
    access: 'public',
    summary: 'Elenco dei servizi (pubblico: la pagina iniziale li mostra)',
    query: pageQuerySchema,
    status: 200,
    response: pageOf(serviceSchema),
  },
  {
    operationId: 'getService',
    method: 'GET',
    path: '/api/services/{id}',
    resource: 'services',
    access: 'public',
    summary: 'Dettaglio di un servizio',
    params: idParamsSchema,
    status: 200,
    response: serviceSchema,
  },
  {
    operationId: 'createService',
    method: 'POST',
    path: '/api/services',
    resource: 'services',
    access: OPERATOR,
    summary: 'Nuovo servizio',
    body: serviceInputSchema,
    status: 201,
    response: serviceSchema,
  },
  {
    operationId: 'updateService',
    method: 'PUT',
    path: '/api/services/{id}',
    resource: 'services',
    access: OPERATOR,
    summary: 'Modifica di un servizio',
    params: idParamsSchema,
    body: serviceInputSchema,
    status: 200,
    response: serviceSchema,
  },
  {
    operationId: 'deleteService',
    method: 'DELETE',
    path: '/api/services/{id}',
    resource: 'services',
    access: OPERATOR,
    summary: 'Eliminazione di un servizio senza bandi associati',
    params: idParamsSchema,
    status: 204,
  },
] as const satisfies readonly RouteDef<'services'>[];
