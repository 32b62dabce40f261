import * as z from 'zod/mini';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Actor } from '../../functions/domain/roles.ts';
import { resourceHandler } from '../../functions/http/handler.ts';
import { OPERATOR, type RouteDef } from '../../functions/http/route.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';

/*
 * Two halves. The type half is checked by `npx tsc -p tsconfig.json --noEmit`, not by vitest (which only
 * strips types): tsc is the test. Each `expectTypeOf` must hold and each `@ts-expect-error` must meet an
 * error, or tsc fails. The runtime half checks what makes the non-null actor true: the operation of a
 * protected route never runs for an anonymous caller.
 */

const nameSchema = z.object({ name: z.string() });
const idSchema = z.object({ id: z.string() });
const routes = [
  {
    operationId: 'readOpen',
    method: 'GET',
    path: '/api/open',
    resource: 'bands',
    access: 'public',
    summary: 'Pubblica',
    status: 200,
  },
  {
    operationId: 'readMine',
    method: 'GET',
    path: '/api/mine',
    resource: 'bands',
    access: 'signed-in',
    summary: 'Di chi è entrato',
    status: 200,
  },
  {
    operationId: 'rename',
    method: 'PUT',
    path: '/api/things/{id}',
    resource: 'bands',
    access: OPERATOR,
    summary: 'Solo operatori',
    params: idSchema,
    body: nameSchema,
    status: 200,
  },
] as const satisfies readonly RouteDef<'bands'>[];

const seen: { operationId: string; actor: Actor | null }[] = [];

const handler = resourceHandler(routes, {
  readOpen: async ({ actor, body, route }) => {
    expectTypeOf(actor).toEqualTypeOf<Actor | null>();
    expectTypeOf(body).toEqualTypeOf<undefined>();
    seen.push({ operationId: route.operationId, actor });
    return { ok: true };
  },
  readMine: async ({ actor, route }) => {
    expectTypeOf(actor).toEqualTypeOf<Actor>();
    seen.push({ operationId: route.operationId, actor });
    return { ok: true };
  },
  rename: async ({ actor, params, body, route }) => {
    expectTypeOf(actor).toEqualTypeOf<Actor>();
    expectTypeOf(params).toEqualTypeOf<{ id: string }>();
    expectTypeOf(body).toEqualTypeOf<{ name: string }>();
    // @ts-expect-error the body schema declares no 'age'
    void body.age;
    // @ts-expect-error the params schema declares no 'fileId'
    void params.fileId;
    seen.push({ operationId: route.operationId, actor });
    return { ok: true };
  },
});

// @ts-expect-error every route needs its operation ('rename' is missing)
resourceHandler(routes, { readOpen: async () => null, readMine: async () => null });

const call = async (...args: Parameters<typeof apiEvent>) => {
  seen.length = 0;
  const response = (await handler(apiEvent(...args), lambdaContext)) as { statusCode: number };
  return response.statusCode;
};

describe('handler inputs typed from their routes', () => {
  it('never runs a protected operation for an anonymous caller, or for claims without a subject', async () => {
    expect(await call('GET /api/mine')).toBe(401);
    expect(await call('PUT /api/things/{id}', { pathParameters: { id: 't1' }, body: { name: 'x' } })).toBe(401);
    expect(await call('GET /api/mine', { claims: { role: '[CITIZEN]', given_name: 'Maria' } })).toBe(401);
    expect(seen).toEqual([]);
  });

  it('gives a public operation no actor when nobody signed in, and a protected one the caller', async () => {
    expect(await call('GET /api/open')).toBe(200);
    expect(seen).toEqual([{ operationId: 'readOpen', actor: null }]);
    expect(
      await call('PUT /api/things/{id}', {
        claims: claimsOf.operator,
        pathParameters: { id: 't1' },
        body: { name: 'x' },
      }),
    ).toBe(200);
    expect(seen).toMatchObject([{ operationId: 'rename', actor: { sub: 'laura.bianchi', role: 'OPERATOR' } }]);
  });
});
