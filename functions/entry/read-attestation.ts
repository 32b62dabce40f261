import middy from '@middy/core';
import { TextractClient } from '@aws-sdk/client-textract';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { s3Client } from '../adapters/s3-client.ts';
import { businessMetrics, logger, tracer } from '../adapters/observability.ts';
import { createCloudTextSource } from '../isee-extraction/cloud-text.ts';
import { readAttestation } from '../isee-extraction/read-attestation.ts';

/**
 * Textract in the region the deployment chose (TEXTRACT_REGION: Milan has no Textract). The SDK's adaptive
 * retries wait out the per-second quota of the synchronous calls before the state machine's own retry.
 */
const textract = tracer.captureAWSv3Client(
  new TextractClient({ region: process.env.TEXTRACT_REGION, retryMode: 'adaptive', maxAttempts: 6 }),
);
const text = createCloudTextSource(textract);

/** ReadAttestation in the cloud: the document from the bucket (same region), its text, parsed. */
export const handler = middy(
  readAttestation(async (input) => {
    const { s3, sdk } = await s3Client();
    const object = await s3.send(new sdk.GetObjectCommand({ Bucket: input.bucket, Key: input.key }));
    return text.read(await object.Body!.transformToByteArray());
  }, businessMetrics),
)
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer));
