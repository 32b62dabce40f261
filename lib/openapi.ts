import * as z from 'zod/mini';
import { routes, type RouteDef } from '../functions/routes.ts';

const problemSchema = {
  type: 'object',
  description:
    'application/problem+json con il messaggio in italiano in `detail` e, per i form, `errors` campo → messaggio',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['title', 'status', 'detail'],
};

const jsonSchema = (schema: z.ZodMiniType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' });

function parameters(route: RouteDef) {
  const list: object[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
      properties?: Record<string, object>;
      required?: string[];
    };
    for (const [name, s] of Object.entries(properties)) {
      list.push({ name, in: where, required: where === 'path' || required.includes(name), schema: s });
    }
  }
  return list;
}

function operation(route: RouteDef) {
  const problem = {
    description: 'Errore',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  const responses: Record<string, object> = {
    [route.status]: route.response
      ? { description: 'OK', content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } }
      : { description: route.status === 204 ? 'Nessun contenuto' : 'OK' },
    400: problem,
    500: problem,
  };
  if (route.access !== 'public') Object.assign(responses, { 401: problem, 403: problem });
  if (route.params) responses[404] = problem;
  if (route.body) responses[413] = problem;
  for (const status of route.problems ?? []) responses[status] = problem;
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.resource],
    ...(route.access === 'public' ? { security: [] } : {}),
    'x-roles': route.access,
    parameters: parameters(route),
    ...(route.body
      ? {
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI document, generated from the route table and the zod schemas. */
export function openApiDocument() {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes as readonly RouteDef[]) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Portale dei servizi sociali — API',
      version: '1.0.0',
      description: 'API del portale dei servizi sociali del Comune. Tutti i messaggi sono in italiano.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Problem: problemSchema },
    },
    paths,
  };
}
