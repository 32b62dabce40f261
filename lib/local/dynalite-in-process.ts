import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';

/**
 * The local functions run in the same process as dynalite: most of a DynamoDB call's cost here was the
 * loopback HTTP round trip (the SDK's HTTP client, the socket, dynalite's HTTP server), about ten times
 * dynalite's own work. This hands the SDK's signed request to dynalite's own request handler in memory
 * instead: the same handler the HTTP server runs (target, authorization header, JSON, validation, the
 * action, errors, x-amz-crc32), the same SDK client, middleware and signing on the functions' side.
 *
 * Only requests to a registered dynalite origin (`http://127.0.0.1:<port>`) are diverted, only in this
 * process, and only while that dynalite is open; every other SDK request (S3, Step Functions, SES…) and
 * every other process (the tests' own clients) still go over HTTP, and dynalite keeps listening on its port.
 */

type RequestListener = (req: EventEmitter, res: object) => void;

interface SdkHttpRequest {
  protocol: string;
  hostname: string;
  port?: number;
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

const require = createRequire(import.meta.url);
// The copy the SDK clients use (one in this tree: `npm ls @smithy/node-http-handler`).
const sdkRequire = createRequire(require.resolve('@aws-sdk/client-dynamodb'));
const { NodeHttpHandler } = sdkRequire('@smithy/node-http-handler');
const { HttpResponse, buildQueryString } = createRequire(sdkRequire.resolve('@smithy/node-http-handler'))(
  '@smithy/core/protocols',
);

/** A request as dynalite's handler reads it: what goes between threads when dynalite runs in its own. */
export interface DynaliteRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface DynaliteResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

type Handler = (request: DynaliteRequest) => Promise<DynaliteResponse>;

const handlers = new Map<string, Handler>();
let patched = false;

const originOf = (hostname: string, port: number | undefined) => `${hostname}:${port ?? 80}`;

/** The SDK's signed request as dynalite's handler reads it (lower-case headers, path and query, the body's bytes). */
function toDynaliteRequest(request: SdkHttpRequest): DynaliteRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host ??= originOf(request.hostname, request.port);
  const url = `${request.path || '/'}${request.query && Object.keys(request.query).length ? `?${buildQueryString(request.query)}` : ''}`;
  const body = request.body;
  if (body === undefined || body === null || body === '') return { method: request.method, url, headers };
  // The SDK's JSON body is a Uint8Array with string methods: a view of its bytes, not Buffer.from(body)
  // (which would go through its valueOf, a string).
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? body : undefined;
  if (!bytes) throw new Error('dynalite in process: a request body that is neither a string nor bytes');
  return { method: request.method, url, headers, body: bytes };
}

/** One request through dynalite's own request handler, without a socket. */
export function handleRequest(listener: RequestListener, request: DynaliteRequest): Promise<DynaliteResponse> {
  return new Promise((resolve, reject) => {
    const req = Object.assign(new EventEmitter(), {
      method: request.method,
      url: request.url,
      headers: request.headers,
    });
    const responseHeaders: Record<string, string> = {};
    const res = {
      statusCode: 200,
      setHeader(name: string, value: unknown) {
        responseHeaders[name.toLowerCase()] = String(value);
      },
      getHeader(name: string) {
        return responseHeaders[name.toLowerCase()];
      },
      end(body?: string | Uint8Array) {
        const bytes =
          body === undefined ? new Uint8Array() : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
        resolve({ statusCode: res.statusCode, headers: responseHeaders, body: bytes });
      },
    };
    try {
      listener(req, res);
      const body = request.body;
      if (body?.byteLength) req.emit('data', Buffer.from(body.buffer, body.byteOffset, body.byteLength));
      req.emit('end');
    } catch (error) {
      reject(error);
    }
  });
}

/** dynalite's request handler, the one its HTTP server runs. */
export function requestListenerOf(server: Server): RequestListener {
  const listener = server.listeners('request')[0] as RequestListener | undefined;
  if (!listener) throw new Error('dynalite has no request handler');
  return listener;
}

/**
 * Diverts the SDK's requests to `http://<hostname>:<port>` into `handler` instead of the network; returns the
 * function that stops it (before that dynalite closes).
 */
export function divertRequests(hostname: string, port: number, handler: Handler): () => void {
  const origin = originOf(hostname, port);
  handlers.set(origin, handler);
  if (!patched) {
    patched = true;
    const handle = NodeHttpHandler.prototype.handle;
    NodeHttpHandler.prototype.handle = function (
      this: unknown,
      request: SdkHttpRequest,
      options?: { abortSignal?: { aborted?: boolean } },
    ) {
      const diverted =
        request.protocol === 'http:' ? handlers.get(originOf(request.hostname, request.port)) : undefined;
      if (!diverted || options?.abortSignal?.aborted) return handle.call(this, request, options);
      return diverted(toDynaliteRequest(request)).then((answer) => ({ response: new HttpResponse(answer) }));
    };
  }
  return () => {
    if (handlers.get(origin) === handler) handlers.delete(origin);
  };
}

/**
 * Diverts the SDK's requests to `http://127.0.0.1:<port>` (this dynalite) into its request handler, in
 * memory; returns the function that stops it (before dynalite closes).
 */
export function serveInProcess(server: Server, hostname: string, port: number): () => void {
  const listener = requestListenerOf(server);
  return divertRequests(hostname, port, (request) => handleRequest(listener, request));
}
