import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { businessMetrics, logger, tracer } from '../adapters/observability.ts';
import { writeExtraction, type WriteInput } from '../isee-extraction/write-extraction.ts';

/** SaveExtraction and MarkFailed: the one writer of the reading's result onto the ISEE item. */
export const handler = middy((input: WriteInput) => writeExtraction(input, businessMetrics))
  .use(injectLambdaContext(logger))
  .use(captureLambdaHandler(tracer));
