import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { clearCaches } from '@aws-lambda-powertools/parameters';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/entry/bands.ts';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-south-1:111111111111:secret:OriginVerifySecret-AbCdEf';
const secretsManager = mockClient(SecretsManagerClient);
const dynamo = mockClient(DynamoDBDocumentClient);
let secret: Record<string, string>;

beforeEach(() => {
  clearCaches();
  secretsManager.reset();
  dynamo.reset();
  dynamo.on(GetCommand).resolves({});
  secret = { current: 'the-current-value-0123456789' };
  secretsManager
    .on(GetSecretValueCommand, { SecretId: SECRET_ARN })
    .callsFake(() => ({ SecretString: JSON.stringify(secret) }));
  vi.stubEnv('ORIGIN_VERIFY_SECRET_ARN', SECRET_ARN);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

/** An operator reading a band that does not exist: 404 once the request is let in, 403 when it is refused. */
const read = async (originHeader?: string) => {
  const event = apiEvent('GET /api/bands/{id}', { claims: claimsOf.operator, pathParameters: { id: 'b1' } });
  if (originHeader !== undefined) event.headers['x-origin-verify'] = originHeader;
  const result = (await handler(event, lambdaContext)) as { statusCode: number; body: string };
  return { status: result.statusCode, detail: JSON.parse(result.body).detail as string };
};

describe('the API answers only what came through CloudFront (x-origin-verify)', () => {
  it('refuses a request without the header, or with another value, before reading anything', async () => {
    for (const header of [undefined, '', 'guessed-value', 'the-current-value-012345678']) {
      expect(await read(header)).toEqual({
        status: 403,
        detail: 'Non sei autorizzato a eseguire questa operazione.',
      });
    }
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('lets in the request that carries the secret’s value', async () => {
    expect((await read('the-current-value-0123456789')).status).toBe(404);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
  });

  it('during a rotation accepts the previous value as well as the new one, and the old one no more after the next', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await read('the-current-value-0123456789')).status).toBe(404);
    secret = { current: 'the-rotated-value-9876543210', previous: 'the-current-value-0123456789' };
    // Within the functions' 5-minute cache the first value is still the only one read.
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect((await read('the-rotated-value-9876543210')).status).toBe(404);
    expect((await read('the-current-value-0123456789')).status).toBe(404);
    secret = { current: 'the-third-value-5555555555', previous: 'the-rotated-value-9876543210' };
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect((await read('the-current-value-0123456789')).status).toBe(403);
    expect((await read('the-third-value-5555555555')).status).toBe(404);
  });

  it('checks nothing where no secret is named (npm start, the local stack)', async () => {
    vi.unstubAllEnvs();
    expect((await read()).status).toBe(404);
    expect(secretsManager.calls()).toHaveLength(0);
  });
});
