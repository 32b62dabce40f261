import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiListener, type LambdaHandler } from '../../lib/local/api-server.ts';
import { messages } from '../../functions/domain/messages.ts';
import type { Resource } from '../../functions/routes.ts';

/**
 * The local API Gateway cuts a function still running at its timeout, as Lambda does, and API Gateway then answers
 * 500: a handler that outlives its limit fails locally as in the cloud, instead of answering late. Here the public
 * route's function (GET /api/openapi.json, no token needed) with a limit of a fifth of a second.
 */
let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(publicHandler: LambdaHandler, cutAtTimeout: boolean) {
  const handlers = new Proxy({} as Record<Resource, LambdaHandler>, { get: () => publicHandler });
  const listener = createApiListener({
    issuer: 'http://127.0.0.1:1',
    audience: 'api',
    handlers,
    timeoutSeconds: () => 0.2,
    cutAtTimeout,
  });
  server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A function that answers after `ms`, and what its context said was left of its time when it started. */
const answeringAfter = (ms: number) => {
  const seen: number[] = [];
  const handler: LambdaHandler = (_event, context: Context) => {
    seen.push(context.getRemainingTimeInMillis());
    return new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, body: '{"ok":true}' }), ms));
  };
  return { handler, seen };
};

describe('the local API with functions cut at their deployed timeout', () => {
  it('answers 500 with the generic Italian message when the function outlives its timeout', async () => {
    const { handler, seen } = answeringAfter(5_000);
    expect(await serve(handler, true)).toEqual({
      status: 500,
      body: expect.objectContaining({ status: 500, detail: messages.generic }),
    });
    expect(seen[0]).toBeLessThanOrEqual(200);
  });

  it('answers as the function does when it ends inside its timeout', async () => {
    const { handler } = answeringAfter(0);
    expect(await serve(handler, true)).toEqual({ status: 200, body: { ok: true } });
  });

  it('without the cut, waits for a function past its timeout', async () => {
    const { handler } = answeringAfter(400);
    expect(await serve(handler, false)).toEqual({ status: 200, body: { ok: true } });
  });
});
