import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';

/**
 * The kid PDND gives an uploaded public key is its thumbprint: SHA-256 of the key's JWK with its members sorted
 * (pagopa/interop-be-monorepo `calculateKid`; for RSA the RFC 7638 thumbprint over e, kty, n), base64url. A
 * `pdndKid` in context that is not the KMS key's thumbprint makes every client assertion fail with PDND's
 * masked 400; the preflight (or whoever deploys) calls `checkPdndKidInKms` before the deploy.
 */
export function pdndKidOf(publicKey: KeyObject | string | Uint8Array): string {
  const key =
    publicKey instanceof Uint8Array
      ? createPublicKey({ key: Buffer.from(publicKey), format: 'der', type: 'spki' })
      : typeof publicKey !== 'string' && publicKey.type === 'public'
        ? publicKey
        : createPublicKey(publicKey);
  const jwk = key.export({ format: 'jwk' }) as Record<string, string>;
  const sorted = Object.fromEntries(Object.entries(jwk).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url');
}

/** Null when the kid is the key's, else what is wrong (for the preflight's report). */
export function pdndKidProblem(kid: string, publicKey: KeyObject | string | Uint8Array): string | null {
  const expected = pdndKidOf(publicKey);
  return kid === expected
    ? null
    : `pdndKid ${kid} is not the thumbprint of the PDND client key's public key (${expected}): upload that key's PEM to PDND's back office and pass the kid it shows`;
}

/** The check against the deployed KMS key (kms:GetPublicKey with the deployer's credentials; the functions may only Sign). */
export async function checkPdndKidInKms(options: {
  keyId: string;
  kid: string;
  region?: string;
  client?: KMSClient;
}): Promise<string | null> {
  const client = options.client ?? new KMSClient({ region: options.region });
  const { PublicKey } = await client.send(new GetPublicKeyCommand({ KeyId: options.keyId }));
  if (!PublicKey) return `KMS gave no public key for ${options.keyId}`;
  return pdndKidProblem(options.kid, PublicKey);
}
