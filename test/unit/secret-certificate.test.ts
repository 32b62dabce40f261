import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { isCertificateError } from '../../functions/adapters/client-certificate-fetch.ts';
import { certificateFromSecret } from '../../functions/adapters/secret-certificate.ts';

/** The client certificate for INPS as the cloud keeps it: a Secrets Manager secret, JSON with PEM fields. */
const secrets = mockClient(SecretsManagerClient);
const cert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const key = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
beforeEach(() => secrets.reset());

describe('the client certificate from its secret', () => {
  it('reads the certificate, its key and the optional authorities from the secret named in the settings', async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: 'portale/inps-client-cert' })
      .resolves({ SecretString: JSON.stringify({ cert, key, ca: cert }) });
    expect(await certificateFromSecret('portale/inps-client-cert', new SecretsManagerClient({}))).toEqual({
      cert,
      key,
      ca: cert,
    });
  });

  it('a secret that is missing, denied, not JSON or without the PEM fields is a certificate problem (configuration), never INPS being down', async () => {
    const answers = [
      () =>
        secrets.on(GetSecretValueCommand).rejects(
          Object.assign(new Error('User is not authorized to perform secretsmanager:GetSecretValue'), {
            name: 'AccessDeniedException',
          }),
        ),
      () => secrets.on(GetSecretValueCommand).resolves({ SecretString: 'cert=...' }),
      () => secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ cert }) }),
      () => secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify({ cert: 'abc', key }) }),
    ];
    for (const answer of answers) {
      secrets.reset();
      answer();
      const error = await certificateFromSecret('portale/inps-client-cert', new SecretsManagerClient({})).catch(
        (e) => e,
      );
      expect(error.message).toContain('portale/inps-client-cert');
      expect(isCertificateError(error)).toBe(true);
    }
  });
});
