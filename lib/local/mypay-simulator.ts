/**
 * The MyPay simulator: a working stand-in for Regione Veneto's MyPay (reference.md), started by `npm start`.
 *
 * - SOAP (soap.listen, the WSDL functions/adapters/mypay/pa-per-ente.wsdl) at /pa/services/PagamentiTelematiciDovutiPagati:
 *   paaSILAutorizzaImportFlusso, paaSILChiediStatoImportFlusso, paaSILImportaDovuto, paaSILInviaDovuti,
 *   paaSILChiediPagati, paaSILPrenotaExportFlusso, paaSILChiediStatoExportFlusso;
 * - MyBox upload (POST /mybox/uploadFlusso, multipart: authorizationToken, md5, one file) and downloads
 *   (GET /mybox/download/<token>/<file>);
 * - paying a position MyPay holds as MyPay4 does it: paaSILChiediPosizioniAperte lists a person's unpaid
 *   positions with an urlPagamento (/public/landing/precaricato?id=<a session fixed per position>), the landing
 *   takes backUrl and opens the checkout (ChiediPosizioniAperteService.java, LandingController.java);
 * - a checkout page (GET/POST /checkout/<idSession>) standing for pagoPA's: the tester picks success, failure
 *   or cancel and is sent back to the return URL with ?idSession=…&esito=OK|ERROR&pollingToken=… (LandingController);
 * - fault switches (JSON API under /admin, and the page at /): 5xx, timeout or lost answer on any operation
 *   (once, N times, always), stuck or aborted imports, rejected rows (by IUD or count), a reused request
 *   token, and "mark positions paid" for the reporting.
 *
 * Rows are validated here from reference.md's column table, independently of the portal's CSV builder.
 * State (positions by IUD with their IUVs, imports, sessions, exports, the next IUV number) lives in
 * memory and in <dataDir>/mypay/state.json; result files in <dataDir>/mypay/files.
 */
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import Papa from 'papaparse';
import * as soap from 'soap';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { isValidFiscalCode } from '../../functions/domain/fiscal-code.ts';
import { COUNTRY_CODES, PROVINCE_CODES } from '../../functions/domain/place-codes.ts';
import { mypayIuv } from './mypay-iuv.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WSDL_PATH = path.resolve(here, '../../functions/adapters/mypay/pa-per-ente.wsdl');
export const SOAP_PATH = '/pa/services/PagamentiTelematiciDovutiPagati';
export const OPERATIONS = [
  'paaSILAutorizzaImportFlusso',
  'paaSILChiediStatoImportFlusso',
  'paaSILImportaDovuto',
  'paaSILInviaDovuti',
  'paaSILChiediPagati',
  'paaSILPrenotaExportFlusso',
  'paaSILChiediStatoExportFlusso',
  'paaSILChiediPosizioniAperte',
] as const;
/** Operations a fault switch can name: the SOAP operations, the MyBox upload and the file downloads. */
export const FAULT_TARGETS = [...OPERATIONS, 'upload', 'download'] as const;

/** The import CSV's columns (reference.md, version 1_3), in order. */
export const IMPORT_COLUMNS = [
  'IUD',
  'codIuv',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'indirizzoPagatore',
  'civicoPagatore',
  'capPagatore',
  'localitaPagatore',
  'provinciaPagatore',
  'nazionePagatore',
  'mailPagatore',
  'dataEsecuzionePagamento',
  'importoDovuto',
  'commissioneCaricoPa',
  'tipoDovuto',
  'tipoVersamento',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'bilancio',
  'flagGeneraIuv',
  'azione',
] as const;

/** MyPay's reporting export columns (version 1.0 of the "export pagati" layout). */
export const EXPORT_COLUMNS = [
  'iuf', 'numRigaFlusso', 'codIud', 'codIuv', 'versioneOggetto', 'identificativoDominio', 'identificativoStazioneRichiedente',
  'identificativoMessaggioRicevuta', 'dataOraMessaggioRicevuta', 'riferimentoMessaggioRichiesta', 'riferimentoDataRichiesta',
  'tipoIdentificativoUnivoco', 'codiceIdentificativoUnivoco', 'denominazioneAttestante', 'codiceUnitOperAttestante',
  'denomUnitOperAttestante', 'indirizzoAttestante', 'civicoAttestante', 'capAttestante', 'localitaAttestante',
  'provinciaAttestante', 'nazioneAttestante', 'enteBenefTipoIdentificativoUnivoco', 'enteBenefCodiceIdentificativoUnivoco',
  'denominazioneBeneficiario', 'codiceUnitOperBeneficiario', 'denomUnitOperBeneficiario', 'indirizzoBeneficiario',
  'civicoBeneficiario', 'capBeneficiario', 'localitaBeneficiario', 'provinciaBeneficiario', 'nazioneBeneficiario',
  'soggVersTipoIdentificativoUnivoco', 'soggVersCodiceIdentificativoUnivoco', 'anagraficaVersante', 'indirizzoVersante',
  'civicoVersante', 'capVersante', 'localitaVersante', 'provinciaVersante', 'nazioneVersante', 'emailVersante',
  'soggPagTipoIdentificativoUnivoco', 'soggPagCodiceIdentificativoUnivoco', 'anagraficaPagatore', 'indirizzoPagatore',
  'civicoPagatore', 'capPagatore', 'localitaPagatore', 'provinciaPagatore', 'nazionePagatore', 'emailPagatore',
  'codiceEsitoPagamento', 'importoTotalePagato', 'identificativoUnivocoVersamento', 'codiceContestoPagamento',
  'singoloImportoPagato', 'esitoSingoloPagamento', 'dataEsitoSingoloPagamento', 'identificativoUnivocoRiscoss',
  'causaleVersamento', 'datiSpecificiRiscossione', 'tipoDovuto',
] as const;

/** MyPay4 util/Constants.java TIPO_VERSAMENTO (a row may list several, `|`-separated). */
const TIPI_VERSAMENTO = new Set(['ALL', 'BBT', 'BP', 'AD', 'CP', 'PO', 'OBEP']);

export interface SimulatedEntity {
  codIpa: string;
  password: string;
  /** Segregation code of the entity's IUVs (2 digits). */
  segregationCode: string;
  name: string;
  /** The entity's tipi dovuto, active or not (MyPay4 mygov_ente_tipo_dovuto): a row of another is refused. */
  tipiDovuto: Record<string, boolean>;
}

export interface MyPaySimulatorOptions {
  port: number;
  host?: string;
  /** Where state.json and the result files live (<dataDir>/mypay). */
  dataDir: string;
  entities?: SimulatedEntity[];
  /** How long a "timeout" fault holds a request before dropping the connection (default 60 s). */
  holdMs?: number;
  /**
   * MyPay's default entity (pa.codIpaEntePredefinito): paaSILChiediPosizioniAperte checks its password, not
   * the caller's (ChiediPosizioniAperteService.java). Default: the first entity.
   */
  defaultEntity?: string;
}

/** The XSD MyPay4 validates paaSILInviaDovuti's `dovuti` against (PagamentiTelematiciDovutiPagatiImpl.java). */
export const DOVUTI_XSD_PATH = path.resolve(here, 'mypay/PagInf_Dovuti_Pagati_6_2_0.xsd');
/** MyPay4 expires a cart not started within 15 minutes (application.properties task.scadenzaCarrello.minutiScadenzaCarrello). */
export const CART_EXPIRY_MS = 15 * 60_000;

export const DEFAULT_ENTITY: SimulatedEntity = { codIpa: 'C_DEMO', password: 'Password1!', segregationCode: '01', name: 'Comune di Esempio', tipiDovuto: { SERVIZI_SOCIALI: true } };

type PositionStatus = 'DA_PAGARE' | 'PAGATO' | 'ANNULLATO';
interface Position {
  codIpa: string;
  iud: string;
  iuv: string;
  status: PositionStatus;
  amountCents: number;
  tipoIdentificativoUnivoco: string;
  fiscalCode: string;
  anagrafica: string;
  email: string;
  causale: string;
  dueDate: string;
  tipoDovuto: string;
  datiSpecificiRiscossione: string;
  updatedAt: string;
  /** esito: esitoSingoloPagamento as MyPay stores it ('0' for pagoPA's paSendRT, 'PAGATO CON RENDICONTAZIONE 9', or a receipt's text). */
  paid?: PaymentRecord;
  /** Payments after the first (a notice paid twice through two channels): reported too. */
  morePayments?: PaymentRecord[];
  /** The session MyPay4 fixes for the position when paaSILChiediPosizioniAperte first lists it (dovuto.idSession). */
  idSession?: string;
}
interface PaymentRecord {
  amountCents: number;
  paidOn: string;
  iur: string;
  esito?: string;
}
type ImportState = 'AUTORIZZATO' | 'LOAD_IMPORT' | 'IMPORT_IN_ELAB' | 'IMPORT_ESEGUITO' | 'IMPORT_ABORTITO';
interface ImportRecord {
  requestToken: string;
  codIpa: string;
  createdAt: string;
  state: ImportState;
  /** 'stuck': kept in IMPORT_IN_ELAB (an entity with GPD enabled); 'failed': ends with `failWith`. */
  mode: 'normal' | 'stuck' | 'failed';
  failWith?: string;
  fileName?: string;
  /** The flow's IUF (the second part of the name). */
  iuf?: string;
  uploadedAt?: string;
  processed?: boolean;
  elabReported?: boolean;
  rows?: number;
  accepted?: number;
  rejected?: number;
  files: { iuv?: string; scarti?: string; avvisi?: string };
  /**
   * MyPay's error code when it failed the import (ImportFlussoTaskService.validaFlusso): the status answers
   * it instead of the state (PagamentiTelematiciDovutiPagatiImpl.paaSILChiediStatoImportFlusso).
   */
  codErrore?: string;
  /** The MD5 MyPay keeps beside the file (`<name>.md5`), compared when the import is processed. */
  md5?: string;
}
interface SessionRecord {
  idSession: string;
  codIpa: string;
  returnUrl: string;
  iuds: string[];
  status: 'NON_INIZIATO' | 'IN_CORSO' | 'PAGATO' | 'KO' | 'ANNULLATO' | 'SCADUTO';
  createdAt: string;
  /** The payment each position got in this session (by IUD), when paid. */
  payments?: Record<string, PaymentRecord>;
}
interface ExportRecord {
  requestToken: string;
  codIpa: string;
  from: string;
  to: string;
  polls: number;
  state: 'LOAD_EXPORT' | 'EXPORT_IN_ELAB' | 'EXPORT_ESEGUITO' | 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO';
  file?: string;
}
interface State {
  nextIuv: Record<string, number>;
  positions: Record<string, Position>;
  imports: Record<string, ImportRecord>;
  /** authorizationToken → requestToken */
  authorizations: Record<string, string>;
  sessions: Record<string, SessionRecord>;
  exports: Record<string, ExportRecord>;
  /** download token → file name under files/ */
  downloads: Record<string, string>;
  /** Every ZIP name received, by entity (MyPay4 FlussoDao.countDuplicateFileName: a name is never taken twice). */
  fileNames: Record<string, string[]>;
}

