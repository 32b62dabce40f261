import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ClientCertificate } from './client-certificate-fetch.ts';

/**
 * The client certificate for INPS (mutual TLS) from its Secrets Manager secret (INPS_CLIENT_CERT_SECRET; README
 * "Deploying"): a JSON string `{ "cert": PEM with its chain, "key": PEM, "ca"?: PEM }`. Any failure names the
 * certificate, so the adapter reports it as a configuration problem (isCertificateError), not INPS being down.
 */
export async function certificateFromSecret(
  secretId: string,
  client = new SecretsManagerClient({}),
): Promise<ClientCertificate> {
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    const value = JSON.parse(SecretString ?? '');
    if (/^-----BEGIN /.test(value.cert) && /^-----BEGIN /.test(value.key)) return value;
    throw new Error('JSON with the PEM fields cert, key (ca optional) expected');
  } catch (error) {
    throw new Error(`client certificate: secret ${secretId}: ${(error as Error).name} ${(error as Error).message}`);
  }
}
