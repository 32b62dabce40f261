import { openApiDocument } from '../http/openapi.ts';
import { resourceHandler } from '../http/handler.ts';

const document = openApiDocument();

export const handler = resourceHandler('public', {
  getOpenApi: async () => document,
});
