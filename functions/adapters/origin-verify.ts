import { timingSafeEqual } from 'node:crypto';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { SECRET_MAX_AGE_SECONDS } from './secrets.ts';

/**
 * The header CloudFront adds to every request it sends the API (lib/web-stack.ts, the /api/* origin). Its value
 * is the `current` field of a Secrets Manager secret; the API also accepts the `previous` one, so a rotation
 * (docs/operations.md, "Rotating secrets") refuses no request while CloudFront still sends the old value.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** The function's environment holds the secret's ARN, never its value (lib/api-stack.ts). */
export const ORIGIN_VERIFY_VARIABLE = 'ORIGIN_VERIFY_SECRET_ARN';

/** The values the API accepts now: the secret's `current` and, during a rotation, its `previous`. */
export async function acceptedOriginValues(secretId: string): Promise<string[]> {
  const value = await getSecret<Record<string, unknown>>(secretId, {
    maxAge: SECRET_MAX_AGE_SECONDS,
    transform: 'json',
  });
  const accepted = [value?.current, value?.previous].filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (accepted.length === 0) throw new Error(`The secret ${secretId} has no field current (${ORIGIN_VERIFY_VARIABLE})`);
  return accepted;
}

/** Whether the header carries one of the accepted values (compared in constant time). */
export function sentByCloudFront(header: string | undefined, accepted: readonly string[]): boolean {
  if (!header) return false;
  const sent = Buffer.from(header);
  return accepted.some((value) => {
    const expected = Buffer.from(value);
    return expected.length === sent.length && timingSafeEqual(expected, sent);
  });
}
