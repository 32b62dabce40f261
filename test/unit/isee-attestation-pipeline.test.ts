import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseAttestation } from '../../functions/domain/isee-attestation.ts';
import { extractionDefinition } from '../../functions/isee-extraction/state-machine.ts';
import { writeExtraction } from '../../functions/isee-extraction/write-extraction.ts';
import { readAttestation } from '../../functions/isee-extraction/read-attestation.ts';
import { memoryMetrics } from '../support/in-memory.ts';

// aws-local-stepfunctions 3 needs Promise.withResolvers (Node 22+).
(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= () => {
  let resolve, reject;
  const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};
const { StateMachine } = await import('aws-local-stepfunctions');

const event = (key: string, bucket = 'documents') => ({
  'detail-type': 'Object Created',
  source: 'aws.s3',
  detail: { bucket: { name: bucket }, object: { key } },
});
const extraction = parseAttestation(['INPS-ISEE-2025-00597381W-00', 'ISEE ordinario 16.187,98'], 'textract', 0.95);

/** Runs the state machine with stand-ins for the S3 call and the two functions, recording what each step got. */
function run(input: object, steps: { contentType: string; read?: () => unknown; write?: (payload: any) => unknown }) {
  const calls: Record<string, any[]> = {};
  const record = (name: string, value: unknown) => (calls[name] ??= []).push(value);
  const handlers = {
    HeadDocument: (i: any) => (record('HeadDocument', i), { ContentType: steps.contentType }),
    ReadAttestation: (i: any) => (record('ReadAttestation', i.Payload), { Payload: steps.read?.() ?? extraction }),
    SaveExtraction: (i: any) => (
      record('SaveExtraction', i.Payload),
      { Payload: steps.write?.(i.Payload) ?? { written: true } }
    ),
    MarkFailed: (i: any) => (record('MarkFailed', i.Payload), { Payload: { written: true } }),
  };
  const machine = new StateMachine(
    extractionDefinition({
      read: 'arn:aws:lambda:eu-south-1:111111111111:function:read',
      write: 'arn:aws:lambda:eu-south-1:111111111111:function:write',
    }) as never,
  );
  const execution = machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: handlers as never,
      retryIntervalOverrides: { ReadAttestation: 0, SaveExtraction: 0, MarkFailed: 0 },
    },
  });
  return { result: execution.result, calls };
}

// aws-local-stepfunctions takes a second or two per run on a busy machine: a limit, not a timing.
describe('the ISEE reading state machine', { timeout: 30_000 }, () => {
  it.each(['application/pdf', 'image/jpeg'])(
    'reads a %s at once in ReadAttestation (synchronous Textract: no job, no copy in another region), then saves',
    async (contentType) => {
      const { result, calls } = run(event('isee/abc/document'), { contentType });
      await result;
      expect(Object.keys(calls).sort()).toEqual(['HeadDocument', 'ReadAttestation', 'SaveExtraction']);
      expect(calls.ReadAttestation).toEqual([
        { iseeId: 'abc', bucket: 'documents', key: 'isee/abc/document', contentType },
      ]);
      expect(calls.SaveExtraction).toEqual([{ iseeId: 'abc', status: 'DONE', extraction }]);
    },
  );

  it('waits out Textract’s quota (ThrottlingException) and reads again', async () => {
    let attempts = 0;
    const busyTwice = () => {
      if (++attempts <= 2) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      return extraction;
    };
    const { result, calls } = run(event('isee/busy/document'), { contentType: 'image/png', read: busyTwice });
    await result;
    expect(attempts).toBe(3);
    expect(calls.SaveExtraction).toEqual([{ iseeId: 'busy', status: 'DONE', extraction }]);
  });

  it('marks the ISEE FAILED with the reason when the document has no readable text', async () => {
    const blank = () => {
      throw Object.assign(new Error('Nessun testo leggibile nel documento'), { name: 'NoReadableText' });
    };
    const { result, calls } = run(event('isee/blank/document'), { contentType: 'image/jpeg', read: blank });
    await expect(result).rejects.toThrow();
    expect(calls.ReadAttestation).toHaveLength(1);
    expect(calls.MarkFailed).toEqual([
      { iseeId: 'blank', status: 'FAILED', error: expect.objectContaining({ Error: 'NoReadableText' }) },
    ]);
  });

  it('refuses a document that is neither a PDF nor an image', async () => {
    const { result, calls } = run(event('isee/zip/document'), { contentType: 'application/zip' });
    await expect(result).rejects.toThrow();
    expect(calls.MarkFailed[0].error).toEqual({ Error: 'UnsupportedDocument', Cause: 'application/zip' });
  });

  it('retries the save while the ISEE is not recorded yet, and gives up quietly if it never is (deleted)', async () => {
    let attempts = 0;
    const notThere = () => {
      attempts++;
      throw Object.assign(new Error('ISEE non trovato'), { name: 'IseeNotFound' });
    };
    const { result, calls } = run(event('isee/gone/document'), { contentType: 'image/png', write: notThere });
    await expect(result).resolves.toBeDefined();
    expect(attempts).toBe(5);
    expect(calls.MarkFailed).toBeUndefined();
  });
});

