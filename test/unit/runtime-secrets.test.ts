import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clearCaches } from '@aws-lambda-powertools/parameters';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSecrets } from '../../functions/adapters/secrets.ts';

const secretsManager = mockClient(SecretsManagerClient);
const values: Record<string, string> = {
  'portale-servizi-sociali/mypay': JSON.stringify({
    endpoint: 'https://mypay.example.it/ws',
    codIpa: 'C_X000',
    password: 'first',
    creditorFiscalCode: '00000000000',
  }),
  'portale-servizi-sociali/io-api-key': JSON.stringify({ apiKey: 'io-key', organizationFiscalCode: '00000000000' }),
  'arn:aws:secretsmanager:eu-south-1:111111111111:secret:CursorSecret-AbCdEf': 'cursor-key',
  'portale-servizi-sociali/gpd-uat': JSON.stringify({ apiKey: 'gpd-key', receiptsKey: 'receipts-key' }),
};

beforeEach(() => {
  clearCaches();
  secretsManager.reset();
  secretsManager
    .on(GetSecretValueCommand)
    .callsFake(({ SecretId }: { SecretId: string }) => ({ SecretString: values[SecretId] }));
});
afterEach(() => vi.useRealTimers());

describe('secrets read at run time (functions/adapters/secrets.ts)', () => {
  it('fills the variables the adapters read from the secrets the environment names', async () => {
    const env: NodeJS.ProcessEnv = {
      MYPAY_SECRET_NAME: 'portale-servizi-sociali/mypay',
      IO_SECRET_NAME: 'portale-servizi-sociali/io-api-key',
      CURSOR_SECRET_ARN: 'arn:aws:secretsmanager:eu-south-1:111111111111:secret:CursorSecret-AbCdEf',
    };
    await loadSecrets(env);
    expect(env).toMatchObject({
      MYPAY_ENDPOINT: 'https://mypay.example.it/ws',
      MYPAY_COD_IPA: 'C_X000',
      MYPAY_PASSWORD: 'first',
      IO_API_KEY: 'io-key',
      CURSOR_SECRET: 'cursor-key',
    });
  });

  it('leaves the environment as it is where no secret is named (the local stack gives the values themselves)', async () => {
    const env: NodeJS.ProcessEnv = { MYPAY_PASSWORD: 'Password1!', CURSOR_SECRET: 'local' };
    await loadSecrets(env);
    expect(env).toEqual({ MYPAY_PASSWORD: 'Password1!', CURSOR_SECRET: 'local' });
    expect(secretsManager.calls()).toHaveLength(0);
  });

  it('reads a secret once per five minutes, and a rotated value reaches a warm function after that', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const env: NodeJS.ProcessEnv = { MYPAY_SECRET_NAME: 'portale-servizi-sociali/mypay' };
    await loadSecrets(env);
    values['portale-servizi-sociali/mypay'] = JSON.stringify({
      endpoint: 'https://mypay.example.it/ws',
      codIpa: 'C_X000',
      password: 'rotated',
    });
    await loadSecrets(env);
    expect(env.MYPAY_PASSWORD).toBe('first');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    vi.setSystemTime(Date.now() + 301_000);
    await loadSecrets(env);
    expect(env.MYPAY_PASSWORD).toBe('rotated');
  });

  it("fills GPD's subscription keys, Checkout's only when the secret has one", async () => {
    const env: NodeJS.ProcessEnv = { GPD_SECRET_NAME: 'portale-servizi-sociali/gpd-uat' };
    await loadSecrets(env);
    expect(env).toEqual({
      GPD_SECRET_NAME: 'portale-servizi-sociali/gpd-uat',
      GPD_API_KEY: 'gpd-key',
      GPD_RECEIPTS_KEY: 'receipts-key',
    });
    values['portale-servizi-sociali/gpd-uat'] = JSON.stringify({
      apiKey: 'gpd-key',
      receiptsKey: 'receipts-key',
      checkoutKey: 'checkout-key',
    });
    clearCaches();
    await loadSecrets(env);
    expect(env.GPD_CHECKOUT_KEY).toBe('checkout-key');
    values['portale-servizi-sociali/gpd-uat'] = JSON.stringify({ apiKey: 'gpd-key' });
    clearCaches();
    await expect(loadSecrets(env)).rejects.toThrow(
      'The secret portale-servizi-sociali/gpd-uat has no field receiptsKey',
    );
  });

  it('names the secret and the field when a field the code reads is missing', async () => {
    values['portale-servizi-sociali/io-api-key'] = JSON.stringify({ organizationFiscalCode: '00000000000' });
    await expect(loadSecrets({ IO_SECRET_NAME: 'portale-servizi-sociali/io-api-key' })).rejects.toThrow(
      'The secret portale-servizi-sociali/io-api-key has no field apiKey',
    );
  });
});
