import type { MiddlewareObj } from '@middy/core';
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * How long a value read from Secrets Manager is kept before it is read again (Powertools' cache): a rotated
 * secret reaches every warm function within this time, with one GetSecretValue per function and period.
 */
export const SECRET_MAX_AGE_SECONDS = 300;

/**
 * The secrets the functions read at run time. In the cloud a function's environment holds only the
 * secret's name or ARN (lib/api-stack.ts), and its role may read only those secrets; the values fill the
 * variables the adapters read. Locally no secret is named, and the variables hold the values themselves.
 */
export const runtimeSecrets = [
  {
    idVariable: 'MYPAY_SECRET_NAME',
    fields: { endpoint: 'MYPAY_ENDPOINT', codIpa: 'MYPAY_COD_IPA', password: 'MYPAY_PASSWORD' },
  },
  { idVariable: 'IO_SECRET_NAME', fields: { apiKey: 'IO_API_KEY' } },
  // pagoPA's GPD (a stage with paymentPlatform "gpd"): a subscription key per product; Checkout's only if the council has one.
  {
    idVariable: 'GPD_SECRET_NAME',
    fields: { apiKey: 'GPD_API_KEY', receiptsKey: 'GPD_RECEIPTS_KEY' },
    optionalFields: { checkoutKey: 'GPD_CHECKOUT_KEY' },
  },
  { idVariable: 'CURSOR_SECRET_ARN', variable: 'CURSOR_SECRET' },
] as const satisfies readonly ({ idVariable: string } & (
  { fields: Record<string, string>; optionalFields?: Record<string, string> } | { variable: string }
))[];

/** Reads (or takes from the cache) each secret the environment names and sets the variables it fills. */
export async function loadSecrets(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await Promise.all(
    runtimeSecrets.map(async (secret) => {
      const id = env[secret.idVariable];
      if (!id) return;
      if ('variable' in secret) {
        env[secret.variable] = String(await getSecret(id, { maxAge: SECRET_MAX_AGE_SECONDS }));
        return;
      }
      const value = await getSecret<Record<string, unknown>>(id, { maxAge: SECRET_MAX_AGE_SECONDS, transform: 'json' });
      for (const [field, variable] of Object.entries(secret.fields)) {
        const fieldValue = value?.[field];
        if (typeof fieldValue !== 'string' || !fieldValue)
          throw new Error(`The secret ${id} has no field ${field} (${secret.idVariable})`);
        env[variable] = fieldValue;
      }
      const optionalFields: Record<string, string> = 'optionalFields' in secret ? secret.optionalFields : {};
      for (const [field, variable] of Object.entries(optionalFields)) {
        const fieldValue = value?.[field];
        if (typeof fieldValue === 'string' && fieldValue) env[variable] = fieldValue;
        else delete env[variable];
      }
    }),
  );
}

/** Before each invocation: the secrets the function's environment names, fresh within SECRET_MAX_AGE_SECONDS. */
export const secretsFromManager = (): MiddlewareObj => ({ before: () => loadSecrets() });
