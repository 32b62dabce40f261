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
const { HttpResponse, buildQueryString } = createRequire(sdkRequire.resolve('@smithy/node-http-handler'))('@smithy/core/protocols');

const listeners = new Map<string, RequestListener>();
let patched = false;

const originOf = (hostname: string, port: number | undefined) => `${hostname}:${port ?? 80}`;

/** One request through dynalite's own request handler, without a socket. */
export function handleInMemory(listener: RequestListener, request: SdkHttpRequest): Promise<{ response: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    headers.host ??= originOf(request.hostname, request.port);
    const req = Object.assign(new EventEmitter(), { method: request.method, url: `${request.path || '/'}${request.query && Object.keys(request.query).length ? `?${buildQueryString(request.query)}` : ''}`, headers });
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
        const bytes = body === undefined ? new Uint8Array() : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
        resolve({ response: new HttpResponse({ statusCode: res.statusCode, headers: responseHeaders, body: bytes }) });
      },
    };
    try {
      listener(req, res);
      const body = request.body;
      if (body !== undefined && body !== null && body !== '') {
        // The SDK's JSON body is a Uint8Array with string methods: a view of its bytes, not Buffer.from(body)
        // (which would go through its valueOf, a string).
        const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : undefined;
        if (!bytes) throw new Error('dynalite in process: a request body that is neither a string nor bytes');
        req.emit('data', bytes);
      }
      req.emit('end');
    } catch (error) {
      reject(error);
    }
  });
}

/**
 * Diverts the SDK's requests to `http://127.0.0.1:<port>` (this dynalite) into its request handler, in
 * memory; returns the function that stops it (before dynalite closes).
 */
export function serveInProcess(server: Server, hostname: string, port: number): () => void {
  const listener = server.listeners('request')[0] as RequestListener | undefined;
  if (!listener) throw new Error('dynalite has no request handler');
  const origin = originOf(hostname, port);
  listeners.set(origin, listener);
  if (!patched) {
    patched = true;
    const handle = NodeHttpHandler.prototype.handle;
    NodeHttpHandler.prototype.handle = function (this: unknown, request: SdkHttpRequest, options?: { abortSignal?: { aborted?: boolean } }) {
      const inMemory = request.protocol === 'http:' ? listeners.get(originOf(request.hostname, request.port)) : undefined;
      if (!inMemory || options?.abortSignal?.aborted) return handle.call(this, request, options);
      return handleInMemory(inMemory, request);
    };
  }
  return () => {
    if (listeners.get(origin) === listener) listeners.delete(origin);
  };
}
