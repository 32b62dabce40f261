import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ClientCertificate } from './client-certificate-fetch.ts';

/**
 * The client certificate for INPS (mutual TLS) from its Secrets Manager secret (INPS_CLIENT_CERT_SECRET; README
 * "Deploying"): a JSON string `{ "cert": PEM with its chain, "key": PEM, "ca"?: PEM }`. Any failure names the
 * certificate, so the adapter reports it as a configuration problem (isCertificateError), not INPS being down.
 */
export async function certificateFromSecret(secretId: string, client = new SecretsManagerClient({})): Promise<ClientCertificate> {
  const problem = (why: string) => new Error(`client certificate: secret ${secretId}: ${why}`);
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId })).catch((error: Error) => Promise.reject(problem(`${error.name} ${error.message}`)));
  let value: Partial<Record<'cert' | 'key' | 'ca', unknown>>;
  try {
    value = JSON.parse(SecretString ?? '');
  } catch {
    throw problem('not JSON');
  }
  if (!/^-----BEGIN /.test(String(value?.cert)) || !/^-----BEGIN /.test(String(value.key))) throw problem('needs the PEM fields cert, key (ca optional)');
  return value as ClientCertificate;
}
