import type * as z from 'zod';
import { bandInputSchema, bandSchema } from './domain/bands.ts';
import { meSchema } from './domain/profile.ts';
import type { Role } from './domain/roles.ts';
import { serviceInputSchema, serviceSchema } from './domain/services.ts';
import { uploadRequestSchema, uploadTicketSchema } from './domain/files.ts';
import { idParamsSchema, pageOf, pageQuerySchema } from './domain/validation.ts';

/**
 * The one route table. The CDK stack (routes and Lambdas), the local API server, the authorization
 * check and the OpenAPI document are all derived from it.
 */
export const resources = ['bands', 'services', 'profile', 'public', 'uploads'] as const;
export type Resource = (typeof resources)[number];

/** 'public': no token needed; 'signed-in': any role; otherwise the roles allowed. */
export type Access = 'public' | 'signed-in' | readonly Role[];

export interface RouteDef {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  resource: Resource;
  access: Access;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  status: 200 | 201 | 204;
  response?: z.ZodType;
}

const OPERATOR: readonly Role[] = ['OPERATOR'];

export const routes = [
  // ISEE bands (fasce)
  { operationId: 'listBands', method: 'GET', path: '/api/bands', resource: 'bands', access: 'public', summary: 'Elenco delle fasce ISEE (pubblico: serve alla pagina pubblica del bando)', query: pageQuerySchema, status: 200, response: pageOf(bandSchema) },
  { operationId: 'getBand', method: 'GET', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Dettaglio di una fascia ISEE', params: idParamsSchema, status: 200, response: bandSchema },
  { operationId: 'createBand', method: 'POST', path: '/api/bands', resource: 'bands', access: OPERATOR, summary: 'Nuova fascia ISEE', body: bandInputSchema, status: 201, response: bandSchema },
  { operationId: 'updateBand', method: 'PUT', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Modifica di una fascia ISEE', params: idParamsSchema, body: bandInputSchema, status: 200, response: bandSchema },
  { operationId: 'deleteBand', method: 'DELETE', path: '/api/bands/{id}', resource: 'bands', access: OPERATOR, summary: 'Rimozione di una fascia ISEE non usata da alcun bando', params: idParamsSchema, status: 204 },
  // Services (servizi)
  { operationId: 'listServices', method: 'GET', path: '/api/services', resource: 'services', access: 'public', summary: 'Elenco dei servizi (pubblico: la pagina iniziale li mostra)', query: pageQuerySchema, status: 200, response: pageOf(serviceSchema) },
  { operationId: 'getService', method: 'GET', path: '/api/services/{id}', resource: 'services', access: 'public', summary: 'Dettaglio di un servizio', params: idParamsSchema, status: 200, response: serviceSchema },
  { operationId: 'createService', method: 'POST', path: '/api/services', resource: 'services', access: OPERATOR, summary: 'Nuovo servizio', body: serviceInputSchema, status: 201, response: serviceSchema },
  { operationId: 'updateService', method: 'PUT', path: '/api/services/{id}', resource: 'services', access: OPERATOR, summary: 'Modifica di un servizio', params: idParamsSchema, body: serviceInputSchema, status: 200, response: serviceSchema },
  { operationId: 'deleteService', method: 'DELETE', path: '/api/services/{id}', resource: 'services', access: OPERATOR, summary: 'Eliminazione di un servizio senza bandi associati', params: idParamsSchema, status: 204 },
  // Profile of whoever is signed in
  { operationId: 'getMe', method: 'GET', path: '/api/me', resource: 'profile', access: 'signed-in', summary: 'Ruolo e dati della persona che ha eseguito il login', status: 200, response: meSchema },
  // File uploads: a presigned POST straight to the documents bucket; the feature that uses the file claims it
  { operationId: 'createUpload', method: 'POST', path: '/api/uploads', resource: 'uploads', access: ['OPERATOR', 'CITIZEN'], summary: 'Autorizzazione a caricare un file (PDF, JPEG, PNG) direttamente nello storage', body: uploadRequestSchema, status: 201, response: uploadTicketSchema },
  // Public documents
  { operationId: 'getOpenApi', method: 'GET', path: '/api/openapi.json', resource: 'public', access: 'public', summary: 'Questo documento OpenAPI', status: 200 },
] as const satisfies readonly RouteDef[];

export type Route = (typeof routes)[number];
export type OperationId = Route['operationId'];
export type OperationsOf<R extends Resource> = Extract<Route, { resource: R }>['operationId'];

/** The routeKey API Gateway puts in every event: "GET /api/bands/{id}". */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;

export const routeByKey: ReadonlyMap<string, RouteDef> = new Map(routes.map((r) => [routeKey(r), r as RouteDef]));

export const routesOf = (resource: Resource): RouteDef[] => routes.filter((r) => r.resource === resource);
