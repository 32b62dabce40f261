import type { Context } from 'aws-lambda';
import type { ApiEvent } from '../../functions/http/handler.ts';
import { actorFromClaims } from '../../functions/domain/roles.ts';

/** An API Gateway HTTP API v2 event as the JWT authorizer hands it to a Lambda. */
export function apiEvent(
  routeKey: string,
  options: {
    claims?: Record<string, string>;
    body?: string | object;
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
  } = {},
): ApiEvent {
  const [method, path] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
    isBase64Encoded: false,
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey,
      stage: '$default',
      authorizer: { principalId: '', integrationLatency: 0, jwt: { claims: options.claims ?? {}, scopes: [] } },
    },
  } as unknown as ApiEvent;
}

export const lambdaContext = {
  awsRequestId: 'aws-req-1',
  functionName: 'test',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

export const claimsOf = {
  operator: {
    sub: 'laura.bianchi',
    role: '[OPERATOR]',
    given_name: 'Laura',
    family_name: 'Bianchi',
    fiscal_code: 'BNCLRA79H61F205F',
  },
  delegate: { sub: 'paolo.esposito', role: '[OPERATOR DELEGATE]', given_name: 'Paolo', family_name: 'Esposito' },
  citizen: {
    sub: 'maria.rossi',
    role: '[CITIZEN]',
    given_name: 'Maria',
    family_name: 'Rossi',
    fiscal_code: 'RSSMRA85C52H501N',
  },
};

/** The operator (Laura Bianchi) as the authorizer's claims make them, for tests that call a use case in-process. */
export const operatorActor = actorFromClaims(claimsOf.operator);
