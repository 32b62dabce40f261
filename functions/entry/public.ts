import { readFileSync } from 'node:fs';
import { resourceHandler } from '../http/handler.ts';
import { publicRoutes } from '../public/routes.ts';

/**
 * The OpenAPI document, generated from the route table and the schemas at build time (lib/openapi-file.ts): in the
 * cloud the file beside the bundle, locally the one OPENAPI_FILE names. Read once, at cold start.
 */
const document: unknown = JSON.parse(
  readFileSync(process.env.OPENAPI_FILE || new URL('./openapi.json', import.meta.url), 'utf8'),
);

export const handler = resourceHandler(publicRoutes, {
  getOpenApi: async () => document,
});
