import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi.ts';
import { resources, routeKey, routes } from '../../functions/routes.ts';
import { matchRoute } from '../../lib/local/api-server.ts';
import type { ScratchApp } from '../../lib/scratch-app.ts';
import { sharedPortal } from '../support/portal-app.ts';

/**
 * One route table (functions/routes.ts), several readers that must agree on it: the cloud stack (here),
 * the OpenAPI document and the local API server (all here).
 */
let portal: ScratchApp;
let api: Template;

beforeAll(() => {
  portal = sharedPortal({ bundle: false });
  api = Template.fromStack(portal.api);
});
afterAll(() => portal.dispose());

const tableKeys = routes.map(routeKey).sort();

describe('route table ↔ cloud stack', () => {
  it('has every route key of the table in API Gateway, and nothing else', () => {
    const stackKeys = Object.values(api.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(stackKeys.sort()).toEqual(tableKeys);
  });

  it('gives every resource of the table its function, and every function a resource with routes', () => {
    expect(Object.keys(portal.api.functions).sort()).toEqual([...resources].sort());
    for (const resource of resources)
      expect(
        routes.some((r) => r.resource === resource),
        resource,
      ).toBe(true);
  });

  it('puts the authorizer on exactly the routes that are not public', () => {
    const byKey = new Map(
      Object.values(api.findResources('AWS::ApiGatewayV2::Route')).map((r) => [
        r.Properties.RouteKey,
        r.Properties.AuthorizationType,
      ]),
    );
    for (const route of routes)
      expect(byKey.get(routeKey(route)), routeKey(route)).toBe(route.access === 'public' ? 'NONE' : 'JWT');
  });
});

describe('route table ↔ OpenAPI document', () => {
  const document = openApiDocument();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation: operation as Record<string, unknown>,
    })),
  );

  it('documents every route once, under the route table’s operationId', () => {
    expect(operations.map((o) => o.key).sort()).toEqual(tableKeys);
    for (const route of routes) {
      expect(operations.find((o) => o.key === routeKey(route))?.operation.operationId, routeKey(route)).toBe(
        route.operationId,
      );
    }
  });

  it('marks as needing no token exactly the public routes', () => {
    for (const route of routes) {
      const { operation } = operations.find((o) => o.key === routeKey(route))!;
      expect(operation.security, routeKey(route)).toEqual(route.access === 'public' ? [] : undefined);
    }
  });
});

describe('route table ↔ local API server', () => {
  it('routes a concrete request for every route to that route, and nothing to an unknown one', () => {
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, 'abc-123');
      const found = matchRoute(route.method, path);
      expect(found?.route.operationId, routeKey(route)).toBe(route.operationId);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      if (names.length > 0) expect(found?.params).toEqual(Object.fromEntries(names.map((name) => [name, 'abc-123'])));
    }
    expect(matchRoute('PATCH', '/api/bands')).toBeNull();
    expect(matchRoute('GET', '/api/bands/a/b')).toBeNull();
  });
});
