import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clearCaches } from '@aws-lambda-powertools/parameters';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientFromSettings } from '../../functions/adapters/fresh-client.ts';
import { ioConfigFromEnv, makeIo } from '../../functions/adapters/io.ts';
import { myPayConfigFromEnv } from '../../functions/adapters/mypay-soap.ts';
import { loadSecrets } from '../../functions/adapters/secrets.ts';

const secretsManager = mockClient(SecretsManagerClient);
let ioSecret: { apiKey: string; organizationFiscalCode: string };
/** The subscription key of each request the IO client sent. */
let keysSent: string[];
const ioFetch = (async (url: string, init: RequestInit) => {
  keysSent.push(new Headers(init.headers).get('Ocp-Apim-Subscription-Key') ?? '');
  const body = String(url).endsWith('/profiles') ? { sender_allowed: true } : { id: `m${keysSent.length}` };
  return new Response(JSON.stringify(body), { status: String(url).endsWith('/profiles') ? 200 : 201 });
}) as typeof fetch;

beforeEach(() => {
  clearCaches();
  secretsManager.reset();
  ioSecret = { apiKey: 'first-io-key', organizationFiscalCode: '80012340123' };
  keysSent = [];
  secretsManager
    .on(GetSecretValueCommand, { SecretId: 'portale-servizi-sociali/io-api-key' })
    .callsFake(() => ({ SecretString: JSON.stringify(ioSecret) }));
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

const message = { subject: 'Avviso di pagamento di novembre', markdown: 'Un avviso di pagamento. '.repeat(5) };

describe('a warm function’s IO and MyPay clients after a secret rotation (functions/adapters/fresh-client.ts)', () => {
  it('sends with the rotated IO key once the secret’s 5-minute cache has passed, without a new cold start', async () => {
    const env: NodeJS.ProcessEnv = {
      IO_SECRET_NAME: 'portale-servizi-sociali/io-api-key',
      IO_BASE_URL: 'https://api.io.pagopa.it',
    };
    const io = clientFromSettings(
      () => ioConfigFromEnv(env),
      (config) => makeIo({ ...config, fetch: ioFetch }),
    );
    // Each invocation: the secrets middleware (loadSecrets), then the use case's send.
    const invoke = async () => {
      await loadSecrets(env);
      await io().sendMessage('RSSMRA80A01H501U', message);
    };
    await invoke();
    ioSecret = { ...ioSecret, apiKey: 'rotated-io-key' };
    await invoke();
    vi.setSystemTime(Date.now() + 6 * 60_000);
    await invoke();
    // Two calls a send (the profile check, the message): the old key within the cache, the new one after it.
    expect(keysSent).toEqual([
      'first-io-key',
      'first-io-key',
      'first-io-key',
      'first-io-key',
      'rotated-io-key',
      'rotated-io-key',
    ]);
  });

  it('keeps the client while its settings stay the same, and builds a new one when the MyPay password changes', () => {
    const env: NodeJS.ProcessEnv = {
      MYPAY_ENDPOINT: 'https://mypay.regione.example/pa',
      MYPAY_COD_IPA: 'C_F999',
      MYPAY_PASSWORD: 'first-password',
    };
    const build = vi.fn((config: ReturnType<typeof myPayConfigFromEnv>) => ({ password: config.password }));
    const mypay = clientFromSettings(() => myPayConfigFromEnv(env), build);
    const first = mypay();
    expect(mypay()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    env.MYPAY_PASSWORD = 'rotated-password';
    expect(mypay()).toEqual({ password: 'rotated-password' });
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('throws at the first use when a setting is missing, not when the function starts', () => {
    const io = clientFromSettings(() => ioConfigFromEnv({ IO_BASE_URL: 'https://api.io.pagopa.it' }), makeIo);
    expect(io).toThrow('Missing environment variable IO_API_KEY');
  });
});
