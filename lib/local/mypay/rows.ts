/** The import's rows as MyPay4 reads and checks them (ImportFlussoTaskService), independently of the portal's CSV builder. */
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import { isMyPayFiscalCode } from './fiscal-code.ts';
import { COUNTRY_CODES, PROVINCE_CODES } from '../../../functions/domain/place-codes.ts';
import { IMPORT_COLUMNS, TIPI_VERSAMENTO, type Position, type SimulatedEntity } from './model.ts';
import { centsFromDecimal, elementsOf, localName, textOf } from './values.ts';

export interface RowRejection {
  code: string;
  reason: string;
}

/** MyPay4's import layouts (util/SupportedFileVersion): how many fields a row may have, and where azione is. */
export const LAYOUTS: Record<string, { maxFields: number; azione: number; bilancio: boolean; flag: boolean }> = {
  '1_0': { maxFields: 20, azione: 19, bilancio: false, flag: false },
  '1_1': { maxFields: 20, azione: 19, bilancio: false, flag: false },
  '1_2': { maxFields: 21, azione: 20, bilancio: true, flag: false },
  '1_3': { maxFields: 22, azione: 21, bilancio: true, flag: true },
  '1_4': { maxFields: 35, azione: 34, bilancio: true, flag: true },
};
export const SUPPORTED_VERSIONS = Object.keys(LAYOUTS);

/**
 * One line of the import CSV as MyPay4 reads it (ImportFlussoTaskService.leggiVerificaRiga): split on the `;`
 * outside double quotes, each field trimmed and stripped of its surrounding quotes, the fields taken BY
 * POSITION (the header line is skipped, its names never read). Too many fields, a missing required field or
 * one too long is a syntax error (PAA_IMPORT_SINTASSI_CSV) listing MyPay's reasons.
 */
