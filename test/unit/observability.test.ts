import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiEvent, claimsOf, lambdaContext } from '../support/events.ts';

const dynamo = mockClient(DynamoDBDocumentClient);

/** What the function writes to stdout and stderr (Powertools' logger and metrics write there), line by line. */
function captureOutput() {
  const lines: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    });
  }
  return lines;
}
const json = (lines: string[]) => lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
const metricWarnings = (lines: string[]) =>
  lines.filter((line) => /has already been added|No application metrics to publish/.test(line));

/** The bands function as Lambda starts it: a fresh module, configured by its environment only. */
async function coldStart(environment: Record<string, string>) {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  vi.resetModules();
  const { handler } = await import('../../functions/entry/bands.ts');
  return (...args: Parameters<typeof apiEvent>) =>
    handler(apiEvent(...args), { ...lambdaContext }) as Promise<{ statusCode: number }>;
}

beforeEach(() => dynamo.reset());
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('observability of an API function', () => {
  it("takes its service name from the function's POWERTOOLS_SERVICE_NAME, in metrics and in logs", async () => {
    const call = await coldStart({
      POWERTOOLS_SERVICE_NAME: 'bands',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
    dynamo.on(GetCommand).rejects(new Error('DynamoDB is down'));
    const output = captureOutput();

    expect(
      (await call('GET /api/bands/{id}', { claims: claimsOf.operator, pathParameters: { id: 'b1' } })).statusCode,
    ).toBe(500);

    const [failure, metrics] = json(output);
    expect(failure).toMatchObject({ level: 'ERROR', message: 'Unhandled failure', service: 'bands' });
    expect(metrics).toMatchObject({ service: 'bands', operation: 'getBand', Request: 1, ServerError: 1 });
  });

  it('publishes one Request metric per request, by operation, answered or refused, without a warning', async () => {
    const call = await coldStart({
      POWERTOOLS_SERVICE_NAME: 'bands',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
    dynamo.on(QueryCommand).resolves({ Items: [] });
    const output = captureOutput();

    expect((await call('GET /api/bands')).statusCode).toBe(200);
    expect((await call('GET /api/bands')).statusCode).toBe(200);
    expect((await call('POST /api/bands', { claims: claimsOf.citizen, body: {} })).statusCode).toBe(403);

    expect(metricWarnings(output)).toEqual([]);
    expect(json(output).map(({ service, operation, Request }) => ({ service, operation, Request }))).toEqual([
      { service: 'bands', operation: 'listBands', Request: 1 },
      { service: 'bands', operation: 'listBands', Request: 1 },
      { service: 'bands', operation: 'createBand', Request: 1 },
    ]);
  });
});

describe('business metrics', () => {
  it('go out at once as EMF in the deployment’s namespace, service portale and their own dimension; a zero count is not published', async () => {
    for (const [name, value] of Object.entries({
      POWERTOOLS_SERVICE_NAME: 'notices',
      POWERTOOLS_METRICS_DISABLED: 'false',
      POWERTOOLS_METRICS_NAMESPACE: 'PortaleServiziSociali/PortaleTest',
    }))
      vi.stubEnv(name, value);
    vi.resetModules();
    const { businessMetrics } = await import('../../functions/adapters/observability.ts');
    const output = captureOutput();

    businessMetrics.count('NoticesSent', 2, { notice: 'io' });
    businessMetrics.count('ExportsFailed', 0);
    businessMetrics.count('SupportMessages', 1);

    const lines = json(output);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'PortaleServiziSociali/PortaleTest',
            Dimensions: [['service', 'notice']],
            Metrics: [{ Name: 'NoticesSent', Unit: 'Count' }],
          },
        ],
      },
      service: 'portale',
      notice: 'io',
      NoticesSent: 2,
    });
    // The dimension of one count does not stick to the next.
    expect(lines[1]).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Dimensions: [['service']] }] },
      service: 'portale',
      SupportMessages: 1,
    });
    expect(lines[1]).not.toHaveProperty('notice');
  });
});