export type FaultKind = '5xx' | 'timeout' | 'lost-answer';
export interface FaultRule {
  target: string;
  kind: FaultKind;
  /** null = always */
  remaining: number | null;
}
export interface Switches {
  faults: FaultRule[];
  /** The next imports uploaded stay in IMPORT_IN_ELAB ('stuck', as with GPD) or fail with MyPay's `code`. */
  importMode: { mode: 'stuck' | 'failed'; code?: string; remaining: number | null } | null;
  /** Rows rejected by the next import: these IUDs (every import while set) and/or the first `count` valid rows (once). */
  reject: { iuds: string[]; count: number };
  /** The next authorisations hand out a request token that was already used. */
  reuseToken: number;
}

const now = () => new Date().toISOString();
const today = () => now().slice(0, 10);
const token = () => randomBytes(18).toString('base64url');

const escapeHtml = (value: string) => value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!);
const centsFromDecimal = (text: string) => {
  const [units, decimals = ''] = text.split('.');
  return Number(units) * 100 + Number(decimals.padEnd(2, '0'));
};
const decimalFromCents = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const euro = new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' });
const isRealDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

const elementsOf = (element: XmlElement | undefined) => (element ? element.children.filter((c): c is XmlElement => c instanceof XmlElement) : []);
const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const childOf = (element: XmlElement | undefined, name: string) => elementsOf(element).find((c) => localName(c.name) === name);
const textOf = (element: XmlElement | undefined, name: string) => childOf(element, name)?.text.trim() ?? '';

let dovutiValidator: XsdValidator | undefined;
/** The schema's first complaint about a Dovuti XML (libxml2's XSD validation), or null when it is valid. */
export function dovutiSchemaErrors(xml: string): string | null {
  dovutiValidator ??= XsdValidator.fromDoc(XmlDocument.fromString(fs.readFileSync(DOVUTI_XSD_PATH, 'utf8')));
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (error) {
    return `XML non ben formato: ${(error as Error).message}`;
  }
  try {
    dovutiValidator.validate(doc);
    return null;
  } catch (error) {
    return (error as Error).message.trim();
  } finally {
    doc.dispose();
  }
}

/** A position as MyPay4's paaSILChiediPosizioniAperte describes it (ChiediPosizioniAperteService.mapDebitoToNewDovuti). */
function dovutiXml(p: Position): string {
  const el = (name: string, value: string) => (value ? `<${name}>${escapeHtml(value)}</${name}>` : '');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><Dovuti xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/"><versioneOggetto>6.2</versioneOggetto>` +
    `<soggettoPagatore><identificativoUnivocoPagatore>${el('tipoIdentificativoUnivoco', p.tipoIdentificativoUnivoco)}${el('codiceIdentificativoUnivoco', p.fiscalCode)}</identificativoUnivocoPagatore>` +
    `${el('anagraficaPagatore', p.anagrafica)}${el('e-mailPagatore', p.email)}</soggettoPagatore>` +
    `<datiVersamento><tipoVersamento>ALL</tipoVersamento>${el('identificativoUnivocoVersamento', p.iuv)}<datiSingoloVersamento>` +
    `${el('identificativoUnivocoDovuto', p.iud)}<importoSingoloVersamento>${decimalFromCents(p.amountCents)}</importoSingoloVersamento>` +
    `${el('identificativoTipoDovuto', p.tipoDovuto)}${el('causaleVersamento', p.causale)}${el('datiSpecificiRiscossione', p.datiSpecificiRiscossione)}` +
    `</datiSingoloVersamento></datiVersamento></Dovuti>`
  );
}

/** A cart never started within MyPay4's 15 minutes is expired (ScadenzaCarrelloTaskService). */
function expireIfStale(session: SessionRecord, at = Date.now()) {
  if (session.status === 'NON_INIZIATO' && at - Date.parse(session.createdAt) > CART_EXPIRY_MS) session.status = 'SCADUTO';
}

class SoapFault {
  constructor(
    readonly faultCode: string,
    readonly faultString: string,
    readonly description?: string,
  ) {}
}

export interface RowRejection {
  code: string;
  reason: string;
}

