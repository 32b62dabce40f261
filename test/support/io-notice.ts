import { ioMessageContent } from '../../functions/domain/notices.ts';

/**
 * A November 2026 notice of 66,43 € not yet paid (the IUV and notice number MyPay gives), for
 * `payer` as the description names them, e.g. 'Rossi Maria (RSSMRA85C52H501N)', and the IO message the portal writes for it.
 */
export function ioNotice(payer: string) {
  const position = {
    iud: 'P202611ABC',
    titolo: 'Assistenza domiciliare – Novembre 2026',
    descrizione: `Quota Novembre 2026 Assistenza domiciliare - ${payer} - bando Bando 2026`,
    importoDovuto: 6643,
    dataScadenza: '2026-11-30',
    nav: '301000000001234519',
    codIuv: '01000000001234519',
    isPagato: false,
    annullato: false,
  };
  return { position, content: ioMessageContent(position, position.dataScadenza) };
}
