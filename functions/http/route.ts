import type * as z from 'zod/mini';
import type { Role } from '../domain/roles.ts';

/** One Lambda per resource; each lists its routes in functions/<resource>/routes.ts. */
export const resources = [
  'bands',
  'services',
  'profile',
  'public',
  'uploads',
  'calls',
  'subscriptions',
  'enrolments',
  'enrolment-csv',
  'users',
  'isee',
  'configuration',
  'payments',
  'flows',
  'tickets',
  'notices',
  'user-positions',
  'reporting',
  'payment-list',
  'notice-downloads',
] as const;
export type Resource = (typeof resources)[number];

/** 'public': no token needed; 'signed-in': any role; otherwise the roles allowed. */
export type Access = 'public' | 'signed-in' | readonly Role[];

/** One API route: each resource lists its own in functions/<resource>/routes.ts. */
export interface RouteDef<R extends Resource = Resource> {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  resource: R;
  access: Access;
  summary: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** What a larger body is told, when the generic 'il limite è di N KB' would speak of the request rather than of what the person chose (a file). */
  tooLargeMessage?: string;
  status: 200 | 201 | 202 | 204;
  response?: z.ZodMiniType;
  /** Further problem statuses the route answers besides the usual ones (e.g. 409, 429), for the OpenAPI document. */
  problems?: readonly number[];
}

export const OPERATOR: readonly Role[] = ['OPERATOR'];

/** The routeKey API Gateway puts in every event: "GET /api/bands/{id}". */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>) => `${route.method} ${route.path}`;
