import middy, { type MiddlewareObj, type Request } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.ts';
import { fill, messages } from '../domain/messages.ts';
import { onPlatform } from '../domain/payment-platform.ts';
import { paymentPlatformName } from '../adapters/payment-platform-name.ts';
import { actorFromClaims, type Actor } from '../domain/roles.ts';
import { parseOrThrow } from '../domain/validation.ts';
import { declaredFields } from './declared-fields.ts';
import { logger, metrics, tracer } from '../adapters/observability.ts';
import { routeKey, type RouteDef } from './route.ts';
import { secretsFromManager } from '../adapters/secrets.ts';
import {
  acceptedOriginValues,
  ORIGIN_VERIFY_HEADER,
  ORIGIN_VERIFY_VARIABLE,
  sentByCloudFront,
} from '../adapters/origin-verify.ts';

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

/** Path or query parameters as API Gateway passes them, for a route that declares no schema for them. */
type RawParameters = Record<string, string | undefined>;
/** What the schema named `key` of route R yields once parsed, or `otherwise` when R declares none. */
type Parsed<R, Key extends 'params' | 'query' | 'body', Otherwise> = R extends {
  [k in Key]: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : Otherwise;

/**
 * What the operation of route R receives: the input its schemas validated, and who is calling. The
 * authorize step refuses an anonymous caller on any route that is not 'public', so there the actor is
 * always present.
 */
export interface ApiRequest<R extends RouteDef = RouteDef> {
  params: Parsed<R, 'params', RawParameters>;
  query: Parsed<R, 'query', RawParameters>;
  body: Parsed<R, 'body', undefined>;
  actor: R['access'] extends 'public' ? Actor | null : Actor;
  route: R;
  event: ApiEvent;
  /**
   * Epoch ms by which an outside call must be over for the function to answer within its time limit (the
   * Lambda context's remaining time, less a second to record the outcome and answer).
   */
  deadline: number;
}

export interface ApiResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An operation returns the body to send (with the route's status), or a full ApiResult via `respond`. */
export type Operation<R extends RouteDef = RouteDef> = (request: ApiRequest<R>) => Promise<unknown>;

/** One operation per route of the resource, each typed by its own route (found by operationId). */
export type Operations<T extends readonly RouteDef[]> = {
  [K in T[number]['operationId']]: Operation<Extract<T[number], { operationId: K }>>;
};

const RESULT = Symbol('api-result');
export const respond = (result: ApiResult) => ({ [RESULT]: result });

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

interface State {
  route: RouteDef;
  actor: Actor | null;
  input: { params: unknown; query: unknown; body: unknown };
}
/** As middy's own middlewares do, each step leaves what it found on the context for the next. */
type ApiContext = Context & { api: State };
const stateOf = (request: { context: Context }): State => (request.context as ApiContext).api;

/** Finds the route this event was sent to, among the function's own: API Gateway (and the local server) put it in routeKey. */
const findRoute = (routes: readonly RouteDef[]): MiddlewareObj<ApiEvent> => {
  const routeByKey = new Map(routes.map((route) => [routeKey(route), route]));
  return {
    before: (request) => {
      const route = routeByKey.get(request.event.routeKey);
      if (!route) throw new NotFoundError();
      (request.context as ApiContext).api = { route, actor: null, input: { params: {}, query: {}, body: undefined } };
    },
  };
};

/**
 * In the cloud only CloudFront may call the API: it adds the origin-verify header (lib/web-stack.ts), which a
 * request sent straight to the API's domain lacks (HTTP APIs take no WAF nor resource policy, and a route has one
 * authorizer, the JWT one). Locally no secret is named and nothing is checked.
 */
const originVerified: MiddlewareObj<ApiEvent> = {
  before: async (request) => {
    const secretId = process.env[ORIGIN_VERIFY_VARIABLE];
    if (!secretId) return;
    const header = request.event.headers?.[ORIGIN_VERIFY_HEADER];
    if (!sentByCloudFront(header, await acceptedOriginValues(secretId))) throw new ForbiddenError();
  },
};

/** The token was verified by the JWT authorizer; here the role is derived and checked against the route. */
const authorize: MiddlewareObj<ApiEvent> = {
  before: (request) => {
    const state = stateOf(request);
    const claims = request.event.requestContext?.authorizer?.jwt?.claims;
    state.actor = claims && claims.sub ? actorFromClaims(claims) : null;
    const { access } = state.route;
    if (access === 'public') return;
    if (!state.actor) throw new UnauthorizedError();
    if (access !== 'signed-in' && !access.includes(state.actor.role)) throw new ForbiddenError();
  },
};

/** Size check and JSON parse of the body (on every route), schema validation of params, query and body. */
const parseAndValidate: MiddlewareObj<ApiEvent> = {
  before: (request) => {
    const state = stateOf(request);
    const { route } = state;
    const { event } = request;
    let body: unknown;
    // Every route reads its body as JSON, those that take none included (a job start): a body that is not
    // JSON is a client's mistake on any of them, never silently ignored.
    const raw = event.body
      ? event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body
      : '';
    const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (Buffer.byteLength(raw, 'utf8') > limit) {
      throw new PayloadTooLargeError(
        route.tooLargeMessage ?? fill(messages.payloadTooLarge, { limit: `${Math.round(limit / 1024)} KB` }),
      );
    }
    try {
      body = raw.trim() === '' ? undefined : JSON.parse(raw);
    } catch {
      throw new ValidationError(messages.invalidJson);
    }
    if (route.body && (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw new ValidationError(messages.invalidJson);
    }
    const params = event.pathParameters ?? {};
    state.input = {
      params: route.params ? parseOrThrow(route.params, params) : params,
      query: route.query
        ? parseOrThrow(route.query, event.queryStringParameters ?? {})
        : (event.queryStringParameters ?? {}),
      body: route.body ? parseOrThrow(route.body, body) : undefined,
    };
  },
};

const problem = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}) => ({
  statusCode: status,
  headers: { 'content-type': 'application/problem+json' },
  body: JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }),
});

