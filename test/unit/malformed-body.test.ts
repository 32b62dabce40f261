import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { resources, routeKey, routes, type RouteDef } from '../../functions/routes.ts';
import type { ApiEvent } from '../../functions/http/handler.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';

/**
 * A body that is not JSON is refused on every route of the table with 400, problem+json and the Italian
 * message, before any use case runs: the routes that take no body (the job starts) included.
 */
// What CDK gives the functions at deploy (their cold start checks it): any value, nothing is called.
Object.assign(process.env, {
  DOCUMENTS_BUCKET: 'documents',
  EXPORTS_BUCKET: 'exports',
  MAIL_FROM: 'portale@comune.fantasia.it',
  SUPPORT_EMAIL: 'supporto@comune.fantasia.it',
  MYPAY_ENDPOINT: 'http://127.0.0.1:9/mypay',
  MYPAY_COD_IPA: 'C_TEST',
  MYPAY_PASSWORD: 'unused',
  IO_BASE_URL: 'http://127.0.0.1:9/io',
  IO_API_KEY: 'unused',
  PORTAL_URL: 'https://servizisociali.comune.fantasia.it',
  OPENAPI_FILE: path.join(mkdtempSync(path.join(os.tmpdir(), 'portale-openapi-')), 'openapi.json'),
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name === 'TABLE_NAME')),
});
writeFileSync(process.env.OPENAPI_FILE!, '{"openapi":"3.0.3","paths":{}}');
type Handler = (event: ApiEvent, context: typeof lambdaContext) => Promise<APIGatewayProxyStructuredResultV2>;
const handlers = Object.fromEntries(
  await Promise.all(
    resources.map(
      async (resource) =>
        [resource, ((await import(`../../functions/entry/${resource}.ts`)) as { handler: Handler }).handler] as const,
    ),
  ),
) as Record<(typeof resources)[number], Handler>;

/** A caller the route lets in, so the refusal is the body's and not the access check's. */
const claimsFor = (route: RouteDef) => {
  if (route.access === 'public') return undefined;
  if (route.access === 'signed-in') return claimsOf.citizen;
  return route.access.includes('OPERATOR')
    ? claimsOf.operator
    : route.access.includes('CITIZEN')
      ? claimsOf.citizen
      : claimsOf.delegate;
};
const paramsOf = (route: RouteDef) =>
  Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, 'x1']));

describe('a malformed JSON body', () => {
  it.each(routes.map((route) => [routeKey(route), route] as const))(
    'is refused with 400 on %s',
    async (_key, route) => {
      const response = await handlers[route.resource](
        apiEvent(routeKey(route), { claims: claimsFor(route), body: '{"nome": ', pathParameters: paramsOf(route) }),
        lambdaContext,
      );
      expect(response.statusCode).toBe(400);
      expect(response.headers?.['content-type']).toBe('application/problem+json');
      expect(JSON.parse(response.body!)).toMatchObject({
        status: 400,
        detail: 'Il corpo della richiesta non è un JSON valido.',
      });
    },
  );

  it('covers the job starts that take no body, which still accept an empty one', async () => {
    const starts = routes.filter((r: RouteDef) => r.method === 'POST' && !r.body);
    expect(starts.map(routeKey)).toEqual(
      expect.arrayContaining(['POST /api/isee-expiry', 'POST /api/isee-expiry/new-year']),
    );
    const bodyless = apiEvent('GET /api/isee-expiry', { claims: claimsOf.operator, body: '  ' });
    const response = await handlers
      .isee(bodyless, lambdaContext)
      .catch((error: Error) => ({ statusCode: 0, body: error.message }));
    expect(response.statusCode).not.toBe(400);
  });
});
