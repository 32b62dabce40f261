import type { Configuration } from '../../functions/domain/configuration.ts';

/** A council's complete MyPay configuration, as an operator saves it on /configurazione (exports and notices need it). */
export const mypayConfiguration: Configuration = {
  azione: 'I',
  codUfficio: 'UFF01',
  codeConfig: 'CFG01',
  flgGeneraIuv: true,
  tipoDovuto: 'SERVIZI_SOCIALI',
  tipoIdentificativoUnivoco: 'F',
  datiSpecificiRiscossione: '9/0101100IM/',
  tipoVersamento: 'ALL',
};