/** Named domain errors become problem+json with their Italian detail; anything else is logged and hidden. */
const problemResponses: MiddlewareObj<ApiEvent> = {
  onError: (request) => {
    const { error } = request;
    if (error instanceof DomainError) {
      request.response = problem(
        error.status,
        error.title,
        // The spec's texts name MyPay; on pagoPA GPD they name pagoPA (e.g. 'È già in corso un invio a pagoPA …').
        onPlatform(error.message, paymentPlatformName()),
        error.fieldErrors ? { errors: error.fieldErrors } : {},
      );
      return;
    }
    const correlationId = request.context?.awsRequestId ?? request.event.requestContext?.requestId;
    logger.error('Unhandled failure', { error, correlationId, routeKey: request.event.routeKey });
    request.response = problem(500, 'Errore interno', messages.generic, { correlationId });
  },
};

/**
 * One `Request` metric per invocation, answered or refused, with the operation as a dimension of this
 * invocation only (`service`, from POWERTOOLS_SERVICE_NAME, is the default one), and one `ServerError`
 * more for a 5xx. logMetrics publishes them after this step and clears the operation for the next
 * invocation: every invocation has metrics to publish, and adds its dimension once.
 */
const countRequest = (request: Request<ApiEvent, APIGatewayProxyStructuredResultV2>) => {
  metrics.addDimension('operation', (request.context as ApiContext).api?.route.operationId ?? 'unknown');
  metrics.addMetric('Request', MetricUnit.Count, 1);
  if ((request.response?.statusCode ?? 500) >= 500) metrics.addMetric('ServerError', MetricUnit.Count, 1);
};
const requestMetrics: MiddlewareObj<ApiEvent, APIGatewayProxyStructuredResultV2> = {
  after: countRequest,
  onError: countRequest,
};

/**
 * Builds the Lambda handler of one resource from its own routes (functions/<resource>/routes.ts, so the
 * bundle carries no other resource's schemas): it dispatches on the routeKey to the operation of that
 * route, after finding, authorizing and validating the request as the route says.
 */
/** What a function keeps of its time limit, after its outside calls, to record their outcome and answer. */
const ANSWER_MARGIN_MS = 1000;

export function resourceHandler<const T extends readonly RouteDef[]>(routes: T, operations: Operations<T>) {
  const dispatch = async (event: ApiEvent, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const state = (context as ApiContext).api;
    // The route was found among `routes`, validated by its own schemas and authorized by its own access:
    // the request is the one its operation's type describes (see ApiRequest).
    const operation = (operations as unknown as Partial<Record<string, Operation>>)[state.route.operationId];
    if (!operation) throw new NotFoundError();
    const remaining =
      typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 10_000;
    const deadline = Date.now() + remaining - ANSWER_MARGIN_MS;
    const outcome = await operation({
      ...state.input,
      actor: state.actor,
      route: state.route,
      event,
      deadline,
    } as ApiRequest);
    const result: ApiResult =
      outcome && typeof outcome === 'object' && RESULT in outcome
        ? (outcome as Record<symbol, ApiResult>)[RESULT]
        : { body: outcome };
    const status = result.status ?? state.route.status;
    if (status === 204 || result.body === undefined) return { statusCode: status, headers: result.headers };
    // Only what the route's response schema declares leaves the function (issue 21): no keys, no storage paths.
    const body = status === state.route.status ? declaredFields(state.route.response, result.body) : result.body;
    return {
      statusCode: status,
      headers: { 'content-type': 'application/json', ...result.headers },
      body: JSON.stringify(body),
    };
  };

  return middy(dispatch)
    .use(injectLambdaContext(logger))
    .use(logMetrics(metrics))
    .use(requestMetrics)
    .use(captureLambdaHandler(tracer))
    .use(problemResponses)
    .use(secretsFromManager())
    .use(originVerified)
    .use(findRoute(routes))
    .use(authorize)
    .use(parseAndValidate);
}
