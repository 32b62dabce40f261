import { describe, expect, it } from 'vitest';
import { requirePlatformConfiguration } from '../../functions/adapters/platform-configuration.ts';
import { ValidationError } from '../../functions/domain/errors.ts';
import type { Configuration } from '../../functions/domain/configuration.ts';

/** What an export needs of the council before it starts, by platform (functions/adapters/platform-configuration.ts). */
const complete: Configuration = {
  azione: 'I',
  codUfficio: 'UFF',
  codeConfig: 'CFG',
  flgGeneraIuv: true,
  tipoDovuto: 'SERVIZI_SOCIALI',
  tipoIdentificativoUnivoco: 'F',
  datiSpecificiRiscossione: '9/0101108TS/',
  tipoVersamento: 'ALL',
};
const gpdEnv = {
  PAYMENT_PLATFORM: 'gpd',
  GPD_ORGANIZATION_FISCAL_CODE: '00488410010',
  GPD_SEGREGATION_CODE: '47',
  GPD_IBAN: 'IT60X0542811101000000123456',
  GPD_TAXONOMY_CODE: '9/0101108TS/',
};

describe('the configuration an export needs', () => {
  it('on MyPay: its configuration page complete, or a 400 naming the missing fields', async () => {
    await expect(requirePlatformConfiguration(async () => ({ values: complete }), {})()).resolves.toEqual(complete);
    await expect(
      requirePlatformConfiguration(async () => ({ values: { ...complete, tipoDovuto: '' } }), {})(),
    ).rejects.toThrow(/Configurazione MyPay incompleta.*tipoDovuto/);
  });

  it('on pagoPA GPD: the council’s pagoPA settings, and MyPay’s page not at all (not even read)', async () => {
    let read = 0;
    const page = async () => (read++, null);
    await expect(requirePlatformConfiguration(page, gpdEnv)()).resolves.toBeNull();
    expect(read).toBe(0);
  });

  it('on pagoPA GPD: a 400 in Italian naming each setting missing or wrong', async () => {
    const env = { ...gpdEnv, GPD_IBAN: '', GPD_SEGREGATION_CODE: '4' };
    delete (env as Record<string, string | undefined>).GPD_TAXONOMY_CODE;
    const refused = requirePlatformConfiguration(async () => null, env)();
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(
      'Impostazioni pagoPA dell’ente incomplete: il codice di segregazione deve essere di 2 cifre (quello assegnato da pagoPA all\'ente), non "4"; manca l\'IBAN; manca il codice tassonomico.',
    );
  });
});
