import { completeConfiguration, type Configuration, type StoredConfiguration } from '../domain/configuration.ts';
import { ValidationError } from '../domain/errors.ts';
import { gpdExportSettingsProblems } from '../domain/gpd.ts';
import { fill, gpdPaymentMessages } from '../domain/messages.ts';
import { paymentPlatformName } from './payment-platform-name.ts';

/**
 * What the deployment's payment platform needs before positions are generated, recalculated or sent: on MyPay its
 * configuration page complete (the eight values of every import row); on pagoPA GPD the council's own settings
 * (fiscal code, segregation code, IBAN, taxonomy code: the stage's gpd* settings, lib/gpd-binding.ts), MyPay's page
 * not at all. A 400 in Italian naming what is missing; MyPay's configuration when on MyPay, else null.
 */
export const requirePlatformConfiguration =
  (getConfiguration: () => Promise<Pick<StoredConfiguration, 'values'> | null>, env: NodeJS.ProcessEnv = process.env) =>
  async (): Promise<Configuration | null> => {
    if (paymentPlatformName(env) === 'mypay') return completeConfiguration(await getConfiguration());
    const problems = gpdExportSettingsProblems({
      fiscalCode: env.GPD_ORGANIZATION_FISCAL_CODE,
      segregationCode: env.GPD_SEGREGATION_CODE,
      iban: env.GPD_IBAN,
      taxonomyCode: env.GPD_TAXONOMY_CODE,
    });
    if (problems.length)
      throw new ValidationError(fill(gpdPaymentMessages.settingsIncomplete, { problems: problems.join('; ') }));
    return null;
  };