describe('the writer of the reading', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  beforeEach(() => dynamo.reset());

  it('sets only the extraction and its status, on an ISEE that exists', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await writeExtraction({ iseeId: 'abc', status: 'DONE', extraction });
    const input = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input).toMatchObject({
      TableName: 'unit-test-table',
      Key: { pk: 'ISEE#abc', sk: 'ISEE' },
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: 'SET extractionStatus = :status, #extraction = :extraction',
      ExpressionAttributeValues: { ':status': 'DONE', ':extraction': extraction },
    });
  });

  it('writes FAILED with a short reason taken from the failed step', async () => {
    dynamo.on(UpdateCommand).resolves({});
    const cause = JSON.stringify({ errorType: 'InvalidPDFException', errorMessage: 'Invalid PDF structure.' });
    await writeExtraction({ iseeId: 'abc', status: 'FAILED', error: { Error: 'InvalidPDFException', Cause: cause } });
    expect(dynamo.commandCalls(UpdateCommand)[0].args[0].input.ExpressionAttributeValues).toEqual({
      ':status': 'FAILED',
      ':extractionFailure': 'InvalidPDFException: Invalid PDF structure.',
    });
  });

  it('says IseeNotFound when there is no ISEE item, so the state machine can wait for it', async () => {
    dynamo
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    await expect(writeExtraction({ iseeId: 'gone', status: 'DONE', extraction })).rejects.toMatchObject({
      name: 'IseeNotFound',
    });
  });
});

describe('the readings counted for the dashboard and the alarms', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  beforeEach(() => dynamo.reset());
  const input = (contentType: string) => ({
    iseeId: 'abc',
    bucket: 'documents',
    key: 'isee/abc/document',
    contentType,
    job: null,
  });

  it('counts each reading by source (PDF or image), those with an omissions notice as read with a warning, and each failure', async () => {
    const metrics = memoryMetrics();
    const clean = [
      'INPS-ISEE-2025-00597381W-00',
      'ISEE ordinario 16.187,98',
      'Non sono state rilevate omissioni o difformità nei dati della DSU.',
    ];
    const flagged = [
      'INPS-ISEE-2025-00597381W-00',
      'ISEE ordinario 16.187,98',
      'Per la presente DSU sono state rilevate le seguenti omissioni/difformità:',
      '- saldo del conto corrente',
    ];
    await readAttestation(
      async () => ({ lines: clean, source: 'textract', quality: 0.9 }),
      metrics,
    )(input('application/pdf'));
    await readAttestation(
      async () => ({ lines: flagged, source: 'textract', quality: 0.9 }),
      metrics,
    )(input('image/jpeg'));
    expect([
      metrics.total('IseeRead', { source: 'pdf' }),
      metrics.total('IseeRead', { source: 'image' }),
      metrics.total('IseeReadWithWarning', { source: 'image' }),
      metrics.total('IseeReadWithWarning'),
    ]).toEqual([1, 1, 1, 1]);

    dynamo.on(UpdateCommand).resolves({});
    await writeExtraction({ iseeId: 'abc', status: 'DONE', extraction }, metrics);
    await writeExtraction(
      { iseeId: 'abc', status: 'FAILED', error: { Error: 'TextDetectionFailed', Cause: 'FAILED' } },
      metrics,
    );
    expect(metrics.total('IseeReadFailed')).toBe(1);
  });
});