export function readImportLine(line: string, version: string): { row: Record<string, string>; syntax: string[] } {
  const layout = LAYOUTS[version]!;
  const split = line.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (line.endsWith(';') && split.at(-1) !== '') split.push('');
  const data = split.map((field) => {
    const text = field.trim();
    return (text.startsWith('"') && text.endsWith('"') && text.length > 1 ? text.slice(1, -1) : text).replaceAll('\\"', '"');
  });
  const field = (index: number) => data[index] ?? '';
  const row: Record<string, string> = Object.fromEntries(IMPORT_COLUMNS.slice(0, 19).map((column, index) => [column, field(index)]));
  row.bilancio = layout.bilancio ? field(19) : '';
  row.flagGeneraIuv = layout.flag ? field(20) : '';
  row.azione = field(layout.azione);
  const syntax: string[] = [];
  if (data.length > layout.maxFields) syntax.push('Too many columns');
  if (data.length <= layout.azione) return { row, syntax: ['ERRORE GENERICO NELLA LETTURA DELLA RIGA DEL CSV'] };
  const required: [string, string][] = [['IUD', 'IUD NON PRESENTE'], ['tipoIdentificativoUnivoco', 'TIPO_IDENTIFICATIVO_UNIVOCO NON PRESENTE'], ['codiceIdentificativoUnivoco', 'CODICE_IDENTIFICATIVO_UNIVOCO NON PRESENTE'], ['anagraficaPagatore', 'ANAGRAFICA_PAGATORE NON PRESENTE'], ['importoDovuto', 'IMPORTO_DOVUTO NON PRESENTE'], ['tipoDovuto', 'TIPO_DOVUTO NON PRESENTE'], ['causaleVersamento', 'CAUSALE_VERSAMENTO NON PRESENTE'], ['datiSpecificiRiscossione', 'DATI_SPECIFICI_RISCOSSIONE NON PRESENTE'], ['azione', 'AZIONE NON PRESENTE']];
  for (const [column, reason] of required) if (!row[column]) syntax.push(reason);
  const limits: [string, number, string][] = [
    ['IUD', 35, 'COD_IUD TROPPO GRANDE'], ['codIuv', 35, 'COD_IUV TROPPO GRANDE'], ['codiceIdentificativoUnivoco', 35, 'CODICE_IDENTIFICATIVO_UNIVOCO TROPPO GRANDE'],
    ['anagraficaPagatore', 70, 'ANAGRAFICA_PAGATORE TROPPO GRANDE'], ['indirizzoPagatore', 70, 'INDIRIZZO_PAGATORE TROPPO GRANDE'], ['civicoPagatore', 16, 'CIVICO_PAGATORE TROPPO GRANDE'],
    ['capPagatore', 16, 'CAP_PAGATORE TROPPO GRANDE'], ['localitaPagatore', 35, 'LOCALITA_PAGATORE TROPPO GRANDE'], ['provinciaPagatore', 2, 'PROVINCIA_PAGATORE TROPPO GRANDE'],
    ['nazionePagatore', 2, 'NAZIONE_PAGATORE TROPPO GRANDE'], ['mailPagatore', 256, 'EMAIL_PAGATORE TROPPO GRANDE'], ['importoDovuto', 15, 'IMPORTO_DOVUTO TROPPO GRANDE'],
    ['commissioneCaricoPa', 15, 'COMMISSIONE_CARICO_PA TROPPO GRANDE'], ['tipoDovuto', 64, 'TIPO_DOVUTO TROPPO GRANDE'], ['tipoVersamento', 32, 'TIPO_VERSAMENTO TROPPO GRANDE'],
    ['causaleVersamento', version === '1_0' ? 140 : 1024, 'CAUSALE_VERSAMENTO TROPPO GRANDE'], ['datiSpecificiRiscossione', 140, 'DATI_SPECIFICI_RISCOSSIONE TROPPO GRANDE'],
    ['bilancio', 4096, 'BILANCIO TROPPO GRANDE'],
  ];
  for (const [column, max, reason] of limits) if (row[column]!.length > max) syntax.push(reason);
  if (row.tipoIdentificativoUnivoco && row.tipoIdentificativoUnivoco.length !== 1) syntax.push('TIPO_IDENTIFICATIVO_UNIVOCO TROPPO GRANDE');
  if (row.azione && row.azione.length !== 1) syntax.push('AZIONE TROPPO GRANDE');
  // SimpleDateFormat("yyyy-MM-dd") is lenient: ten characters that parse (2026-13-01 rolls into 2027).
  const date = row.dataEsecuzionePagamento!;
  if (date && (date.length !== 10 || !/^\d{4}-\d{1,2}-\d{1,2}$/.test(date))) syntax.push('dataScadenzaPagamento:wrong DATE pattern or wrong DATE data');
  if (!date && (version === '1_0' || version === '1_1')) syntax.push('DATA_SCADENZA_PAGAMENTO NON PRESENTE');
  if (row.importoDovuto && !JAVA_DOUBLE.test(row.importoDovuto)) syntax.push(`IMPORTO_DOVUTO NON CONFROME: ${row.importoDovuto}`);
  if (row.commissioneCaricoPa && !JAVA_DOUBLE.test(row.commissioneCaricoPa)) syntax.push(`COMMISSIONE_CARICO_PA NON CONFROME: ${row.commissioneCaricoPa}`);
  if (layout.flag && row.flagGeneraIuv && !/^(true|false)$/i.test(row.flagGeneraIuv)) syntax.push(row.flagGeneraIuv.length > 5 ? 'FLAG_GENERA_IUV TROPPO GRANDE' : 'FLAG_GENERA_IUV NON CONFORME');
  row.tipoIdentificativoUnivoco = row.tipoIdentificativoUnivoco!.toUpperCase();
  row.codiceIdentificativoUnivoco = row.codiceIdentificativoUnivoco!.toUpperCase();
  return { row, syntax };
}