/** MyPay4's import layouts (util/SupportedFileVersion): how many fields a row may have, and where azione is. */
const LAYOUTS: Record<string, { maxFields: number; azione: number; bilancio: boolean; flag: boolean }> = {
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
const MAX_AMOUNT_CENTS = 99_999_999_999;
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
  if (payerType === 'F' ? !isValidFiscalCode(payer) : payerType === 'G' ? !/^\d{11}$/.test(payer) : true) {
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
function centsFromDouble(text: string): number {
  return Math.round(Number(text.replace(/[dDfF]$/, '')) * 100);
}

/** The sum of the bilancio's accertamento amounts in cents (Utilities.verificaImportoBilancio), NaN when it is not that XML. */
function bilancioTotal(xml: string | XmlElement): number {
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

/** A PDF literal string in WinAnsi (Latin-1 plus €), with ( ) \\ escaped; other characters become '?'. */
function pdfText(value: string): string {
  let out = '';
  for (const char of value.normalize('NFC')) {
    const code = char === '€' ? 0x80 : char.charCodeAt(0);
    const byte = char.length === 1 && (code < 0x80 ? code >= 0x20 : code === 0x80 || code >= 0xa0) && code <= 0xff ? String.fromCharCode(code) : '?';
    out += byte === '(' || byte === ')' || byte === '\\' ? `\\${byte}` : byte;
  }
  return `(${out})`;
}

/**
 * A one-page payment notice (avviso di pagamento): amount, NAV, IUV, payer, causale and due date, in the
 * standard Helvetica fonts (not embedded). Written directly as PDF 1.4 objects: pdf-lib takes ~17 ms a
 * document on this machine, i.e. ~3 minutes for an import of 10,000 positions; this takes well under 1 ms.
 * The integration tests read the notices back with pdf-lib and pdfjs-dist.
 */
export function renderNotice(position: Position, entity: SimulatedEntity): Uint8Array {
  const nav = `3${position.iuv}`;
  const lines: [string, string, number][] = [
    ['Ente creditore', entity.name, 12],
    ['Destinatario', `${position.anagrafica} (${position.fiscalCode})`, 12],
    ['Oggetto del pagamento', position.causale.length > 80 ? `${position.causale.slice(0, 77)}...` : position.causale, 11],
    ['Importo', euro.format(position.amountCents / 100), 16],
    ['Entro il', position.dueDate.split('-').reverse().join('/'), 12],
    ['Codice avviso', nav.replace(/(\d{4})(\d{4})(\d{4})(\d{4})(\d{2})/, '$1 $2 $3 $4 $5'), 14],
    ['IUV', position.iuv, 12],
    ['Codice fiscale / IPA ente', entity.codIpa, 12],
  ];
  let y = 740;
  const content = [
    `BT /F2 18 Tf 50 790 Td ${pdfText('AVVISO DI PAGAMENTO pagoPA')} Tj ET`,
    ...lines.map(([label, value, size]) => {
      const row = `BT 0.35 g /F1 10 Tf 50 ${y} Td ${pdfText(label)} Tj ET BT 0 g /F2 ${size} Tf 200 ${y} Td ${pdfText(value)} Tj ET`;
      y -= 30;
      return row;
    }),
    `BT 0.35 g /F1 9 Tf 50 ${y - 10} Td ${pdfText('Documento generato dal simulatore MyPay: non valido per il pagamento.')} Tj ET`,
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfText(`Avviso di pagamento ${position.iuv}`)} /Producer (Simulatore MyPay) >>`,
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}

export interface MyPaySimulator {
  url: string;
  /** The SOAP endpoint (MYPAY_ENDPOINT). */
  endpoint: string;
  entities: SimulatedEntity[];
  switches: Switches;
  close(): Promise<void>;
}

export async function startMyPaySimulator(options: MyPaySimulatorOptions): Promise<MyPaySimulator> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  // The entities' own copies: the admin API changes their tipi dovuto, a reset puts them back.
  const configured = options.entities ?? [DEFAULT_ENTITY];
  const entities = configured.map((e) => ({ ...e, tipiDovuto: { ...e.tipiDovuto } }));
  const entity = (codIpa: string) => entities.find((e) => e.codIpa === codIpa);
  const holdMs = options.holdMs ?? 60_000;
  const directory = path.join(options.dataDir, 'mypay');
  const filesDirectory = path.join(directory, 'files');
  fs.mkdirSync(filesDirectory, { recursive: true });
  const stateFile = path.join(directory, 'state.json');

  const empty = (): State => ({ nextIuv: {}, positions: {}, imports: {}, authorizations: {}, sessions: {}, exports: {}, downloads: {}, fileNames: {} });
  let state: State = fs.existsSync(stateFile) ? { ...empty(), ...JSON.parse(fs.readFileSync(stateFile, 'utf8')) } : empty();
  const switches: Switches = { faults: [], importMode: null, reject: { iuds: [], count: 0 }, reuseToken: 0 };

  let saving: Promise<void> | null = null;
  let dirty = false;
  /** Writes state.json (atomically: temp file + rename); calls during a write coalesce into one more. */
  const save = async () => {
    dirty = true;
    if (saving) return saving;
    saving = (async () => {
      while (dirty) {
        dirty = false;
        const temp = `${stateFile}.${process.pid}.tmp`;
        await fs.promises.writeFile(temp, JSON.stringify(state));
        await fs.promises.rename(temp, stateFile);
      }
    })().finally(() => (saving = null));
    return saving;
  };

  const positionKey = (codIpa: string, iud: string) => `${codIpa}|${iud}`;
  const newIuv = (e: SimulatedEntity) => {
    const next = (state.nextIuv[e.codIpa] ?? 0) + 1;
    state.nextIuv[e.codIpa] = next;
    return mypayIuv(e.segregationCode, next);
  };
  const storeFile = (name: string, bytes: Uint8Array) => {
    const stored = `${randomUUID()}-${name}`;
    fs.writeFileSync(path.join(filesDirectory, stored), bytes);
    const downloadToken = token();
    state.downloads[downloadToken] = stored;
    return `${url}/mybox/download/${downloadToken}/${encodeURIComponent(name)}`;
  };

  // ——— fault switches ———
  const takeFault = (target: string): FaultRule | undefined => {
    const rule = switches.faults.find((f) => (f.target === target || f.target === '*') && (f.remaining === null || f.remaining > 0));
    if (rule && rule.remaining !== null) rule.remaining -= 1;
    switches.faults = switches.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return rule;
  };
  const held = new Set<ServerResponse>();
  /** Holds the request without answering, then drops the connection: the client sees a timeout. */
  const hold = (res: ServerResponse) => {
    held.add(res);
    const timer = setTimeout(() => {
      held.delete(res);
      res.destroy();
    }, holdMs);
    res.on('close', () => {
      clearTimeout(timer);
      held.delete(res);
    });
  };
  /** Applies a fault before the request is handled; true when the request was answered (or held) by it. */
  const applyFault = (target: string, res: ServerResponse): boolean => {
    const rule = takeFault(target);
    if (!rule) return false;
    if (rule.kind === '5xx') {
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>503 Service Unavailable</h1></body></html>');
      return true;
    }
    if (rule.kind === 'timeout') {
      hold(res);
      return true;
    }
    // lost-answer: the request is processed, its answer never arrives
    res.writeHead = (() => res) as unknown as typeof res.writeHead;
    res.write = (() => true) as typeof res.write;
    res.end = (() => {
      hold(res);
      return res;
    }) as typeof res.end;
    return false;
  };

  // ——— the import ———
  /**
   * MyPay4's batch on one uploaded file (ImportFlussoTaskService.validaFlusso): the name's three parts, the
   * entity, the version and the MD5 (verificaNomeVersioneFile), the CSV named as the ZIP, the IUF not loaded
   * before nor loading (update_insert_flusso: PAA_IMPORT_FLUSSO_DUPLICATO, PAA_IMPORT_FLUSSO_IN_CARICAMENTO);
   * any of those fails the whole import with its code. Then every line (elaboraCsv): read by position,
   * checked, inserted, modified or cancelled; a refused one goes to SCARTI with its codes.
   */
  async function processImport(record: ImportRecord, zip: Uint8Array) {
    const e = entity(record.codIpa)!;
    const name = record.fileName!.replace(/\.zip$/i, '');
    const parts = name.split('-');
    const fail = (code: string) => void (record.codErrore = code);
    if (parts.length !== 3) return fail('PAA_IMPORT_NOME_FILE_ERR');
    const [codIpaOfFile, iuf, version] = parts as [string, string, string];
    record.iuf = iuf;
    if (codIpaOfFile.toLowerCase() !== e.codIpa.toLowerCase()) return fail(`PAA_IMPORT_ENTE_ERR(${codIpaOfFile},${e.codIpa})`);
    if (!SUPPORTED_VERSIONS.includes(version)) return fail(`PAA_IMPORT_FILE_VERSIONE_ERR(${version})`);
    if (createHash('md5').update(zip).digest('hex') !== record.md5) return fail('PAA_IMPORT_NO_MATCH_MD5');
    const sameIuf = Object.values(state.imports).filter((i) => i !== record && i.codIpa === record.codIpa && i.iuf === iuf);
    if (sameIuf.some((i) => i.state === 'IMPORT_ESEGUITO' && !i.codErrore)) return fail('PAA_IMPORT_FLUSSO_DUPLICATO');
    if (sameIuf.some((i) => i.state === 'LOAD_IMPORT' || i.state === 'IMPORT_IN_ELAB')) return fail('PAA_IMPORT_FLUSSO_IN_CARICAMENTO');
    let csvText: string;
    try {
      const csv = Object.entries(unzipSync(zip)).find(([entry]) => entry === `${name}.csv`);
      if (!csv) return fail('PAA_IMPORT_NO_CSV');
      csvText = strFromU8(csv[1]);
    } catch {
      return fail('PAA_IMPORT_NO_CSV');
    }
    if (record.mode === 'failed') return fail(record.failWith ?? 'PAA_IMPORT_ERROR');

    // BufferedReader.readLine: one record per line; the first line is the header, written back as it is.
    const [header = '', ...lines] = csvText.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
    const accepted: string[] = [];
    const rejected: string[] = [];
    const notices: Position[] = [];
    const loaded = new Set<string>();
    let toReject = switches.reject.count;
    switches.reject.count = 0;
    let index = 0;
    for (const line of lines) {
      if (!line.trim()) continue;
      // Let status polls and other requests in while a large file is processed.
      if (++index % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
      const { row, syntax } = readImportLine(line, version);
      const iud = row.IUD!;
      const key = positionKey(record.codIpa, iud);
      let rejection: RowRejection | null = syntax.length ? { code: 'PAA_IMPORT_SINTASSI_CSV', reason: syntax.map((text) => `|${text}`).join('') } : null;
      if (!rejection && loaded.has(iud)) rejection = { code: 'PAA_IMPORT_IUD_DUPLICATO', reason: "Errore IUD duplicato all''interno dello stesso flusso" };
      if (!rejection && !['I', 'M', 'A'].includes(row.azione!)) {
        rejection = { code: 'PAA_IMPORT_SINTASSI_CSV_AZIONE', reason: "Errore sintassi CSV campo azione. Per maggiori informazioni fare riferimento al manuale 'Integrazione Ente'" };
      }
      rejection ??= validateRow(row, state.positions[key], e);
      if (!rejection && (switches.reject.iuds.includes(iud) || toReject > 0)) {
        if (!switches.reject.iuds.includes(iud)) toReject -= 1;
        rejection = { code: '|PAA_IMPORT_ERROR', reason: '|Riga rifiutata dal simulatore (interruttore di prova)' };
      }
      if (rejection) {
        rejected.push(`${line};${rejection.code};${rejection.reason}`);
        continue;
      }
      loaded.add(iud);
      const existing = state.positions[key];
      const azione = row.azione!;
      const iuv = existing?.iuv ?? (row.flagGeneraIuv!.toLowerCase() === 'true' && !row.codIuv ? newIuv(e) : row.codIuv!);
      const position: Position = {
        codIpa: record.codIpa,
        iud,
        iuv,
        status: azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: azione === 'A' ? (existing?.amountCents ?? 0) : centsFromDouble(row.importoDovuto!),
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco!,
        fiscalCode: row.codiceIdentificativoUnivoco!,
        anagrafica: row.anagraficaPagatore!,
        email: row.mailPagatore!,
        causale: row.causaleVersamento!,
        dueDate: row.dataEsecuzionePagamento!,
        tipoDovuto: row.tipoDovuto!,
        datiSpecificiRiscossione: row.datiSpecificiRiscossione!,
        updatedAt: now(),
      };
      state.positions[key] = position;
      // creaRigaFileScartiOriIuv: the fields joined by ';' as they are, unquoted, the IUV filled in.
      const amount = (cents: number) => decimalFromCents(cents);
      accepted.push(
        [iud, iuv, row.tipoIdentificativoUnivoco, row.codiceIdentificativoUnivoco, row.anagraficaPagatore, row.indirizzoPagatore, row.civicoPagatore, row.capPagatore, row.localitaPagatore, row.provinciaPagatore, row.nazionePagatore, row.mailPagatore, row.dataEsecuzionePagamento, amount(centsFromDouble(row.importoDovuto!)), row.commissioneCaricoPa ? amount(centsFromDouble(row.commissioneCaricoPa)) : '', row.tipoDovuto, row.tipoVersamento || 'ALL', row.causaleVersamento, row.datiSpecificiRiscossione, ...(LAYOUTS[version]!.bilancio ? [row.bilancio] : []), ...(LAYOUTS[version]!.flag ? [row.flagGeneraIuv] : []), azione].join(';'),
      );
      if (azione !== 'A' && row.flagGeneraIuv!.toLowerCase() === 'true') notices.push(position);
    }
    const file = (lines_: string[], headerLine: string) => strToU8(`${headerLine}\n${lines_.join('\n')}\n`);
    if (accepted.length) record.files.iuv = storeFile(`${name}_IUV.zip`, zipSync({ [`${name}_IUV.csv`]: file(accepted, header) }));
    if (rejected.length) record.files.scarti = storeFile(`${name}_SCARTI.zip`, zipSync({ [`${name}_SCARTI.csv`]: file(rejected, `${header};cod_rifiuto;de_rifiuto`) }));
    // Notices only for layouts 1_3 and 1_4, for the rows whose IUV MyPay generated (elaboraCsv).
    if (notices.length && (version === '1_3' || version === '1_4')) {
      const pdfs: Record<string, Uint8Array> = {};
      for (const position of notices) pdfs[`avviso_${position.iuv}.pdf`] = renderNotice(position, e);
      record.files.avvisi = storeFile(`${name}_AVVISI_PDF.zip`, zipSync(pdfs, { level: 0 }));
    }
    record.rows = accepted.length + rejected.length;
    record.accepted = accepted.length;
    record.rejected = rejected.length;
  }

  // ——— SOAP operations ———
  const checkEntity = (codIpa: string | undefined, password: string | undefined) => {
    const e = codIpa ? entity(codIpa) : undefined;
    if (!e) throw new SoapFault('PAA_ENTE_NON_VALIDO', 'Ente non valido', `codIpaEnte "${codIpa ?? ''}" sconosciuto`);
    if (password !== e.password) throw new SoapFault('PAA_ENTE_NON_VALIDO', 'Password non valida');
    return e;
  };
  type Args = Record<string, unknown>;
  type Headers = { intestazionePPT?: { codIpaEnte?: string } } | undefined;
  const str = (value: unknown) =>
    value === undefined || value === null ? undefined : value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
  const withFaults =
    (run: (args: Args, headers: Headers) => Promise<object> | object) =>
    async (args: Args, _callback: unknown, headers: Headers) => {
      try {
        return await run(args ?? {}, headers);
      } catch (error) {
        if (error instanceof SoapFault) {
          const fault = { faultCode: error.faultCode, faultString: error.faultString, id: headers?.intestazionePPT?.codIpaEnte ?? 'MYPAY', description: error.description };
          return { fault };
        }
        throw error;
      }
    };

  const operations: Record<(typeof OPERATIONS)[number], ReturnType<typeof withFaults>> = {
    paaSILAutorizzaImportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const authorizationToken = token();
      let requestToken: string;
      const used = Object.values(state.imports).filter((i) => i.codIpa === e.codIpa && i.state !== 'AUTORIZZATO');
      if (switches.reuseToken > 0 && used.length) {
        switches.reuseToken -= 1;
        requestToken = used[used.length - 1].requestToken;
      } else {
        requestToken = randomUUID();
        state.imports[requestToken] = { requestToken, codIpa: e.codIpa, createdAt: now(), state: 'AUTORIZZATO', mode: 'normal', files: {} };
      }
      state.authorizations[authorizationToken] = requestToken;
      await save();
      return { uploadUrl: `${url}/mybox/uploadFlusso`, authorizationToken, requestToken, importPath: `${e.codIpa}/IMPORT` };
    }),

    paaSILChiediStatoImportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const record = state.imports[str(args.requestToken) ?? ''];
      // MyPay4 knows an import from its upload on (ImportDovutiService.insert): before, or for another
      // entity, the token is unknown (PagamentiTelematiciDovutiPagatiHelper.verificaImportDovuti).
      if (!record || record.codIpa !== e.codIpa || record.state === 'AUTORIZZATO') {
        throw new SoapFault('PAA_REQUEST_TOKEN_NON_VALIDO', 'Request token non valido', `nessun record trovato per Ente [${e.codIpa}] e requestToken [${str(args.requestToken) ?? ''}]`);
      }
      // A failed import answers its error code instead of a state.
      const answer = (stato: string) => {
        const files = record.state === 'IMPORT_ESEGUITO' ? record.files : {};
        return {
          stato: record.codErrore || stato,
          ...(args.fileScarti && files.scarti ? { urlFileScarti: files.scarti } : {}),
          ...(args.fileIUV && files.iuv ? { urlFileIUV: files.iuv } : {}),
          ...(args.fileAvvisi && files.avvisi ? { urlFileAvvisi: files.avvisi } : {}),
        };
      };
      if (record.state === 'LOAD_IMPORT') {
        record.state = 'IMPORT_IN_ELAB';
        await save();
        return { stato: 'LOAD_IMPORT' };
      }
      // Every import is seen IMPORT_IN_ELAB at least once, however quick the processing.
      if (record.state === 'IMPORT_IN_ELAB' && !record.elabReported) {
        record.elabReported = true;
        return { stato: 'IMPORT_IN_ELAB' };
      }
      // 'stuck' stands for an entity with GPD enabled: IMPORT_IN_ELAB until pagoPA has the positions.
      if (record.state === 'IMPORT_IN_ELAB' && record.processed && record.mode !== 'stuck') {
        record.state = record.codErrore ? 'IMPORT_ABORTITO' : 'IMPORT_ESEGUITO';
        await save();
      }
      return answer(record.state);
    }),

    /**
     * One position, as MyPay4's DovutoService.importDovuto takes it: `dovuto` is a Base64 `Versamento` XML
     * (PagInf_Dovuti_Pagati_6_2_0.xsd: versioneOggetto, soggettoPagatore, datiVersamento, azione), checked as
     * it checks it, each refusal a fault with MyPay's code and esito KO.
     */
    paaSILImportaDovuto: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const generate = String(args.flagGeneraIuv ?? '') === 'true';
      let versamento: XmlElement;
      try {
        versamento = parseXml(Buffer.from(str(args.dovuto) ?? '', 'base64').toString('utf8')).root!;
        if (localName(versamento.name) !== 'Versamento' || !textOf(versamento, 'versioneOggetto') || !childOf(versamento, 'datiVersamento') || !textOf(versamento, 'azione')) throw new Error('Versamento');
      } catch {
        throw new SoapFault('PAA_XML_NON_VALIDO', 'XML dei dovuti non valido', `XML ricevuto per paaSILImportaDovuto non conforme all' XSD per ente [${e.codIpa}]`);
      }
      const azione = textOf(versamento, 'azione');
      if (!['I', 'M', 'A', 'S'].includes(azione)) throw new SoapFault('PAA_AZIONE_NON_VALIDO', `azione non valida [${azione}]`);
      const dati = childOf(versamento, 'datiVersamento');
      const payer = childOf(versamento, 'soggettoPagatore');
      const id = childOf(payer, 'identificativoUnivocoPagatore');
      const bilancio = childOf(dati, 'bilancio');
      const row: Record<string, string> = {
        IUD: textOf(dati, 'identificativoUnivocoDovuto'),
        codIuv: textOf(dati, 'identificativoUnivocoVersamento'),
        tipoIdentificativoUnivoco: textOf(id, 'tipoIdentificativoUnivoco').toUpperCase(),
        codiceIdentificativoUnivoco: textOf(id, 'codiceIdentificativoUnivoco').toUpperCase(),
        anagraficaPagatore: textOf(payer, 'anagraficaPagatore'),
        civicoPagatore: textOf(payer, 'civicoPagatore'),
        capPagatore: textOf(payer, 'capPagatore'),
        provinciaPagatore: textOf(payer, 'provinciaPagatore'),
        nazionePagatore: textOf(payer, 'nazionePagatore'),
        mailPagatore: textOf(payer, 'e-mailPagatore'),
        dataEsecuzionePagamento: textOf(dati, 'dataEsecuzionePagamento'),
        importoDovuto: textOf(dati, 'importoSingoloVersamento'),
        commissioneCaricoPa: textOf(dati, 'commissioneCaricoPA'),
        tipoDovuto: textOf(dati, 'identificativoTipoDovuto'),
        tipoVersamento: textOf(dati, 'tipoVersamento'),
        causaleVersamento: textOf(dati, 'causaleVersamento'),
        datiSpecificiRiscossione: textOf(dati, 'datiSpecificiRiscossione'),
        bilancio: bilancio ? 'bilancio' : '',
        flagGeneraIuv: String(generate),
        azione,
      };
      if (row.dataEsecuzionePagamento && !isRealDate(row.dataEsecuzionePagamento)) throw new SoapFault('PAA_XML_NON_VALIDO', 'XML dei dovuti non valido', 'dataEsecuzionePagamento: xsd:date');
      const amount = /^\d{1,9}\.\d{2}$/.test(row.importoDovuto) ? centsFromDecimal(row.importoDovuto) : Number.NaN;
      // The checks of DovutoService.importDovuto, in its order.
      if (row.codIuv && (row.codIuv.length === 17 ? !generate && !row.codIuv.startsWith(e.segregationCode) : row.codIuv.length === 15 ? row.codIuv.startsWith('00') : row.codIuv.length !== 25)) {
        throw new SoapFault('PAA_IUV_NON_VALIDO', `IdentificativoUnivocoVersamento non valido [${row.codIuv}] per ente [${e.codIpa}]`);
      }
      if (!(amount > 0) || amount > MAX_AMOUNT_CENTS) throw new SoapFault('PAA_IMPORTO_SINGOLO_VERSAMENTO_NON_VALIDO', `ImportoSingoloVersamento non valido: ${row.importoDovuto}]`);
      if (bilancio && bilancioTotal(bilancio) !== amount) throw new SoapFault('PAA_IMPORTO_BILANCIO_NON_VALIDO', `Importo bilancio non congruente per dovuto con importo [${row.importoDovuto}]`);
      if (!row.tipoDovuto) throw new SoapFault('PAA_IDENT_TIPO_DOVUTO_NON_PRESENTE', 'paaSILImportaDovuto: identificativoTipoDovuto non specificato ');
      if (e.tipiDovuto[row.tipoDovuto] === undefined) throw new SoapFault('PAA_IDENTIFICATIVO_TIPO_DOVUTO_NON_VALIDO', `Error tipo dovuto [${row.tipoDovuto}] non censito per ente [${e.codIpa}]`);
      if (!e.tipiDovuto[row.tipoDovuto]) throw new SoapFault('PAA_IDENTIFICATIVO_TIPO_DOVUTO_NON_ABILITATO', `identificativoTipoDovuto [${row.tipoDovuto}] non abilitato`);
      if (!payer) throw new SoapFault('PAA_SOGG_PAG_NON_VALORIZZATO', 'paaSILImportaDovuto: soggettoPagatore non valorizzato. ');
      if (row.tipoVersamento && row.tipoVersamento.split('|').some((token) => !TIPI_VERSAMENTO.has(token.trim().toUpperCase()))) throw new SoapFault('PAA_TIPO_VERSAMENTO_NON_VALIDO', `paaSILImportaDovuto: Tipo versamento non valido: ${row.tipoVersamento}`);
      if (!row.IUD || row.IUD.startsWith('000')) throw new SoapFault('PAA_IUD_NON_VALIDO', `paaSILImportaDovuto: IdentificativoUnivocoDovuto non valido: ${row.IUD}`);
      if (!row.causaleVersamento.trim()) throw new SoapFault('PAA_CAUSALE_NON_PRESENTE', 'paaSILImportaDovuto: causaleVersamento non specificato ');
      if (!/^[0129]\/\S{3,138}$/.test(row.datiSpecificiRiscossione)) throw new SoapFault('PAA_DATI_SPECIFICI_RISCOSSIONE_NON_VALIDO', `paaSILImportaDovuto: DatiSpecificiRiscossione non valido: ${row.datiSpecificiRiscossione}`);
      if (row.tipoIdentificativoUnivoco === 'F' && !isValidFiscalCode(row.codiceIdentificativoUnivoco)) throw new SoapFault('PAA_CODICE_FISCALE_NON_VALIDO', `paaSILImportaDovuto: Codice fiscale non valido [${row.codiceIdentificativoUnivoco}]`);
      if (row.tipoIdentificativoUnivoco === 'G' && !/^\d{11}$/.test(row.codiceIdentificativoUnivoco)) throw new SoapFault('PAA_P_IVA_NON_VALIDO', `paaSILImportaDovuto: P.IVA non valida [${row.codiceIdentificativoUnivoco}]`);
      const key = positionKey(e.codIpa, row.IUD);
      const existing = state.positions[key];
      // The database functions' own refusals (insert_mygov_dovuto, modify_mygov_dovuto).
      if (azione === 'I' && existing) throw new SoapFault('PAA_IMPORT_IUD_DUPLICATO', `paaSILImportaDovuto: Errore import dovuto IUV [${row.codIuv}] e IUD [${row.IUD}]: IUD attivo presente nel database, non si accettano dovuti duplicati`);
      if ((azione === 'M' || azione === 'A') && (!existing || existing.status !== 'DA_PAGARE')) {
        throw new SoapFault('PAA_IMPORT_DOVUTO_NON_PRESENTE', `paaSILImportaDovuto: Errore import dovuto IUV [${row.codIuv}] e IUD [${row.IUD}]: Dovuto non presente o in pagamento nel database, impossibile modificarlo`);
      }
      if (azione === 'S') {
        if (!existing) throw new SoapFault('PAA_IUV_NON_VALIDO', `Nessun dovuto con IUV [${row.codIuv}]`);
        return { esito: 'OK', identificativoUnivocoVersamento: existing.iuv, urlFileAvviso: storeFile(`avviso_${existing.iuv}.pdf`, renderNotice(existing, e)) };
      }
      const iuv = existing?.iuv ?? (row.codIuv || (generate ? newIuv(e) : ''));
      const position: Position = {
        codIpa: e.codIpa,
        iud: row.IUD,
        iuv,
        status: azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: amount,
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco,
        fiscalCode: row.codiceIdentificativoUnivoco,
        anagrafica: row.anagraficaPagatore,
        email: row.mailPagatore,
        causale: row.causaleVersamento,
        dueDate: row.dataEsecuzionePagamento,
        tipoDovuto: row.tipoDovuto,
        datiSpecificiRiscossione: row.datiSpecificiRiscossione,
        updatedAt: now(),
      };
      state.positions[key] = position;
      // A notice link when MyPay generated the IUV of a new or changed position (DovutoService, end of importDovuto).
      const urlFileAvviso = iuv && generate && azione !== 'A' ? storeFile(`avviso_${iuv}.pdf`, renderNotice(position, e)) : undefined;
      await save();
      return { esito: 'OK', identificativoUnivocoVersamento: iuv, ...(urlFileAvviso ? { urlFileAvviso } : {}) };
    }),

    /**
     * A new cart of positions MyPay does not hold yet (MyPay4 PagamentiTelematiciDovutiPagatiImpl.paaSILInviaDovuti):
     * `dovuti` must be valid against PagInf_Dovuti_Pagati_6_2_0.xsd (PAA_XML_NON_VALIDO), carry no IUV
     * (PAA_IUV_NON_VALIDO: deprecated) and no IUD the entity already has (PAA_IUD_DUPLICATO). The new
     * positions' due date is today: MyPay has no other.
     */
    paaSILInviaDovuti: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const xml = Buffer.from(str(args.dovuti) ?? '', 'base64').toString('utf8');
      const invalid = dovutiSchemaErrors(xml);
      if (invalid) throw new SoapFault('PAA_XML_NON_VALIDO', 'XML dei dovuti non valido', invalid);
      const dovuti = parseXml(xml).root!;
      const versamento = childOf(dovuti, 'datiVersamento');
      if (textOf(versamento, 'identificativoUnivocoVersamento')) throw new SoapFault('PAA_IUV_NON_VALIDO', "l'inserimento dello IUV è deprecato");
      const tipoVersamento = textOf(versamento, 'tipoVersamento');
      if (!tipoVersamento.split('|').every((t) => TIPI_VERSAMENTO.has(t))) throw new SoapFault('PAA_TIPO_VERSAMENTO_NON_VALIDO', `Tipo versamento non valido [${tipoVersamento}]`);
      const payer = childOf(dovuti, 'soggettoPagatore');
      const id = childOf(payer, 'identificativoUnivocoPagatore');
      const fiscalCode = textOf(id, 'codiceIdentificativoUnivoco').toUpperCase();
      if (textOf(id, 'tipoIdentificativoUnivoco') === 'F' ? !isValidFiscalCode(fiscalCode) : !/^[0-9]{11}$/.test(fiscalCode)) {
        throw new SoapFault('PAA_CODICE_FISCALE_NON_VALIDO', `Codice fiscale non valido [${fiscalCode}]`);
      }
      const items = elementsOf(versamento).filter((c) => localName(c.name) === 'datiSingoloVersamento');
      const iuds: string[] = [];
      for (const item of items) {
        const iud = textOf(item, 'identificativoUnivocoDovuto');
        if (state.positions[positionKey(e.codIpa, iud)] || iuds.includes(iud)) throw new SoapFault('PAA_IUD_DUPLICATO', `IUD [${iud}] già inviato`);
        if (centsFromDecimal(textOf(item, 'importoSingoloVersamento')) <= 0) throw new SoapFault('PAA_IMPORTO_SINGOLO_VERSAMENTO_NON_VALIDO', 'ImportoSingoloVersamento non valido');
        if (!textOf(item, 'causaleVersamento')) throw new SoapFault('PAA_CAUSALE_NON_PRESENTE', 'Causale versamento obbligatoria mancante');
        iuds.push(iud);
      }
      for (const item of items) {
        const iud = textOf(item, 'identificativoUnivocoDovuto');
        state.positions[positionKey(e.codIpa, iud)] = {
          codIpa: e.codIpa,
          iud,
          iuv: newIuv(e),
          status: 'DA_PAGARE',
          amountCents: centsFromDecimal(textOf(item, 'importoSingoloVersamento')),
          tipoIdentificativoUnivoco: textOf(id, 'tipoIdentificativoUnivoco'),
          fiscalCode,
          anagrafica: textOf(payer, 'anagraficaPagatore'),
          email: textOf(payer, 'e-mailPagatore'),
          causale: textOf(item, 'causaleVersamento'),
          dueDate: today(),
          tipoDovuto: textOf(item, 'identificativoTipoDovuto'),
          datiSpecificiRiscossione: textOf(item, 'datiSpecificiRiscossione'),
          updatedAt: now(),
        };
      }
      const idSession = randomUUID();
      state.sessions[idSession] = { idSession, codIpa: e.codIpa, returnUrl: str(args.enteSILInviaRispostaPagamentoUrl) ?? '', iuds, status: 'NON_INIZIATO', createdAt: now() };
      await save();
      return { esito: 'OK', idSession, redirect: 1, url: `${url}/checkout/${idSession}` };
    }),

    /**
     * MyPay4 ChiediPosizioniAperteService: the person's unpaid positions (of one entity, when codIpaEnte is
     * given), each with its Dovuti XML (base64Binary) and the landing that pays it. The password is the
     * default entity's. Each position gets a session fixed the first time it is listed.
     */
    paaSILChiediPosizioniAperte: withFaults(async (args) => {
      const admin = entity(options.defaultEntity ?? entities[0]!.codIpa)!;
      if (str(args.password) !== admin.password) throw new SoapFault('PAA_ENTE_NON_VALIDO', `Password non valida per ente [${admin.codIpa}]`);
      const codIpa = str(args.codIpaEnte);
      if (codIpa && !entity(codIpa)) throw new SoapFault('PAA_ENTE_NON_VALIDO', `codice IPA Ente [${codIpa}] non valido`);
      const person = (args.identificativoUnivocoPersonaFG ?? {}) as Record<string, unknown>;
      const kind = str(person.tipoIdentificativoUnivoco);
      const code = (str(person.codiceIdentificativoUnivoco) ?? '').toUpperCase();
      if (!(kind === 'F' ? isValidFiscalCode(code) : kind === 'G' && /^[0-9]{11}$/.test(code))) {
        throw new SoapFault('PAA_IDENTIFICATIVO_UNIVOCO_PERSONA_NON_VALIDO', 'Identificativo univoco persona non valido');
      }
      const open = Object.values(state.positions).filter((p) => p.status === 'DA_PAGARE' && p.fiscalCode === code && p.tipoIdentificativoUnivoco === kind && (!codIpa || p.codIpa === codIpa));
      for (const p of open) p.idSession ??= randomUUID();
      if (open.length) await save();
      return {
        paaSILPosizioniAperte: open.map((p) => ({
          codIpaEnte: p.codIpa,
          deNomeEnte: entity(p.codIpa)!.name,
          urlPagamento: `${url}/public/landing/precaricato?id=${p.idSession}`,
          dovuti: Buffer.from(dovutiXml(p)).toString('base64'),
        })),
      };
    }),

    /**
     * MyPay4 paaSILChiediPagati: the session's outcome. `pagati` is Base64 of the Pagati XML wrapped in a
     * DataHandler, which the SOAP layer encodes again: Base64 twice on the wire. Not started, in progress,
     * cancelled and expired sessions answer with their fault codes.
     */
    paaSILChiediPagati: withFaults(async (args) => {
      const e = checkEntity(str(args.codIpaEnte), str(args.password));
      const session = state.sessions[str(args.idSession) ?? ''];
      if (!session || session.codIpa !== e.codIpa) throw new SoapFault('PAA_ID_SESSION_NON_VALIDO', 'idSession non valido');
      expireIfStale(session);
      if (session.status === 'NON_INIZIATO') throw new SoapFault('PAA_PAGAMENTO_NON_INIZIATO', 'Pagamento non iniziato');
      if (session.status === 'IN_CORSO') throw new SoapFault('PAA_PAGAMENTO_IN_CORSO', 'Pagamento in corso');
      if (session.status === 'ANNULLATO') throw new SoapFault('PAA_PAGAMENTO_ANNULLATO', 'Pagamento annullato dal cittadino');
      if (session.status === 'SCADUTO') throw new SoapFault('PAA_PAGAMENTO_SCADUTO', 'Pagamento scaduto per idSession specificato');
      const positions = sessionPositions(session);
      const ok = session.status === 'PAGATO';
      const first = positions[0]!;
      const paidHere = (p: Position) => (ok ? (session.payments?.[p.iud] ?? p.paid) : undefined);
      const xml =
        `<?xml version="1.0" encoding="UTF-8"?><Pagati xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/">` +
        `<versioneOggetto>6.2</versioneOggetto><dominio><identificativoDominio>${e.codIpa}</identificativoDominio></dominio>` +
        `<identificativoMessaggioRicevuta>${session.idSession}</identificativoMessaggioRicevuta>` +
        `<soggettoPagatore><identificativoUnivocoPagatore><tipoIdentificativoUnivoco>${first.tipoIdentificativoUnivoco}</tipoIdentificativoUnivoco>` +
        `<codiceIdentificativoUnivoco>${first.fiscalCode}</codiceIdentificativoUnivoco></identificativoUnivocoPagatore><anagraficaPagatore>${escapeHtml(first.anagrafica)}</anagraficaPagatore></soggettoPagatore>` +
        `<datiPagamento><codiceEsitoPagamento>${ok ? 0 : 1}</codiceEsitoPagamento><importoTotalePagato>${decimalFromCents(positions.reduce((sum, p) => sum + (paidHere(p)?.amountCents ?? 0), 0))}</importoTotalePagato>` +
        `<identificativoUnivocoVersamento>${first.iuv}</identificativoUnivocoVersamento><codiceContestoPagamento>${session.idSession.slice(0, 35)}</codiceContestoPagamento>` +
        positions
          .map((p) => [p, paidHere(p)] as const)
          .filter(([, paid]) => paid)
          .map(
            ([p, paid]) =>
              `<datiSingoloPagamento><singoloImportoPagato>${decimalFromCents(paid!.amountCents)}</singoloImportoPagato><esitoSingoloPagamento>${escapeHtml(paid!.esito ?? '0')}</esitoSingoloPagamento>` +
              `<dataEsitoSingoloPagamento>${paid!.paidOn}</dataEsitoSingoloPagamento><identificativoUnivocoRiscossione>${paid!.iur}</identificativoUnivocoRiscossione>` +
              `<causaleVersamento>${escapeHtml(p.causale)}</causaleVersamento><datiSpecificiRiscossione>${escapeHtml(p.datiSpecificiRiscossione)}</datiSpecificiRiscossione>` +
              `<identificativoUnivocoDovuto>${escapeHtml(p.iud)}</identificativoUnivocoDovuto></datiSingoloPagamento>`,
          )
          .join('') +
        `</datiPagamento></Pagati>`;
      const once = Buffer.from(xml, 'utf8').toString('base64');
      return { esito: ok ? 'OK' : 'KO', pagati: Buffer.from(once, 'ascii').toString('base64') };
    }),

    paaSILPrenotaExportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const from = String(str(args.dateFrom) ?? '').slice(0, 10);
      const to = String(str(args.dateTo) ?? '').slice(0, 10);
      if (!isRealDate(from) || !isRealDate(to) || from > to) throw new SoapFault('PAA_DATE_NON_VALIDE', 'dateFrom/dateTo non validi');
      const requestToken = randomUUID();
      state.exports[requestToken] = { requestToken, codIpa: e.codIpa, from, to, polls: 0, state: 'LOAD_EXPORT' };
      await save();
      return { requestToken };
    }),

    paaSILChiediStatoExportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const record = state.exports[str(args.requestToken) ?? ''];
      if (!record || record.codIpa !== e.codIpa) throw new SoapFault('PAA_REQUEST_TOKEN_NON_VALIDO', 'Request token non valido');
      record.polls += 1;
      if (record.state === 'LOAD_EXPORT') record.state = 'EXPORT_IN_ELAB';
      else if (record.state === 'EXPORT_IN_ELAB') {
        // One row per payment (a position paid twice has two), as MyPay stores each receipt.
        const paid = Object.values(state.positions)
          .filter((p) => p.codIpa === e.codIpa)
          .flatMap((p) => [p.paid, ...(p.morePayments ?? [])].filter((r): r is PaymentRecord => Boolean(r)).map((payment) => ({ p, payment })))
          .filter(({ payment }) => payment.paidOn >= record.from && payment.paidOn <= record.to);
        if (!paid.length) record.state = 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO';
        else {
          const rows = paid.map(({ p, payment }, index) => {
            const values: Record<string, string> = {
              iuf: `EXPORT-${record.requestToken.slice(0, 8)}`,
              numRigaFlusso: String(index + 1),
              codIud: p.iud,
              codIuv: p.iuv,
              versioneOggetto: '6.2',
              identificativoDominio: e.codIpa,
              soggPagTipoIdentificativoUnivoco: p.tipoIdentificativoUnivoco,
              soggPagCodiceIdentificativoUnivoco: p.fiscalCode,
              anagraficaPagatore: p.anagrafica,
              emailPagatore: p.email,
              codiceEsitoPagamento: '0',
              importoTotalePagato: decimalFromCents(payment.amountCents),
              identificativoUnivocoVersamento: p.iuv,
              singoloImportoPagato: decimalFromCents(payment.amountCents),
              esitoSingoloPagamento: payment.esito ?? '0',
              dataEsitoSingoloPagamento: payment.paidOn,
              identificativoUnivocoRiscoss: payment.iur,
              causaleVersamento: p.causale,
              datiSpecificiRiscossione: p.datiSpecificiRiscossione,
              tipoDovuto: p.tipoDovuto,
            };
            return EXPORT_COLUMNS.map((c) => values[c] ?? '');
          });
          const name = `${e.codIpa}_EXPORT_${record.from}_${record.to}`;
          const csv = Papa.unparse([[...EXPORT_COLUMNS], ...rows], { delimiter: ';', newline: '\r\n' }) + '\r\n';
          record.file = storeFile(`${name}.zip`, zipSync({ [`${name}.csv`]: strToU8(csv) }));
          record.state = 'EXPORT_ESEGUITO';
        }
      }
      await save();
      return { stato: record.state, ...(record.file ? { downloadUrl: record.file } : {}) };
    }),
  };

  const wsdl = fs.readFileSync(WSDL_PATH, 'utf8').replace(/location="[^"]*"/, `location="${url}${SOAP_PATH}"`);
  // soap.listen attaches to a server; this one never listens: the real server hands it the SOAP requests
  // after the fault switches have had their say.
  const soapHost = http.createServer();
  soap.listen(soapHost, SOAP_PATH, { PagamentiTelematiciDovutiPagatiService: { PagamentiTelematiciDovutiPagatiPort: operations } }, wsdl);

  // ——— HTTP: upload, downloads, checkout, admin, page ———
  const readBody = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const formOrJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const body = (await readBody(req)).toString('utf8');
    if ((req.headers['content-type'] ?? '').includes('application/json')) return body ? JSON.parse(body) : {};
    return Object.fromEntries(new URLSearchParams(body));
  };

  /**
   * MyBox's upload (MyPay4 MyBoxController.uploadByWS, FlussoService.validateFile, MyBoxService.uploadFile):
   * HTTP 200 with `[{fileName, fileSize, fileType}]`, or `[{codice, descrizione}]` when refused — a request
   * token already used (codice 500), a file that is not a ZIP, a ZIP whose entries are not named as it, a
   * name that does not start with the entity's code or that MyPay already received (codice 400). MyPay
   * computes the file's MD5 on receipt; the adapter's own `md5` field (which MyPay4 ignores) stands here for
   * a file damaged on the way: when it differs, the MD5 kept is the adapter's and the import then fails
   * PAA_IMPORT_NO_MATCH_MD5, as MyPay's would. The name's parts, version and entity are checked by the
   * import (processImport), not here.
   */
  async function upload(req: IncomingMessage, res: ServerResponse) {
    const refuse = (codice: string, descrizione: string) => json(res, 200, [{ codice, descrizione: `[${randomUUID().slice(0, 8)}] ${descrizione}` }]);
    let form: FormData;
    try {
      const body = await readBody(req);
      form = await new Request(`${url}${req.url}`, { method: 'POST', headers: req.headers as Record<string, string>, body: new Uint8Array(body) }).formData();
    } catch {
      return refuse('400', 'request multipart non valida');
    }
    const query = new URL(req.url ?? '/', url).searchParams;
    const authorizationToken = String(form.get('authorizationToken') ?? query.get('authorizationToken') ?? '');
    const files = [...form.values()].filter((v): v is File => v instanceof File && v.size > 0);
    if (files.length !== 1) return refuse('400', files.length ? `request multipart non valida, file presenti: ${files.length}` : 'request multipart non valida, file non presente');
    const file = files[0]!;
    const requestToken = state.authorizations[authorizationToken];
    const record = requestToken ? state.imports[requestToken] : undefined;
    if (!record) return refuse('500', 'Authorization token non valido');
    if (record.state !== 'AUTORIZZATO') return refuse('500', 'Request token già usato');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!file.name.toLowerCase().endsWith('.zip')) return refuse('400', `Il formato del file [${file.name}] deve essere lo zip.`);
    const base = file.name.slice(0, -4);
    try {
      for (const entry of Object.keys(unzipSync(bytes))) {
        if (!entry.startsWith(`${base}.`)) return refuse('400', `Il nome del file contenuto [${entry}] deve essere uguale al nome dello zip [${base}.zip].`);
      }
    } catch {
      return refuse('400', `Verificato un errore durante la lettura dello zip caricato [${file.name}].`);
    }
    if (!file.name.startsWith(record.codIpa)) return refuse('400', `Il nome del file [${file.name}] deve iniziare col codice dell'ente.`);
    const received = (state.fileNames[record.codIpa] ??= []);
    if (received.includes(file.name)) return refuse('400', `Lo stesso nome di file [${file.name}] esiste gia'.`);
    received.push(file.name);
    const md5 = createHash('md5').update(bytes).digest('hex');
    const declared = String(form.get('md5') ?? '').trim().toLowerCase();
    fs.writeFileSync(path.join(filesDirectory, `${record.requestToken}-${file.name}`), bytes);
    record.md5 = declared || md5;
    record.fileName = file.name;
    record.uploadedAt = now();
    record.state = 'LOAD_IMPORT';
    if (switches.importMode && (switches.importMode.remaining === null || switches.importMode.remaining > 0)) {
      record.mode = switches.importMode.mode;
      if (switches.importMode.code) record.failWith = switches.importMode.code;
      if (switches.importMode.remaining !== null && --switches.importMode.remaining <= 0) switches.importMode = null;
    }
    await save();
    json(res, 200, [{ fileName: file.name, fileSize: String(bytes.byteLength), fileType: file.type || 'application/zip' }]);
    // The import runs in the background, as MyPay's batch does; the status polls report its progress.
    setImmediate(() => {
      processImport(record, bytes)
        .catch((error) => {
          record.codErrore = 'PAA_IMPORT_ERROR';
          console.warn(`Simulatore MyPay: import ${record.fileName} non elaborato: ${(error as Error).message}`);
        })
        .finally(() => {
          record.processed = true;
          void save();
        });
    });
  }

  function download(req: IncomingMessage, res: ServerResponse, downloadToken: string) {
    const stored = state.downloads[downloadToken];
    const file = stored && path.join(filesDirectory, stored);
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('File non disponibile');
    }
    const name = stored.slice(37);
    res.writeHead(200, {
      'content-type': name.endsWith('.pdf') ? 'application/pdf' : 'application/zip',
      'content-disposition': `attachment; filename="${name}"`,
    });
    fs.createReadStream(file).pipe(res);
  }

  const sessionPositions = (session: SessionRecord) => session.iuds.map((iud) => state.positions[positionKey(session.codIpa, iud)]).filter(Boolean);
  function checkoutPage(res: ServerResponse, session: SessionRecord) {
    const positions = sessionPositions(session);
    const total = positions.reduce((s, p) => s + p.amountCents, 0);
    const done = !['NON_INIZIATO', 'IN_CORSO'].includes(session.status);
    page(
      res,
      'Pagamento pagoPA (simulatore MyPay)',
      `<h1>Pagamento pagoPA <small>(simulatore MyPay)</small></h1>
      <table><caption>Posizioni da pagare</caption><thead><tr><th scope="col">Causale</th><th scope="col">Avviso</th><th scope="col">Importo</th></tr></thead><tbody>
      ${positions.map((p) => `<tr><td>${escapeHtml(p.causale)}</td><td>3${p.iuv}</td><td>${euro.format(p.amountCents / 100)}</td></tr>`).join('')}
      </tbody></table>
      <p>Totale: <strong>${euro.format(total / 100)}</strong></p>
      ${
        done
          ? `<p>Sessione già conclusa: ${session.status}.</p>`
          : `<form method="post"><fieldset><legend>Esito del pagamento</legend>
        <button name="esito" value="success">Paga (esito positivo)</button>
        <button name="esito" value="failure">Pagamento rifiutato (esito negativo)</button>
        <button name="esito" value="cancel">Annulla</button></fieldset></form>`
      }`,
    );
  }
  async function checkout(req: IncomingMessage, res: ServerResponse, idSession: string) {
    const session = state.sessions[idSession];
    if (!session) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Sessione di pagamento sconosciuta');
    }
    expireIfStale(session);
    if (req.method === 'GET') {
      if (session.status === 'NON_INIZIATO') {
        session.status = 'IN_CORSO';
        await save();
      }
      return checkoutPage(res, session);
    }
    const { esito } = await formOrJson(req);
    if (!['NON_INIZIATO', 'IN_CORSO'].includes(session.status)) return checkoutPage(res, session);
    if (esito === 'success') {
      session.status = 'PAGATO';
      session.payments = {};
      for (const p of sessionPositions(session)) {
        // A receipt through pagoPA's paSendRT: MyPay stores esitoSingoloPagamento '0' (SendRtOutcomeService.java).
        const payment = { amountCents: p.amountCents, paidOn: today(), iur: `IUR${randomBytes(8).toString('hex').toUpperCase()}`, esito: '0' };
        if (p.paid) (p.morePayments ??= []).push(payment);
        else p.paid = payment;
        p.status = 'PAGATO';
        session.payments[p.iud] = payment;
      }
    } else if (esito === 'failure') session.status = 'KO';
    else if (esito === 'cancel') session.status = 'ANNULLATO';
    else {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('esito: success, failure o cancel');
    }
    await save();
    // LandingController.landingPaymentResponse: back to the caller's URL with idSession, esito OK or ERROR, pollingToken.
    const target = new URL(session.returnUrl || `${url}/`);
    target.searchParams.set('idSession', session.idSession);
    target.searchParams.set('esito', session.status === 'PAGATO' ? 'OK' : 'ERROR');
    target.searchParams.set('pollingToken', token());
    res.writeHead(303, { location: target.toString() });
    res.end();
  }

  /**
   * MyPay4 LandingController.landingPrecaricatoAnonimoEnte (GET /public/landing/precaricato?id&backUrl[&email]):
   * the position whose fixed session is `id`, paid on MyPay's own record of it (amount, due date). A new
   * attempt of a session that ended without a payment replaces it (CarrelloMultiBeneficiarioService); a
   * position no longer payable is a 400, as MyPay4's "dovuto non trovato".
   */
  async function landingPrecaricato(req: IncomingMessage, res: ServerResponse) {
    const query = new URL(req.url ?? '/', url).searchParams;
    const id = query.get('id') ?? '';
    const backUrl = query.get('backUrl') ?? '';
    const bad = (text: string) => {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (!id) return bad('id parameter is mandatory');
    if (!backUrl) return bad('backUrl parameter is mandatory');
    const position = Object.values(state.positions).find((p) => p.idSession === id && p.status === 'DA_PAGARE');
    if (!position) return bad(`dovuto non trovato per idSession = ${id}`);
    const current = state.sessions[id];
    if (current) expireIfStale(current);
    if (!current || !['NON_INIZIATO', 'IN_CORSO'].includes(current.status)) {
      state.sessions[id] = { idSession: id, codIpa: position.codIpa, returnUrl: backUrl, iuds: [position.iud], status: 'NON_INIZIATO', createdAt: now() };
    } else current.returnUrl = backUrl;
    await save();
    res.writeHead(302, { location: `${url}/checkout/${id}` });
    res.end();
  }

  /**
   * Marks positions paid (by IUD, IUV, or the first `count` unpaid ones), as if citizens had paid them at a
   * counter or in a bank's app: `esito` is what MyPay stores as esitoSingoloPagamento ('0' by default),
   * `amountCents` another amount than the one due, `again` a second payment of a position already paid.
   */
  function markPaid(body: Record<string, unknown>) {
    const list = (value: unknown) =>
      (Array.isArray(value) ? value : String(value ?? '').split(/[\s,;]+/)).map((v) => String(v).trim()).filter(Boolean);
    const iuds = list(body.iuds);
    const iuvs = list(body.iuvs);
    const count = Number(body.count ?? 0);
    const paidOn = isRealDate(String(body.paidOn ?? '')) ? String(body.paidOn) : today();
    const esito = String(body.esito ?? '0') || '0';
    const again = body.again === true || body.again === 'true';
    const amount = Number(body.amountCents);
    const payable = Object.values(state.positions).filter((p) => p.status === 'DA_PAGARE' || (again && p.status === 'PAGATO'));
    const chosen = payable.filter((p) => iuds.includes(p.iud) || iuvs.includes(p.iuv));
    if (count > 0) chosen.push(...payable.filter((p) => !chosen.includes(p)).slice(0, count));
    return chosen.map((p) => {
      const payment = { amountCents: Number.isInteger(amount) && amount > 0 ? amount : p.amountCents, paidOn, iur: `IUR${randomBytes(8).toString('hex').toUpperCase()}`, esito };
      if (p.paid) (p.morePayments ??= []).push(payment);
      else p.paid = payment;
      p.status = 'PAGATO';
      return { iud: p.iud, iuv: p.iuv, amountCents: payment.amountCents, paidOn, iur: payment.iur };
    });
  }

  async function admin(req: IncomingMessage, res: ServerResponse, action: string) {
    const fromForm = !(req.headers['content-type'] ?? '').includes('application/json');
    const done = (body: unknown) => {
      if (fromForm && req.method === 'POST') {
        res.writeHead(303, { location: '/' });
        return res.end();
      }
      json(res, 200, body);
    };
    const times = (value: unknown): number | null => (value === 'always' || value === undefined || value === '' ? (value === 'always' ? null : 1) : Math.max(1, Number(value)));
    if (req.method === 'GET' && action === 'state') return json(res, 200, { switches, ...state });
    if (req.method !== 'POST') return json(res, 405, { error: 'POST' });
    let body: Record<string, unknown>;
    try {
      body = await formOrJson(req);
    } catch {
      return json(res, 400, { error: 'JSON non valido' });
    }
    switch (action) {
      case 'faults': {
        const target = String(body.operation ?? body.target ?? '');
        const kind = String(body.kind ?? '') as FaultKind;
        if (![...FAULT_TARGETS, '*'].includes(target as never)) return json(res, 400, { error: `operation: one of ${FAULT_TARGETS.join(', ')}, *` });
        if (!['5xx', 'timeout', 'lost-answer'].includes(kind)) return json(res, 400, { error: 'kind: 5xx, timeout or lost-answer' });
        switches.faults.push({ target, kind, remaining: times(body.times) });
        return done({ switches });
      }
      case 'import': {
        const mode = String(body.mode ?? '');
        const code = String(body.code ?? '').trim() || 'PAA_IMPORT_ERROR';
        if (mode === 'normal') switches.importMode = null;
        else if (mode === 'stuck') switches.importMode = { mode, remaining: times(body.times) };
        else if (mode === 'failed') {
          if (!/^[A-Z0-9_]+(\(.*\))?\)?$/.test(code)) return json(res, 400, { error: 'code: an error code as MyPay sends it, e.g. PAA_IMPORT_NO_MATCH_MD5' });
          switches.importMode = { mode, code, remaining: times(body.times) };
        } else if (mode === 'release') {
          // pagoPA has synchronised the positions (GPD): the imports held in IMPORT_IN_ELAB end.
          for (const held of Object.values(state.imports)) if (held.mode === 'stuck') held.mode = 'normal';
          await save();
        } else return json(res, 400, { error: 'mode: normal, stuck, failed (with code) or release' });
        return done({ switches });
      }
      case 'reject': {
        const iuds = (Array.isArray(body.iuds) ? body.iuds : String(body.iuds ?? '').split(/[\s,;]+/)).map(String).filter(Boolean);
        switches.reject = { iuds, count: Math.max(0, Number(body.count ?? 0) || 0) };
        return done({ switches });
      }
      case 'tipi-dovuto': {
        // The entity's tipi dovuto (MyPay's back office): a code added or made (in)active.
        const code = String(body.code ?? '').trim();
        if (!/^[A-Za-z0-9_.-]{1,64}$/.test(code)) return json(res, 400, { error: 'code: the tipo dovuto, at most 64 characters' });
        for (const e of entities) e.tipiDovuto[code] = body.active !== false && body.active !== 'false';
        return done({ tipiDovuto: entities[0]!.tipiDovuto });
      }
      case 'reuse-token': {
        switches.reuseToken = Math.max(0, Number(body.times ?? 1) || 0);
        return done({ switches });
      }
      case 'paid': {
        const paid = markPaid(body);
        await save();
        return done({ paid });
      }
      case 'expire': {
        // Ages a session past MyPay4's expiry, as if 15 minutes went by without a payment starting.
        const session = state.sessions[String(body.idSession ?? '')];
        if (!session) return json(res, 400, { error: 'idSession sconosciuto' });
        if (['NON_INIZIATO', 'IN_CORSO'].includes(session.status)) session.status = 'SCADUTO';
        await save();
        return done({ session });
      }
      case 'reset': {
        switches.faults = [];
        switches.importMode = null;
        switches.reject = { iuds: [], count: 0 };
        switches.reuseToken = 0;
        configured.forEach((e, i) => (entities[i]!.tipiDovuto = { ...e.tipiDovuto }));
        if (body.state === true || body.state === 'true') {
          state = empty();
          await save();
        }
        return done({ switches });
      }
      default:
        return json(res, 404, { error: 'unknown admin action' });
    }
  }

  function page(res: ServerResponse, title: string, body: string) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html lang="it"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem;color:#1a1a1a}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #999;padding:.25rem .5rem;text-align:left}
