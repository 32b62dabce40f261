import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { iseeDocumentKey } from '../../functions/domain/isee-extraction.ts';
import { TABLE_NAME } from '../../lib/local/config.ts';
import { BUCKETS } from '../../lib/local/runtime.ts';
import { makeFixture } from '../fixtures/isee/generate.ts';

/**
 * The local stack reads an ISEE document as soon as it is stored under isee/<id>/document (the cloud's
 * S3 → EventBridge → Step Functions, here s3rver's notification → the same state machine).
 */
const region = 'eu-south-1';
const table = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: inject('dynamoEndpoint'),
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
const s3 = new S3Client({
  endpoint: inject('s3Endpoint'),
  region,
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

/** What the ISEE API writes when it records an uploaded ISEE. */
const createIsee = (id: string) =>
  table.send(
    new PutCommand({
      TableName: TABLE_NAME,
      Item: { ...keys.isee(id), id, state: 'LOADED', extractionStatus: 'PENDING' },
    }),
  );
const storeDocument = (id: string, bytes: Uint8Array, contentType: string) =>
  s3.send(
    new PutObjectCommand({
      Bucket: BUCKETS.documents,
      Key: iseeDocumentKey(id),
      Body: bytes,
      ContentType: contentType,
    }),
  );
const iseeItem = async (id: string) =>
  (await table.send(new GetCommand({ TableName: TABLE_NAME, Key: keys.isee(id) }))).Item;

async function settled(id: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const item = await iseeItem(id);
    if (item && item.extractionStatus !== 'PENDING') return item;
    if (Date.now() > until)
      throw new Error(`ISEE ${id} still ${item?.extractionStatus ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('reading the ISEE attestation when it is stored', () => {
  it('reads a digital PDF and saves the values on the ISEE, leaving its other fields alone', async () => {
    const id = randomUUID();
    const { bytes, truth } = await makeFixture(4242, 'pdf', 'classic');
    await createIsee(id);
    await storeDocument(id, bytes, 'application/pdf');

    const item = await settled(id, 20_000);
    expect(item).toMatchObject({ state: 'LOADED', extractionStatus: 'DONE' });
    expect(item.extraction).toMatchObject({
      protocollo: truth.protocollo,
      iseeOrdinario: truth.iseeOrdinario,
      iseeRistretto: truth.iseeRistretto,
      ise: truth.ise,
      scalaEquivalenza: truth.scala,
      coherent: true,
      dataRilascio: truth.dataRilascio,
      dataFine: truth.dataFine,
      fiscalCodes: truth.fiscalCodes,
      omissionsNotice: null,
      source: 'pdf-text',
    });
    expect(item.extraction.confidence).toBeGreaterThan(0.9);
  });

  it('reads a photographed attestation with OCR', async () => {
    const id = randomUUID();
    const { bytes, truth } = await makeFixture(4243, 'photo', 'summary-box');
    await createIsee(id);
    await storeDocument(id, bytes, 'image/jpeg');

    const item = await settled(id, 60_000);
    expect(item.extractionStatus).toBe('DONE');
    expect(item.extraction).toMatchObject({
      source: 'ocr',
      protocollo: truth.protocollo,
      iseeOrdinario: truth.iseeOrdinario,
    });
    expect(item.extraction.fiscalCodes).toContain(truth.declarantFiscalCode);
  }, 90_000);

  it('waits for the ISEE record when the document is stored a moment before it', async () => {
    const id = randomUUID();
    const { bytes, truth } = await makeFixture(4244, 'pdf', 'omissions');
    await storeDocument(id, bytes, 'application/pdf');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await createIsee(id);

    const item = await settled(id, 20_000);
    expect(item.extractionStatus).toBe('DONE');
    expect(item.extraction.iseeOrdinario).toBe(truth.iseeOrdinario);
    expect(item.extraction.omissionsNotice).toMatch(/omissioni\/difformità/);
  });

  it('marks the ISEE FAILED, with a reason, when the document cannot be read', async () => {
    const id = randomUUID();
    await createIsee(id);
    await storeDocument(id, new TextEncoder().encode('%PDF-1.7\nnon è un PDF\n'), 'application/pdf');

    const item = await settled(id, 20_000);
    expect(item.extractionStatus).toBe('FAILED');
    expect(item.extractionFailure).toEqual(expect.any(String));
    expect(item.extraction).toBeUndefined();
  });

  it('writes nothing for an ISEE that does not exist (deleted)', async () => {
    const deleted = randomUUID();
    const { bytes } = await makeFixture(4245, 'pdf', 'classic');
    await storeDocument(deleted, bytes, 'application/pdf');
    // Another document stored after it, read to the end: the first has been read by then too.
    const other = randomUUID();
    await createIsee(other);
    await storeDocument(other, bytes, 'application/pdf');
    await settled(other, 20_000);
    expect(await iseeItem(deleted)).toBeUndefined();
  });
});
