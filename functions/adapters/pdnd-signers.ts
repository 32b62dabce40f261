import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { JwsSigner } from './pdnd.ts';

/**
 * Who signs the PDND client assertion (and the audit token) with the client's private key:
 * - in the cloud AWS KMS, an asymmetric RSA_2048 key for SIGN_VERIFY (lib/data-stack.ts): `kms:Sign` with
 *   RSASSA_PKCS1_V1_5_SHA_256 over the raw signing input, so the key never leaves KMS;
 * - locally a PEM kept in <DATA_DIR>/pdnd (lib/local/pdnd-simulator.ts makes it and registers its public key).
 */
export function kmsSigner(keyId: string, client?: Pick<KMSClient, 'send'>): JwsSigner {
  // KMS's client is loaded at the first signature: the ISEE API's requests that never reach INPS do without it.
  let kms: Promise<{ client: Pick<KMSClient, 'send'>; SignCommand: typeof import('@aws-sdk/client-kms').SignCommand }>;
  return {
    async sign(signingInput) {
      kms ??= import('@aws-sdk/client-kms').then((sdk) => ({
        client: client ?? new sdk.KMSClient({}),
        SignCommand: sdk.SignCommand,
      }));
      const { client: kmsClient, SignCommand } = await kms;
      const { Signature } = await kmsClient.send(
        new SignCommand({
          KeyId: keyId,
          Message: signingInput,
          MessageType: 'RAW',
          SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
        }),
      );
      if (!Signature) throw new Error('KMS Sign answered without a signature');
      return Signature;
    },
  };
}

export function localKeySigner(privateKey: string | KeyObject): JwsSigner {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  return { sign: async (signingInput) => sign('sha256', signingInput, key) };
}