caption{text-align:left;font-weight:bold}form{margin:.5rem 0}fieldset{margin:1rem 0}button{margin:.25rem;padding:.4rem .8rem}label{margin-right:.5rem}code{background:#eee}</style></head><body>${body}</body></html>`);
  }

  function home(res: ServerResponse) {
    const imports = Object.values(state.imports).filter((i) => i.state !== 'AUTORIZZATO').slice(-50).reverse();
    const positions = Object.values(state.positions).slice(-100).reverse();
    const targets = FAULT_TARGETS.map((t) => `<option>${t}</option>`).join('');
    page(
      res,
      'Simulatore MyPay',
      `<h1>Simulatore MyPay</h1>
      <p>SOAP: <code>${url}${SOAP_PATH}</code> (WSDL: <a href="${SOAP_PATH}?wsdl">?wsdl</a>). Enti: ${entities.map((e) => `<code>${e.codIpa}</code>`).join(', ')}. Stato: <a href="/admin/state">/admin/state</a>.</p>
      <h2>Interruttori di guasto</h2>
      <p>Attivi: <code>${escapeHtml(JSON.stringify(switches))}</code></p>
      <form method="post" action="/admin/faults"><fieldset><legend>Errore su un'operazione</legend>
        <label for="f-op">Operazione</label><select id="f-op" name="operation"><option>*</option>${targets}</select>
        <label for="f-kind">Tipo</label><select id="f-kind" name="kind"><option value="5xx">5xx</option><option value="timeout">timeout</option><option value="lost-answer">risposta persa</option></select>
        <label for="f-times">Volte</label><input id="f-times" name="times" value="1" size="6"> (numero o <code>always</code>)
        <button>Attiva</button></fieldset></form>
      <form method="post" action="/admin/import"><fieldset><legend>Import</legend>
        <label for="i-mode">Esito dei prossimi import</label><select id="i-mode" name="mode"><option value="stuck">fermo in IMPORT_IN_ELAB (GPD)</option><option value="failed">fallito con il codice</option><option value="release">sblocca quelli fermi</option><option value="normal">normale</option></select>
        <label for="i-code">Codice</label><input id="i-code" name="code" value="PAA_IMPORT_NO_MATCH_MD5" size="32">
        <label for="i-times">Volte</label><input id="i-times" name="times" value="1" size="6"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/tipi-dovuto"><fieldset><legend>Tipi dovuto dell'ente (${escapeHtml(JSON.stringify(entities[0]!.tipiDovuto))})</legend>
        <label for="t-code">Codice</label><input id="t-code" name="code" size="32"><label for="t-active">Attivo</label><select id="t-active" name="active"><option value="true">sì</option><option value="false">no</option></select><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/reject"><fieldset><legend>Righe scartate</legend>
        <label for="r-iuds">IUD</label><input id="r-iuds" name="iuds" size="40"><label for="r-count">oppure le prime N righe valide</label><input id="r-count" name="count" value="0" size="4"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/reuse-token"><fieldset><legend>Request token riusato</legend>
        <label for="t-times">Prossime autorizzazioni</label><input id="t-times" name="times" value="1" size="4"><button>Imposta</button></fieldset></form>
      <form method="post" action="/admin/paid"><fieldset><legend>Segna come pagate (rendicontazione)</legend>
        <label for="p-iuds">IUD</label><input id="p-iuds" name="iuds" size="40"><label for="p-count">oppure le prime N da pagare</label><input id="p-count" name="count" value="0" size="4"><button>Segna pagate</button></fieldset></form>
      <form method="post" action="/admin/reset"><button>Spegni tutti gli interruttori</button></form>
      <h2>Import (ultimi 50)</h2>
      <table><thead><tr><th scope="col">File</th><th scope="col">Request token</th><th scope="col">Stato</th><th scope="col">Righe</th><th scope="col">Accettate</th><th scope="col">Scartate</th><th scope="col">File di esito</th></tr></thead><tbody>
      ${imports
        .map(
          (i) =>
            `<tr><td>${escapeHtml(i.fileName ?? '')}</td><td><code>${i.requestToken}</code></td><td>${i.state}${i.mode !== 'normal' ? ` (${i.mode})` : ''}</td><td>${i.rows ?? ''}</td><td>${i.accepted ?? ''}</td><td>${i.rejected ?? ''}</td>
            <td>${(['iuv', 'scarti', 'avvisi'] as const).map((k) => (i.files[k] ? `<a href="${i.files[k]}">${k.toUpperCase()}</a>` : '')).join(' ')}</td></tr>`,
        )
        .join('')}
      </tbody></table>
      <h2>Posizioni (ultime 100 di ${Object.keys(state.positions).length})</h2>
      <table><thead><tr><th scope="col">IUD</th><th scope="col">IUV</th><th scope="col">Pagatore</th><th scope="col">Importo</th><th scope="col">Scadenza</th><th scope="col">Stato</th></tr></thead><tbody>
      ${positions.map((p) => `<tr><td>${escapeHtml(p.iud)}</td><td>${p.iuv}</td><td>${escapeHtml(p.anagrafica)} ${p.fiscalCode}</td><td>${euro.format(p.amountCents / 100)}</td><td>${p.dueDate}</td><td>${p.status}${p.paid ? ` il ${p.paid.paidOn}` : ''}</td></tr>`).join('')}
      </tbody></table>`,
    );
  }

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', url).pathname;
    const handle = async () => {
      if (pathname === SOAP_PATH) {
        if (req.method === 'POST') {
          const operation = String(req.headers.soapaction ?? '').replace(/"/g, '');
          if (applyFault(operation, res)) return;
        }
        soapHost.emit('request', req, res);
        return;
      }
      if (pathname === '/mybox/uploadFlusso' && req.method === 'POST') {
        if (applyFault('upload', res)) return;
        return upload(req, res);
      }
      const downloadMatch = /^\/mybox\/download\/([^/]+)\//.exec(pathname);
      if (downloadMatch && req.method === 'GET') {
        if (applyFault('download', res)) return;
        return download(req, res, downloadMatch[1]);
      }
      if (pathname === '/public/landing/precaricato' && req.method === 'GET') return landingPrecaricato(req, res);
      const checkoutMatch = /^\/checkout\/([^/]+)$/.exec(pathname);
      if (checkoutMatch) return checkout(req, res, checkoutMatch[1]);
      const adminMatch = /^\/admin\/([a-z-]+)$/.exec(pathname);
      if (adminMatch) return admin(req, res, adminMatch[1]);
      if (pathname === '/' && req.method === 'GET') return home(res);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Non trovato');
    };
    handle().catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Errore del simulatore: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });

  return {
    url,
    endpoint: `${url}${SOAP_PATH}`,
    entities,
    switches,
    async close() {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await saving;
    },
  };
}
