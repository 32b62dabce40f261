import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gpdSettingProblems } from '../../functions/domain/gpd.ts';
import { loadStage, stageWarnings } from '../../lib/stage-config.ts';

/** The deployment's payment platform and GPD's settings (lib/stage-config.ts, README "Piattaforma di pagamento"). */
const dir = mkdtempSync(path.join(os.tmpdir(), 'gpd-stages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stage = (name: string, settings: unknown) => {
  writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(settings));
  return () => loadStage(name, dir);
};
const gpd = {
  paymentPlatform: 'gpd',
  gpdEnvironment: 'uat',
  gpdSecretName: 'portale/gpd',
  gpdOrganizationFiscalCode: '00488410010',
  gpdCompanyName: 'Comune di Fantasia',
  gpdSegregationCode: '47',
  gpdIban: 'IT60 X054 2811 1010 0000 0123 456',
  gpdTaxonomyCode: '9/0101108TS/',
};

describe('the payment platform setting', () => {
  it('is MyPay unless the stage says gpd; a council on GPD with all its settings loads', () => {
    expect(loadStage('example').settings.paymentPlatform).toBe('mypay');
    expect(stage('gpd-ok', gpd)().settings).toMatchObject({ paymentPlatform: 'gpd', gpdSegregationCode: '47' });
    expect(stage('other', { paymentPlatform: 'pagopa' })).toThrow(/- paymentPlatform: /);
  });

  it('on GPD names every GPD setting left out', () => {
    const load = stage('gpd-missing', { paymentPlatform: 'gpd' });
    for (const key of [
      'gpdSecretName',
      'gpdOrganizationFiscalCode',
      'gpdCompanyName',
      'gpdSegregationCode',
      'gpdIban',
      'gpdTaxonomyCode',
    ])
      expect(load).toThrow(new RegExp(`- ${key}: con paymentPlatform "gpd" va indicato ${key}`));
  });

  it('refuses a bad IBAN, segregation code, fiscal code or taxonomy code with the reason in Italian, naming the key', () => {
    expect(stage('bad-iban', { ...gpd, gpdIban: 'IT61X0542811101000000123456' })).toThrow(
      /- gpdIban: l'IBAN "IT61X0542811101000000123456" ha le cifre di controllo sbagliate/,
    );
    expect(stage('short-iban', { ...gpd, gpdIban: 'IT60X05428111010000001234' })).toThrow(
      /- gpdIban: l'IBAN italiano .* deve avere 27 caratteri/,
    );
    expect(stage('bad-segregation', { ...gpd, gpdSegregationCode: '1' })).toThrow(
      /- gpdSegregationCode: il codice di segregazione deve essere di 2 cifre/,
    );
    expect(stage('bad-cf', { ...gpd, gpdOrganizationFiscalCode: '00488410011' })).toThrow(
      /- gpdOrganizationFiscalCode: .*cifra di controllo sbagliata/,
    );
    expect(stage('bad-taxonomy', { ...gpd, gpdTaxonomyCode: 'servizi sociali' })).toThrow(
      /- gpdTaxonomyCode: il codice tassonomico/,
    );
  });
});

describe('pagoPA’s UAT test council (77777777777)', () => {
  it('a staging stage keeps it, with a warning naming the setting and the file; production refuses it; a real council warns nothing', () => {
    const staging = stage('uat-staging', { ...gpd, gpdOrganizationFiscalCode: '77777777777' })();
    expect(staging.settings.gpdOrganizationFiscalCode).toBe('77777777777');
    expect(stageWarnings(staging)).toEqual([
      expect.stringMatching(
        /uat-staging\.json \(stage uat-staging, not production\): gpdOrganizationFiscalCode is pagoPA's UAT test council 77777777777/,
      ),
    ]);
    expect(stage('uat-production', { ...gpd, production: true, gpdOrganizationFiscalCode: '77777777777' })).toThrow(
      /- gpdOrganizationFiscalCode: 77777777777 è l'ente di prova di pagoPA in collaudo \(UAT\): uno stage di produzione indica il codice fiscale del Comune/,
    );
    expect(stageWarnings(stage('real-council', gpd)())).toEqual([]);
    // Any other code failing the check digit is still refused, on staging too.
    expect(stage('uat-other', { ...gpd, gpdOrganizationFiscalCode: '77777777778' })).toThrow(
      /- gpdOrganizationFiscalCode: .*cifra di controllo sbagliata/,
    );
  });
});

describe('GPD setting checks', () => {
  it('take valid values and the IBAN with spaces or in lowercase', () => {
    expect(gpdSettingProblems.iban('it60x0542811101000000123456')).toBeNull();
    expect(gpdSettingProblems.iban('DE89370400440532013000')).toBeNull();
    expect(gpdSettingProblems.fiscalCode('00488410010')).toBeNull();
    expect(gpdSettingProblems.taxonomyCode('0101108TS')).toBeNull();
    expect(gpdSettingProblems.segregationCode('01')).toBeNull();
  });
});
