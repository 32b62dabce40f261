import type { Configuration } from '../../functions/domain/configuration.ts';

/** The demo council's MyPay configuration (what /configurazione shows on a first `npm start`). */
export const demoConfiguration: Configuration = {
  azione: 'I',
  codUfficio: 'SERV_SOC',
  codeConfig: 'PORTALE_SOCIALE',
  flgGeneraIuv: true,
  tipoDovuto: 'SERVIZI_SOCIALI',
  tipoIdentificativoUnivoco: 'F',
  datiSpecificiRiscossione: '9/0101100IM/',
  tipoVersamento: 'ALL',
};

export async function seedDemoConfiguration(): Promise<void> {
  const { putConfiguration } = await import('../../functions/configuration/repository.ts');
  await putConfiguration(demoConfiguration);
}
