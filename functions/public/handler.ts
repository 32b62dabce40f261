import { openApiDocument } from '../http/openapi.ts';
import { resourceHandler } from '../http/handler.ts';
import { publicRoutes } from './routes.ts';

const document = openApiDocument();

export const handler = resourceHandler(publicRoutes, {
  getOpenApi: async () => document,
});
