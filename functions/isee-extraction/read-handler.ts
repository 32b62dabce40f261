import middy from '@middy/core';
import { TextractClient } from '@aws-sdk/client-textract';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { businessMetrics, logger, tracer } from '../http/observability.ts';
import { readAttestation } from './read-attestation.ts';
import { detectText, textDetectionResult } from './textract-text.ts';

const textract = tracer.captureAWSv3Client(new TextractClient({}));

/** ReadAttestation in the cloud: Textract's text (the finished job of a PDF, or an image read now), parsed. */
export const handler = middy(
  readAttestation((input) => (input.job ? textDetectionResult(textract, input.job.jobId) : detectText(textract, input)), businessMetrics),
)
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer));
