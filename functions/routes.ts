import { bandRoutes } from './bands/routes.ts';
import { callRoutes } from './calls/routes.ts';
import { flowRoutes } from './flows/routes.ts';
import { configurationRoutes } from './configuration/routes.ts';
import { enrolmentCsvRoutes } from './enrolment-csv/routes.ts';
import { enrolmentRoutes } from './enrolments/routes.ts';
import { iseeRoutes } from './isee/routes.ts';
import { noticeDownloadRoutes } from './notice-downloads/routes.ts';
import { noticeRoutes } from './notices/routes.ts';
import { paymentListRoutes } from './payment-list/routes.ts';
import { paymentRoutes } from './payments/routes.ts';
import { profileRoutes } from './profile/routes.ts';
import { publicRoutes } from './public/routes.ts';
import { reportingRoutes } from './reporting/routes.ts';
import { serviceRoutes } from './services/routes.ts';
import { subscriptionRoutes } from './subscriptions/routes.ts';
import { ticketRoutes } from './tickets/routes.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { userPositionRoutes } from './user-positions/routes.ts';
import { userRoutes } from './users/routes.ts';
import type { Resource, RouteDef } from './http/route.ts';

export { resources, routeKey, type Access, type Resource, type RouteDef } from './http/route.ts';

/**
 * The one route table, assembled from each resource's own list (functions/<resource>/routes.ts, which is
 * all that resource's Lambda bundles). The CDK stack (routes and Lambdas), the local API server, the
 * authorization check and the OpenAPI document are all derived from this table.
 */

export const routes = [
  ...bandRoutes,
  ...serviceRoutes,
  ...profileRoutes,
  ...userRoutes,
  ...iseeRoutes,
  ...uploadRoutes,
  ...callRoutes,
  ...subscriptionRoutes,
  ...enrolmentRoutes,
  ...enrolmentCsvRoutes,
  ...publicRoutes,
  ...flowRoutes,
  ...configurationRoutes,
  ...paymentRoutes,
  ...ticketRoutes,
  ...noticeRoutes,
  ...userPositionRoutes,
  ...reportingRoutes,
  ...paymentListRoutes,
  ...noticeDownloadRoutes,
] as const satisfies readonly RouteDef[];

export type Route = (typeof routes)[number];
export type OperationId = Route['operationId'];

export const routesOf = (resource: Resource): RouteDef[] => routes.filter((r) => r.resource === resource);
