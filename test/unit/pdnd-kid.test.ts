import { generateKeyPairSync } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { checkPdndKidInKms, pdndKidOf, pdndKidProblem } from '../../lib/pdnd-kid.ts';

/** The check the preflight calls: the configured kid is the thumbprint PDND computes of the KMS key's public key. */
describe('the PDND kid', () => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ type: 'spki', format: 'der' });

  it('is the key’s JWK thumbprint, as PDND computes it', async () => {
    expect(pdndKidOf(der)).toBe(await jose.calculateJwkThumbprint(publicKey.export({ format: 'jwk' }) as jose.JWK));
    expect(pdndKidProblem(pdndKidOf(publicKey), der)).toBeNull();
  });

  it('a placeholder or another key’s kid is reported with the right one', async () => {
    expect(pdndKidProblem('placeholder-kid-set-by-pdnd-back-office-000', der)).toMatch(
      new RegExp(
        `^pdndKid placeholder-kid-set-by-pdnd-back-office-000 is not the thumbprint .*\\(${pdndKidOf(der)}\\)`,
      ),
    );
    const kms = mockClient(KMSClient);
    kms.on(GetPublicKeyCommand).resolves({ PublicKey: new Uint8Array(der) });
    expect(
      await checkPdndKidInKms({
        keyId: 'arn:aws:kms:eu-south-1:1:key/x',
        kid: pdndKidOf(der),
        client: new KMSClient({ region: 'eu-south-1' }),
      }),
    ).toBeNull();
    expect(
      await checkPdndKidInKms({
        keyId: 'arn:aws:kms:eu-south-1:1:key/x',
        kid: 'AAAA',
        client: new KMSClient({ region: 'eu-south-1' }),
      }),
    ).toMatch(/^pdndKid AAAA is not/);
    kms.restore();
  });
});
