import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { request } from '../support/api.ts';

describe('the OpenAPI document the API serves', () => {
  it('describes every route of the route table with its schemas', async () => {
    const { status, json: document } = await request('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(document.openapi).toMatch(/^3\./);
    for (const route of routes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
    }
    const create = document.paths['/api/bands'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'min', 'max', 'fixedCost']);
    expect(document.paths['/api/bands'].get.security).toEqual([]);
  });
});
