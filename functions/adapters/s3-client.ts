import type { GetObjectCommandInput, S3Client } from '@aws-sdk/client-s3';
import { tracer } from './observability.ts';

export const requireEnv = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
};

let loaded: Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined;
/**
 * The one S3 client of a function and the SDK's commands, loaded at the first file read or written: most requests
 * to the functions that import it (the ISEE list, a call's page, the jobs of other kinds) touch no file, and the
 * S3 SDK is a large part of a cold start (`npm run report:bundles`). Every call is a subsegment of its X-Ray trace.
 * Locally S3_ENDPOINT points at s3rver, which needs path-style URLs and checksums only when required (design §7).
 */
export const s3Client = () =>
  (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
    sdk,
    s3: tracer.captureAWSv3Client(
      new sdk.S3Client({
        endpoint: process.env.S3_ENDPOINT || undefined,
        forcePathStyle: !!process.env.S3_ENDPOINT,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    ),
  })));

/** A link that reads the object for `expiresIn` seconds (a presigned GetObject; the presigner, too, loads at first use). */
export async function signedGetUrl(input: GetObjectCommandInput, expiresIn: number): Promise<string> {
  const [{ s3, sdk }, { getSignedUrl }] = await Promise.all([s3Client(), import('@aws-sdk/s3-request-presigner')]);
  return getSignedUrl(s3, new sdk.GetObjectCommand(input), { expiresIn });
}

/**
 * The answer to a read (GetObject, HeadObject) of a key that is not there. S3 answers 404 (NoSuchKey; a HEAD's
 * bare 404, NotFound) only to a caller allowed s3:ListBucket on the bucket, and 403 (AccessDenied; a HEAD's bare
 * 403) to one that is not (Amazon S3 API Reference, GetObject and HeadObject, "Permissions"). The portal's
 * roles hold object actions only, no ListBucket (lib/portal-function.ts bindBucket), and each may read every
 * key it looks up (test/infra/api-stack.test.ts): from them, an AccessDenied means the key is not there.
 * Other 403s (a bad signature, a skewed clock) carry their own code and stay errors.
 */
export function isMissingObject(error: unknown): boolean {
  const { $metadata, Code } = (error ?? {}) as { $metadata?: { httpStatusCode?: number }; Code?: string };
  const status = $metadata?.httpStatusCode;
  if (status === 404) return true;
  // A HEAD answer has no body, hence no code: its bare 403 is the AccessDenied of a GET.
  return status === 403 && (Code === undefined || Code === 'AccessDenied');
}
