import { S3Client } from '@aws-sdk/client-s3';
import { tracer } from '../http/observability.ts';

export const requireEnv = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

/**
 * The one S3 client of a function; every call is a subsegment of its X-Ray trace. Locally S3_ENDPOINT
 * points at s3rver, which needs path-style URLs and checksums only when required (design §7).
 */
export const s3 = tracer.captureAWSv3Client(
  new S3Client({
    endpoint: process.env.S3_ENDPOINT || undefined,
    forcePathStyle: !!process.env.S3_ENDPOINT,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }),
);
