import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { fill, messages } from '../../functions/domain/messages.ts';
import type { ApiEvent } from '../../functions/http/handler.ts';
import { routes, routeKey, type Resource, type RouteDef } from '../../functions/routes.ts';
import { timeoutOf } from '../function-access.ts';

/**
 * The local stand-in for API Gateway's HTTP API: it matches a request against the route table,
 * verifies the bearer token like the JWT authorizer (signature, issuer, audience, expiry) on every
 * non-public route, builds the same APIGatewayProxyEventV2 and calls the resource's real Lambda handler.
 */

export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<APIGatewayProxyResultV2>;

/** API Gateway HTTP APIs refuse bodies above 10 MB before any Lambda runs. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  paramNames: string[];
}

function compile(route: RouteDef): CompiledRoute {
  const paramNames: string[] = [];
  const segments = route.path.split('/').map((segment) => {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (!param) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    paramNames.push(param[1]);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${segments.join('/')}$`), paramNames };
}

const compiled = (routes as readonly RouteDef[]).map(compile);

/** The route a method and path lead to, with its path parameters; null when none (API Gateway's 404). */
export function matchRoute(method: string, pathname: string) {
  for (const { route, pattern, paramNames } of compiled) {
    if (route.method !== method) continue;
    const match = pattern.exec(pathname);
    if (match) {
      const params = Object.fromEntries(paramNames.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
      return { route, params };
    }
  }
  return null;
}

/** API Gateway hands claims to the Lambda as strings; arrays become "[a b]". */
export function gatewayClaims(payload: JWTPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    claims[name] = Array.isArray(value)
      ? `[${value.join(' ')}]`
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  }
  return claims;
}

function sendProblem(res: ServerResponse, status: number, title: string, detail: string) {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'about:blank', title, status, detail }));
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > GATEWAY_MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isTextual = (contentType: string | undefined) =>
  !contentType || /^(text\/|application\/(json|problem\+json|x-www-form-urlencoded|xml))/.test(contentType);

export interface ApiServerOptions {
  issuer: string;
  audience: string;
  handlers: Record<Resource, LambdaHandler>;
  /**
   * Each resource's function timeout in seconds (lib/function-access.ts timeoutOf, the one the CDK deploys). Always
   * the handler's `getRemainingTimeInMillis`; with `cutAtTimeout` an invocation still running then is also cut, as
   * Lambda cuts it, and API Gateway answers 500 (a function error). Unlike Lambda this process cannot freeze the
   * cut invocation: its code runs on, and what it writes afterwards still lands.
   */
  timeoutSeconds?: (resource: Resource) => number;
  cutAtTimeout?: boolean;
}

/** Lambda's error for an invocation cut at its timeout, as its log shows it. */
export const invocationTimedOut = (seconds: number) =>
  Object.assign(new Error(`Task timed out after ${seconds.toFixed(2)} seconds`), { name: 'Sandbox.Timedout' });

/** A request listener for /api/*; mount it on any node http server. */
export function createApiListener({
  issuer,
  audience,
  handlers,
  timeoutSeconds = timeoutOf,
  cutAtTimeout = false,
}: ApiServerOptions) {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));

  async function verify(authorization: string | undefined): Promise<JWTPayload | null> {
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience });
      return payload;
    } catch {
      return null;
    }
  }

  return async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const found = matchRoute(method, url.pathname);
    if (!found) return sendProblem(res, 404, 'Non trovato', messages.notFound);

    const body = await readBody(req);
    if (body === 'too-large') {
      // Stop reading and do not let the client reuse a connection with half a body on it.
      res.setHeader('connection', 'close');
      sendProblem(res, 413, 'Richiesta troppo grande', fill(messages.payloadTooLarge, { limit: '10 MB' }));
      req.resume();
      return;
    }

    let claims: Record<string, string> | undefined;
    if (found.route.access !== 'public') {
      const payload = await verify(req.headers.authorization);
      if (!payload) return sendProblem(res, 401, 'Non autenticato', messages.unauthorized);
      claims = gatewayClaims(payload);
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
    }
    const query: Record<string, string> = {};
    for (const key of new Set(url.searchParams.keys())) query[key] = url.searchParams.getAll(key).join(',');
    const textual = isTextual(headers['content-type']);
    const requestId = randomUUID();
    const now = new Date();

    const event: ApiEvent = {
      version: '2.0',
      routeKey: routeKey(found.route),
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      cookies: req.headers.cookie?.split(/;\s*/),
      headers,
      queryStringParameters: Object.keys(query).length ? query : undefined,
      pathParameters: Object.keys(found.params).length ? found.params : undefined,
      body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: body.length > 0 && !textual,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'local',
        http: {
          method,
          path: url.pathname,
          protocol: 'HTTP/1.1',
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
          userAgent: headers['user-agent'] ?? '',
        },
        requestId,
        routeKey: routeKey(found.route),
        stage: '$default',
        time: now.toUTCString(),
        timeEpoch: now.getTime(),
        authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: claims ?? {}, scopes: [] } },
      },
    } as ApiEvent;

    const handler = handlers[found.route.resource];
    const seconds = timeoutSeconds(found.route.resource);
    const deadline = Date.now() + seconds * 1000;
    const context = {
      awsRequestId: requestId,
      functionName: `local-${found.route.resource}`,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${found.route.resource}`,
      memoryLimitInMB: '512',
      logGroupName: `/aws/lambda/local-${found.route.resource}`,
      logStreamName: 'local',
      callbackWaitsForEmptyEventLoop: false,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    } as Context;

    let timer: NodeJS.Timeout | undefined;
    try {
      const invocation = handler(event, context);
      const result = cutAtTimeout
        ? await Promise.race([
            invocation,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(invocationTimedOut(seconds)), seconds * 1000);
              // The cut invocation runs on unobserved: its own later failure must not crash the stack.
              invocation.catch(() => undefined);
            }),
          ])
        : await invocation;
      const structured = typeof result === 'string' ? { statusCode: 200, body: result } : result;
      const responseHeaders: Record<string, string | number | boolean> = { ...(structured.headers ?? {}) };
      res.writeHead(structured.statusCode ?? 200, responseHeaders as Record<string, string>);
      const payload = structured.body ?? '';
      res.end(structured.isBase64Encoded ? Buffer.from(payload, 'base64') : payload);
    } catch (error) {
      // API Gateway answers 500 when the integration fails; the handler itself maps every known error.
      if ((error as Error).name === 'Sandbox.Timedout')
        console.warn(`${requestId} ${found.route.resource}: ${(error as Error).message}`);
      sendProblem(res, 500, 'Errore interno', messages.generic);
    } finally {
      clearTimeout(timer);
    }
  };
}