/** What Java's Double.valueOf reads (MyPay4 parses amounts with it). */
const JAVA_DOUBLE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/;
/** MyPay4 util/Constants.java EMAIL_PATTERN. */
const MYPAY_EMAIL = /^[a-zA-Z0-9_!#$%&'*+/=?`{|}~^.-]+@[a-zA-Z0-9.-]+$/;
export const MAX_AMOUNT_CENTS = 99_999_999_999;
const manuale = (field: string) => `Errore sintassi CSV campo ${field}. Per maggiori informazioni fare riferimento al manuale 'Integrazione Ente'`;

/**
 * The checks of MyPay4's validaElabora (ImportFlussoTaskService.java; Utilities.java) on a row that read
 * well, each failed one adding `|<code>` and `|<text>` as MyPay writes them into SCARTI: IUD not starting
 * with 000, IUV, tipoDovuto known and active for the entity, the fiscal code (F) or VAT number (G), the civic
 * number printable ASCII, the nation a known code, the province a known code when the nation is IT, the CAP
 * `^[a-zA-Z0-9]{1,16}$`, the e-mail pattern, the amount (not zero, at most MAX_AMOUNT), tipoVersamento,
 * datiSpecificiRiscossione, bilancio (its amounts add up to the row's). Then the database's own refusals
 * (insert/modify functions): an IUD already held (I), one not held (M, A); a paid or cancelled one cannot
 * change (DovutoService: a ValidatorException, PAA_IMPORT_ERROR).
 */
export function validateRow(row: Record<string, string>, held: Position | undefined, entity: SimulatedEntity): RowRejection | null {
  const codes: string[] = [];
  const reasons: string[] = [];
  const fail = (code: string, reason: string, separator = '|') => (codes.push(`${separator}${code}`), reasons.push(`|${reason}`));
  const { IUD: iud = '', codIuv = '', azione = '' } = row;
  if (iud.startsWith('000')) fail('PAA_IMPORT_SINTASSI_CSV_IUD', manuale('IUD'));
  const generate = (row.flagGeneraIuv ?? '').toLowerCase() === 'true';
  // Utilities.validaIUV: 15, 17 or 25 characters; one of 17 not generated by MyPay carries the entity's code.
  if (codIuv && (codIuv.length === 17 ? !generate && !codIuv.startsWith(entity.segregationCode) : codIuv.length === 15 ? codIuv.startsWith('00') : codIuv.length !== 25)) {
    fail('PAA_IMPORT_SINTASSI_CSV_IUV', manuale('codIuv'));
  }
  const tipo = entity.tipiDovuto[row.tipoDovuto!];
  if (tipo === undefined) fail('PAA_IMPORT_SINTASSI_CSV_TIPO_DOVUTO_INESISTENTE', 'Errore sintassi CSV campo tipoDovuto non presente in archivio');
  else if (!tipo) fail('PAA_IMPORT_SINTASSI_CSV_TIPO_DOVUTO_NON_ATTIVO_PER_ENTE', 'Errore sintassi CSV campo tipoDovuto non attivo per ente');
  const payerType = row.tipoIdentificativoUnivoco;
  const payer = row.codiceIdentificativoUnivoco!;
  if (payerType === 'F' ? !isMyPayFiscalCode(payer) : payerType === 'G' ? !/^\d{11}$/.test(payer) : true) {
    // MyPay4 appends this one code without its '|' (ImportFlussoTaskService.validaElabora, as written there).
    if (payerType === 'F') fail('PAA_IMPORT_SINTASSI_CSV_COD_FISC', "Errore sintassi CSV Codice fiscale non valido. Per maggiori informazioni fare riferimento al manuale 'Integrazione Ente'", '');
    else if (payerType === 'G') fail('PAA_IMPORT_SINTASSI_CSV_P_IVA', manuale('P.IVA non valida'));
    else fail('PAA_IMPORT_SINTASSI_CSV_ID_UNIV_FG', manuale('tipoIdentificativoUnivoco'));
  }
  if (row.civicoPagatore && !/^[\x20-\x7e]+$/.test(row.civicoPagatore)) fail('PAA_IMPORT_SINTASSI_CSV_CIVICO', manuale('civicoPagatore'));
  const nation = row.nazionePagatore!;
  if (nation && !COUNTRY_CODES.has(nation.toUpperCase())) fail('PAA_IMPORT_SINTASSI_CSV_NAZ', manuale('nazionePagatore'));
  if (row.provinciaPagatore && nation.toUpperCase() === 'IT' && !PROVINCE_CODES.has(row.provinciaPagatore.toUpperCase())) fail('PAA_IMPORT_SINTASSI_CSV_PROV', manuale('provinciaPagatore'));
  if (row.capPagatore && !/^[a-zA-Z0-9]{1,16}$/.test(row.capPagatore)) fail('PAA_IMPORT_SINTASSI_CSV_CAP', manuale('capPagatore'));
  if (row.mailPagatore && !MYPAY_EMAIL.test(row.mailPagatore)) fail('PAA_IMPORT_SINTASSI_CSV_EMAIL', manuale('emailPagatore'));
  const amount = centsFromDouble(row.importoDovuto!);
  if (amount === 0 || amount > MAX_AMOUNT_CENTS) fail('PAA_IMPORT_SINTASSI_CSV_IMPORTO', manuale('importoDovuto'));
  if (row.commissioneCaricoPa && centsFromDouble(row.commissioneCaricoPa) > MAX_AMOUNT_CENTS) fail('PAA_IMPORT_SINTASSI_CSV_COMMISSIONI_PA', manuale('commissioneCaricoPa'));
  if (row.tipoVersamento && row.tipoVersamento.split('|').some((token) => !TIPI_VERSAMENTO.has(token.trim().toUpperCase()))) fail('PAA_IMPORT_SINTASSI_CSV_TIPO_VERS', manuale('tipoVersamento'));
  if (!/^[0129]\/\S{3,138}$/.test(row.datiSpecificiRiscossione!)) fail('PAA_IMPORT_SINTASSI_CSV_DATI_RISCOSS', manuale('datiSpecificiRiscossione'));
  if (row.bilancio && bilancioTotal(row.bilancio) !== amount) fail('PAA_IMPORT_SINTASSI_CSV_BILANCIO', manuale('bilancio'));
  if (!codes.length && azione === 'I' && held) fail('PAA_IMPORT_IUD_DUPLICATO', 'IUD attivo presente nel database, non si accettano dovuti duplicati');
  if (!codes.length && (azione === 'M' || azione === 'A') && !held) fail('PAA_IMPORT_DOVUTO_NON_PRESENTE', 'Dovuto non presente o in pagamento nel database, impossibile modificarlo');
  if (!codes.length && (azione === 'M' || azione === 'A') && held && held.status !== 'DA_PAGARE') {
    const text = azione === 'A' ? 'Questo dovuto non può essere annullato.' : 'Questo dovuto non può essere modificato.';
    return { code: 'PAA_IMPORT_ERROR', reason: `|CODICE PAA_IMPORT_ERROR DESCRIZIONE ${text}` };
  }
  return codes.length ? { code: codes.join(''), reason: reasons.join('') } : null;
}

/** "66.43" (as Java's Double reads it) → 6643; NaN for what is no number. */
export function centsFromDouble(text: string): number {
  return Math.round(Number(text.replace(/[dDfF]$/, '')) * 100);
}

/** The sum of the bilancio's accertamento amounts in cents (Utilities.verificaImportoBilancio), NaN when it is not that XML. */
export function bilancioTotal(xml: string | XmlElement): number {
  try {
    const bilancio = typeof xml === 'string' ? parseXml(xml).root! : xml;
    const capitoli = elementsOf(bilancio).filter((c) => localName(c.name) === 'capitolo');
    if (!capitoli.length || capitoli.some((c) => !textOf(c, 'codCapitolo'))) return Number.NaN;
    let total = 0;
    for (const capitolo of capitoli) {
      const accertamenti = elementsOf(capitolo).filter((c) => localName(c.name) === 'accertamento');
      if (!accertamenti.length) return Number.NaN;
      for (const accertamento of accertamenti) {
        const importo = textOf(accertamento, 'importo');
        if (!/^\d{1,9}(\.\d{1,2})?$/.test(importo)) return Number.NaN;
        total += centsFromDecimal(importo);
      }
    }
    return total;
  } catch {
    return Number.NaN;
  }
}
