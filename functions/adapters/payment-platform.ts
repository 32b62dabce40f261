import type { GpdCreditor } from '../domain/gpd.ts';
import { makeGpdClient, type GpdConfig } from './gpd/client.ts';
import { makeGpdPlatform } from './gpd/platform.ts';
import { readReceipt } from './gpd/receipt-xml.ts';

// In a file of its own, so a function that only needs the name (the flows API) bundles no GPD client.
export { paymentPlatformName } from './payment-platform-name.ts';

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing environment variable ${name} (paymentPlatform "gpd")`);
  return value;
};

/** GPD's client settings: the stage's gpd* settings and the keys loadSecrets() read from GPD_SECRET_NAME. */
export const gpdConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): GpdConfig => ({
  baseUrl: required(env, 'GPD_BASE_URL'),
  organizationFiscalCode: required(env, 'GPD_ORGANIZATION_FISCAL_CODE'),
  apiKey: required(env, 'GPD_API_KEY'),
  receiptsKey: required(env, 'GPD_RECEIPTS_KEY'),
  ...(env.GPD_CHECKOUT_KEY ? { checkoutKey: env.GPD_CHECKOUT_KEY } : {}),
  // One attempt's limit (the client's default, 10 s, when unset): a setting so a test of the timeouts need not wait.
  ...(Number(env.GPD_TIMEOUT_MS) > 0 ? { timeoutMs: Number(env.GPD_TIMEOUT_MS) } : {}),
});

/** The council as GPD's creditor: who it is and where the money goes. */
export const gpdCreditorFromEnv = (env: NodeJS.ProcessEnv = process.env): GpdCreditor => ({
  fiscalCode: required(env, 'GPD_ORGANIZATION_FISCAL_CODE'),
  companyName: required(env, 'GPD_COMPANY_NAME'),
  iban: required(env, 'GPD_IBAN'),
  taxonomyCode: required(env, 'GPD_TAXONOMY_CODE'),
});

/** pagoPA GPD behind the payment-platform port, from the environment (made when first needed, after loadSecrets). */
export const gpdPlatformFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  makeGpdPlatform(makeGpdClient({ ...gpdConfigFromEnv(env), readReceipt }), gpdCreditorFromEnv(env));

/**
 * GPD for the month's export only (functions/entry/flow-task-gpd.ts): the same platform without the receipts' XML
 * reader, which the export never uses (it keeps the export's function within its bundle budget).
 */
export const gpdExportPlatformFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  makeGpdPlatform(makeGpdClient(gpdConfigFromEnv(env)), gpdCreditorFromEnv(env));
