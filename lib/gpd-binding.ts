import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { PortalContext } from './context.ts';
import type { PortalFunction } from './portal-function.ts';

/**
 * The council's own pagoPA settings an export checks before it starts (functions/adapters/platform-configuration.ts):
 * the flows function gets them, without GPD's keys.
 */
export const gpdCouncilSettings = (gpd: PortalContext['gpd']): Record<string, string> => ({
  GPD_ORGANIZATION_FISCAL_CODE: gpd.organizationFiscalCode ?? '',
  GPD_SEGREGATION_CODE: gpd.segregationCode ?? '',
  GPD_IBAN: gpd.iban ?? '',
  GPD_TAXONOMY_CODE: gpd.taxonomyCode ?? '',
});

/**
 * pagoPA's GPD for the functions that call the payment platform (a stage with paymentPlatform "gpd", README
 * "Piattaforma di pagamento"): the council's settings in the environment (the names lib/local/runtime.ts gives the
 * local stack) and the subscription keys' secret named, read at run time (functions/adapters/secrets.ts
 * GPD_SECRET_NAME), with GetSecretValue on that one secret.
 */
export function gpdBinder(scope: Construct, gpd: PortalContext['gpd']): (fn: PortalFunction) => void {
  const required = {
    gpdSecretName: gpd.secretName,
    gpdOrganizationFiscalCode: gpd.organizationFiscalCode,
    gpdCompanyName: gpd.companyName,
    gpdSegregationCode: gpd.segregationCode,
    gpdIban: gpd.iban,
    gpdTaxonomyCode: gpd.taxonomyCode,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => !value)
    .map(([key]) => key);
  if (missing.length)
    throw new Error(`paymentPlatform "gpd" needs ${missing.join(', ')} (README, "Piattaforma di pagamento")`);
  const secret = secretsmanager.Secret.fromSecretNameV2(scope, 'GpdSecret', gpd.secretName!);
  const settings: Record<string, string> = {
    PAYMENT_PLATFORM: 'gpd',
    GPD_BASE_URL: gpd.baseUrl,
    ...gpdCouncilSettings(gpd),
    GPD_COMPANY_NAME: gpd.companyName!,
    ...(gpd.cbillCode ? { GPD_CBILL_CODE: gpd.cbillCode } : {}),
  };
  return (fn) => {
    for (const [name, value] of Object.entries(settings)) fn.addEnvironment(name, value);
    fn.bindSecret('GPD_SECRET_NAME', secret);
  };
}

/**
 * What the functions that print the council's pagoPA notices need on GPD (the notices API and the flow e-mail's job
 * function: functions/adapters/gpd/notices.ts): the platform's name and the creditor the notice names. No key: they
 * never call pagoPA.
 */
export function gpdNoticeBinder(gpd: PortalContext['gpd']): (fn: PortalFunction) => void {
  return (fn) => {
    fn.addEnvironment('PAYMENT_PLATFORM', 'gpd')
      .addEnvironment('GPD_ORGANIZATION_FISCAL_CODE', gpd.organizationFiscalCode!)
      .addEnvironment('GPD_COMPANY_NAME', gpd.companyName!);
    if (gpd.cbillCode) fn.addEnvironment('GPD_CBILL_CODE', gpd.cbillCode);
  };
}
