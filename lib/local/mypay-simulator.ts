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
import { isValidIuv, iuvBase, makeIuv } from '../../functions/domain/iuv.ts';

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

const TIPI_VERSAMENTO = new Set(['ALL', 'BBT', 'BP', 'AD', 'CP', 'PO', 'OBEP', 'JIF', 'MYBK', 'PPAL', 'BPAY']);

export interface SimulatedEntity {
  codIpa: string;
  password: string;
  /** Segregation code of the entity's IUVs (2 digits). */
  segregationCode: string;
  name: string;
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

export const DEFAULT_ENTITY: SimulatedEntity = { codIpa: 'C_DEMO', password: 'Password1!', segregationCode: '01', name: 'Comune di Esempio' };

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
  mode: 'normal' | 'stuck' | 'aborted';
  fileName?: string;
  uploadedAt?: string;
  processed?: boolean;
  elabReported?: boolean;
  rows?: number;
  accepted?: number;
  rejected?: number;
  files: { iuv?: string; scarti?: string; avvisi?: string };
  error?: string;
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
  /** The next imports uploaded stay in IMPORT_IN_ELAB ('stuck') or end in IMPORT_ABORTITO. */
  importMode: { mode: 'stuck' | 'aborted'; remaining: number | null } | null;
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

/**
 * One CSV row against reference.md's column table and the positions already held (by IUD). Independent of
 * the portal's CSV builder on purpose: it is what proves that builder right.
 */
export function validateRow(row: Record<string, string>, held: Position | undefined): RowRejection | null {
  const v = (name: string) => (row[name] ?? '').trim();
  const reject = (code: string, reason: string) => ({ code, reason });
  const iud = v('IUD');
  if (!iud) return reject('IUD_OBBLIGATORIO', 'IUD obbligatorio');
  if (iud.length > 35) return reject('IUD_NON_VALIDO', 'IUD più lungo di 35 caratteri');
  const azione = v('azione');
  if (!['I', 'M', 'A'].includes(azione)) return reject('AZIONE_NON_VALIDA', `Azione "${azione}" non valida (I, M, A)`);
  const tipo = v('tipoIdentificativoUnivoco');
  if (tipo !== 'F' && tipo !== 'G') return reject('TIPO_IDENTIFICATIVO_NON_VALIDO', 'tipoIdentificativoUnivoco deve essere F o G');
  const code = v('codiceIdentificativoUnivoco').toUpperCase();
  if (tipo === 'F' ? !isValidFiscalCode(code) : !/^[0-9]{11}$/.test(code)) {
    return reject('CODICE_IDENTIFICATIVO_NON_VALIDO', `Codice fiscale "${v('codiceIdentificativoUnivoco')}" non valido`);
  }
  if (!v('anagraficaPagatore')) return reject('ANAGRAFICA_OBBLIGATORIA', 'anagraficaPagatore obbligatoria');
  if (v('anagraficaPagatore').length > 70) return reject('ANAGRAFICA_NON_VALIDA', 'anagraficaPagatore più lunga di 70 caratteri');
  if (v('provinciaPagatore') && !/^[A-Za-z]{2}$/.test(v('provinciaPagatore'))) return reject('PROVINCIA_NON_VALIDA', 'provinciaPagatore: 2 lettere');
  if (v('nazionePagatore') && !/^[A-Za-z]{2}$/.test(v('nazionePagatore'))) return reject('NAZIONE_NON_VALIDA', 'nazionePagatore: 2 lettere');
  if (v('mailPagatore') && !/^[^@\s;]+@[^@\s;]+\.[^@\s;]+$/.test(v('mailPagatore'))) return reject('EMAIL_NON_VALIDA', 'mailPagatore non valida');
  if (!isRealDate(v('dataEsecuzionePagamento'))) return reject('DATA_NON_VALIDA', 'dataEsecuzionePagamento deve essere yyyy-MM-dd');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(v('importoDovuto'))) return reject('IMPORTO_NON_VALIDO', `importoDovuto "${v('importoDovuto')}" non valido (decimale con il punto)`);
  if (azione !== 'A' && centsFromDecimal(v('importoDovuto')) <= 0) return reject('IMPORTO_NON_VALIDO', 'importoDovuto deve essere maggiore di zero');
  if (v('commissioneCaricoPa') && !/^\d{1,9}(\.\d{1,2})?$/.test(v('commissioneCaricoPa'))) return reject('COMMISSIONE_NON_VALIDA', 'commissioneCaricoPa non valida');
  if (!v('tipoDovuto') || v('tipoDovuto').length > 64) return reject('TIPO_DOVUTO_NON_VALIDO', 'tipoDovuto obbligatorio (al massimo 64 caratteri)');
  if (!TIPI_VERSAMENTO.has(v('tipoVersamento'))) return reject('TIPO_VERSAMENTO_NON_VALIDO', `tipoVersamento "${v('tipoVersamento')}" non valido`);
  if (!v('causaleVersamento') || v('causaleVersamento').length > 1024) return reject('CAUSALE_NON_VALIDA', 'causaleVersamento obbligatoria (al massimo 1024 caratteri)');
  const dsr = v('datiSpecificiRiscossione');
  if (!dsr) return reject('DATI_SPECIFICI_RISCOSSIONE_OBBLIGATORI', 'datiSpecificiRiscossione obbligatorio');
  if (dsr.length > 140 || !/^[0129]\/\S{3,138}$/.test(dsr)) return reject('DATI_SPECIFICI_RISCOSSIONE_NON_VALIDI', 'datiSpecificiRiscossione: tipo contabilità/codice (es. 9/0101100IM)');
  if (v('bilancio')) {
    try {
      const bilancio = parseXml(v('bilancio')).root!;
      const capitoli = elementsOf(bilancio).filter((c) => localName(c.name) === 'capitolo');
      if (!capitoli.length || capitoli.some((c) => !textOf(c, 'codCapitolo'))) throw new Error('capitolo');
      for (const capitolo of capitoli) {
        for (const accertamento of elementsOf(capitolo).filter((c) => localName(c.name) === 'accertamento')) {
          if (!/^\d+(\.\d{1,2})?$/.test(textOf(accertamento, 'importo'))) throw new Error('importo');
        }
      }
    } catch {
      return reject('BILANCIO_NON_VALIDO', 'bilancio non valido (capitolo/codCapitolo, accertamento/importo)');
    }
  }
  const flag = v('flagGeneraIuv');
  if (flag !== 'true' && flag !== 'false') return reject('FLAG_GENERA_IUV_NON_VALIDO', 'flagGeneraIuv deve essere true o false');
  if (flag === 'true' && azione === 'I' && v('codIuv')) return reject('IUV_NON_VALIDO', 'codIuv deve essere vuoto con flagGeneraIuv true');
  if (flag === 'false' && azione === 'I' && !isValidIuv(v('codIuv'))) return reject('IUV_NON_VALIDO', `codIuv "${v('codIuv')}" non valido`);
  if (azione === 'I' && held) return reject('DOVUTO_GIA_PRESENTE', `Esiste già un dovuto con IUD ${iud}`);
  if (azione !== 'I' && !held) return reject('DOVUTO_NON_TROVATO', `Nessun dovuto con IUD ${iud}`);
  if (held?.status === 'PAGATO' && azione !== 'I') return reject('DOVUTO_PAGATO', `Il dovuto ${iud} è già pagato`);
  if (held?.status === 'ANNULLATO' && azione !== 'I') return reject('DOVUTO_ANNULLATO', `Il dovuto ${iud} è annullato`);
  if (held && azione === 'M' && v('codIuv') && v('codIuv') !== held.iuv) return reject('IUV_NON_VALIDO', `Il dovuto ${iud} ha IUV ${held.iuv}`);
  return null;
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
  const entities = options.entities ?? [DEFAULT_ENTITY];
  const entity = (codIpa: string) => entities.find((e) => e.codIpa === codIpa);
  const holdMs = options.holdMs ?? 60_000;
  const directory = path.join(options.dataDir, 'mypay');
  const filesDirectory = path.join(directory, 'files');
  fs.mkdirSync(filesDirectory, { recursive: true });
  const stateFile = path.join(directory, 'state.json');

  const empty = (): State => ({ nextIuv: {}, positions: {}, imports: {}, authorizations: {}, sessions: {}, exports: {}, downloads: {} });
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
    return makeIuv({ segregationCode: e.segregationCode, base: iuvBase(next) }).iuv;
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
  async function processImport(record: ImportRecord, csvText: string, version: string) {
    const e = entity(record.codIpa)!;
    const parsed = Papa.parse<string[]>(csvText.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: 'greedy' });
    const [header = [], ...lines] = parsed.data;
    const columns = header.map((c) => c.trim());
    const missing = IMPORT_COLUMNS.filter((c) => !columns.includes(c));
    if (missing.length) {
      record.state = 'IMPORT_ABORTITO';
      record.error = `Intestazione non valida: mancano ${missing.join(', ')}`;
      return;
    }
    const accepted: string[][] = [];
    const rejected: string[][] = [];
    const notices: Position[] = [];
    const seen = new Set<string>();
    let toReject = switches.reject.count;
    switches.reject.count = 0;
    for (const [index, cells] of lines.entries()) {
      // Let status polls and other requests in while a large file is processed.
      if (index % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
      const row = Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
      const iud = (row.IUD ?? '').trim();
      const key = positionKey(record.codIpa, iud);
      let rejection: RowRejection | null =
        cells.length !== columns.length ? { code: 'NUMERO_CAMPI_ERRATO', reason: `${cells.length} campi invece di ${columns.length}` } : null;
      if (!rejection && iud && seen.has(iud)) rejection = { code: 'IUD_DUPLICATO', reason: `IUD ${iud} ripetuto nel file` };
      rejection ??= validateRow(row, state.positions[key]);
      if (!rejection && (switches.reject.iuds.includes(iud) || toReject > 0)) {
        if (!switches.reject.iuds.includes(iud)) toReject -= 1;
        rejection = { code: 'RIFIUTATO_DAL_SIMULATORE', reason: 'Riga rifiutata dal simulatore (interruttore di prova)' };
      }
      if (iud) seen.add(iud);
      if (rejection) {
        rejected.push([...cells, rejection.code, rejection.reason]);
        continue;
      }
      const existing = state.positions[key];
      const azione = row.azione.trim();
      const iuv = existing?.iuv ?? (row.flagGeneraIuv.trim() === 'true' ? newIuv(e) : row.codIuv.trim());
      const position: Position = {
        codIpa: record.codIpa,
        iud,
        iuv,
        status: azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: azione === 'A' ? (existing?.amountCents ?? 0) : centsFromDecimal(row.importoDovuto.trim()),
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco.trim(),
        fiscalCode: row.codiceIdentificativoUnivoco.trim().toUpperCase(),
        anagrafica: row.anagraficaPagatore.trim(),
        email: row.mailPagatore.trim(),
        causale: row.causaleVersamento.trim(),
        dueDate: row.dataEsecuzionePagamento.trim(),
        tipoDovuto: row.tipoDovuto.trim(),
        datiSpecificiRiscossione: row.datiSpecificiRiscossione.trim(),
        updatedAt: now(),
      };
      state.positions[key] = position;
      accepted.push(columns.map((c, i) => (c === 'codIuv' ? iuv : (cells[i] ?? ''))));
      if (azione !== 'A') notices.push(position);
    }
    const base = record.fileName!.replace(/\.zip$/i, '');
    const csv = (rows: string[][], extra: string[] = []) =>
      '\uFEFF' + Papa.unparse([[...columns, ...extra], ...rows], { delimiter: ';', newline: '\r\n' }) + '\r\n';
    if (accepted.length) record.files.iuv = storeFile(`${base}_IUV.zip`, zipSync({ [`${base}_IUV.csv`]: strToU8(csv(accepted)) }));
    if (rejected.length) record.files.scarti = storeFile(`${base}_SCARTI.zip`, zipSync({ [`${base}_SCARTI.csv`]: strToU8(csv(rejected, ['cod_rifiuto', 'de_rifiuto'])) }));
    // Notices only for layouts 1_3 and 1_4 (reference.md).
    if (notices.length && (version === '1_3' || version === '1_4')) {
      const pdfs: Record<string, Uint8Array> = {};
      for (const position of notices) pdfs[`avviso_3${position.iuv}.pdf`] = renderNotice(position, e);
      record.files.avvisi = storeFile(`${base}_AVVISI_PDF.zip`, zipSync(pdfs, { level: 0 }));
    }
    record.rows = lines.length;
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
      if (!record || record.codIpa !== e.codIpa) throw new SoapFault('PAA_REQUEST_TOKEN_NON_VALIDO', 'Request token non valido');
      if (record.state === 'AUTORIZZATO') throw new SoapFault('PAA_IMPORT_NON_CARICATO', 'Nessun file caricato con questo request token');
      const answer = (stato: string) => {
        const files = record.state === 'IMPORT_ESEGUITO' ? record.files : {};
        return {
          stato,
          ...(args.fileScarti && files.scarti ? { urlFileScarti: files.scarti } : {}),
          ...(args.fileIUV && files.iuv ? { urlFileIUV: files.iuv } : {}),
          ...(args.fileAvvisi && files.avvisi ? { urlFileAvvisi: files.avvisi } : {}),
        };
      };
      if (record.state === 'LOAD_IMPORT') {
        record.state = 'IMPORT_IN_ELAB';
        await save();
        return answer('LOAD_IMPORT');
      }
      // Every import is seen IMPORT_IN_ELAB at least once, however quick the processing.
      if (record.state === 'IMPORT_IN_ELAB' && !record.elabReported) {
        record.elabReported = true;
        return answer('IMPORT_IN_ELAB');
      }
      if (record.state === 'IMPORT_IN_ELAB' && record.processed && record.mode !== 'stuck') {
        record.state = record.mode === 'aborted' || record.error ? 'IMPORT_ABORTITO' : 'IMPORT_ESEGUITO';
        await save();
      }
      return answer(record.state);
    }),

    paaSILImportaDovuto: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      // One position as a single-row CSV (header + row), base64: the same validation as the bulk import.
      const text = Buffer.from(str(args.dovuto) ?? '', 'base64').toString('utf8');
      const [header = [], cells = []] = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: ';', skipEmptyLines: 'greedy' }).data;
      const row = Object.fromEntries(header.map((c, i) => [c.trim(), cells[i] ?? '']));
      if (args.flagGeneraIuv !== undefined) row.flagGeneraIuv = String(args.flagGeneraIuv);
      const key = positionKey(e.codIpa, (row.IUD ?? '').trim());
      const rejection = validateRow(row, state.positions[key]);
      if (rejection) throw new SoapFault(`PAA_${rejection.code}`, rejection.reason);
      const existing = state.positions[key];
      const iuv = existing?.iuv ?? (row.flagGeneraIuv === 'true' ? newIuv(e) : row.codIuv.trim());
      state.positions[key] = {
        codIpa: e.codIpa,
        iud: row.IUD.trim(),
        iuv,
        status: row.azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: row.azione === 'A' ? (existing?.amountCents ?? 0) : centsFromDecimal(row.importoDovuto.trim()),
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco.trim(),
        fiscalCode: row.codiceIdentificativoUnivoco.trim().toUpperCase(),
        anagrafica: row.anagraficaPagatore.trim(),
        email: row.mailPagatore?.trim() ?? '',
        causale: row.causaleVersamento.trim(),
        dueDate: row.dataEsecuzionePagamento.trim(),
        tipoDovuto: row.tipoDovuto.trim(),
        datiSpecificiRiscossione: row.datiSpecificiRiscossione.trim(),
        updatedAt: now(),
      };
      const pdf = renderNotice(state.positions[key], e);
      const urlFileAvviso = storeFile(`avviso_3${iuv}.pdf`, pdf);
      await save();
      return { esito: 'OK', identificativoUnivocoVersamento: iuv, urlFileAvviso };
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

  async function upload(req: IncomingMessage, res: ServerResponse) {
    const refuse = (codice: string, descrizione: string) => json(res, 200, [{ codice, descrizione }]);
    let form: FormData;
    try {
      const body = await readBody(req);
      form = await new Request(`${url}${req.url}`, { method: 'POST', headers: req.headers as Record<string, string>, body: new Uint8Array(body) }).formData();
    } catch {
      return refuse('400', 'Richiesta multipart non valida');
    }
    const query = new URL(req.url ?? '/', url).searchParams;
    const authorizationToken = String(form.get('authorizationToken') ?? query.get('authorizationToken') ?? '');
    const files = [...form.values()].filter((v): v is File => v instanceof File && v.size > 0);
    if (files.length !== 1) return refuse('400', `Richiesta multipart non valida, file presenti: ${files.length}`);
    const file = files[0];
    const requestToken = state.authorizations[authorizationToken];
    const record = requestToken ? state.imports[requestToken] : undefined;
    if (!record) return refuse('400', 'Authorization token non valido');
    if (record.state !== 'AUTORIZZATO') return refuse('400', 'Request token già usato');
    const match = /^([A-Za-z0-9_]+)-([A-Za-z0-9_.]+)-(1_[0-4])\.zip$/.exec(file.name);
    if (!match) return refuse('400', `Nome file "${file.name}" non valido: <codIPA>-<IUF>-<versione 1_0…1_4>.zip`);
    const [, codIpa, , version] = match;
    if (codIpa !== record.codIpa) return refuse('400', `Il file è dell'ente ${codIpa}, l'autorizzazione dell'ente ${record.codIpa}`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const md5 = createHash('md5').update(bytes).digest('hex');
    const declared = String(form.get('md5') ?? '').trim().toLowerCase();
    if (declared && declared !== md5) return refuse('400', `MD5 non corrispondente: dichiarato ${declared}, ricevuto ${md5}`);
    let csvText: string;
    try {
      const entries = Object.entries(unzipSync(bytes)).filter(([name]) => !name.endsWith('/'));
      const csvs = entries.filter(([name]) => name.toLowerCase().endsWith('.csv'));
      if (csvs.length !== 1) return refuse('400', `Lo ZIP deve contenere un solo file CSV (trovati ${csvs.length})`);
      csvText = strFromU8(csvs[0][1]);
    } catch {
      return refuse('400', 'Il file non è uno ZIP valido');
    }
    fs.writeFileSync(path.join(filesDirectory, `${record.requestToken}-${file.name}`), bytes);
    fs.writeFileSync(path.join(filesDirectory, `${record.requestToken}-${file.name.replace(/\.zip$/, '.md5')}`), md5);
    record.fileName = file.name;
    record.uploadedAt = now();
    record.state = 'LOAD_IMPORT';
    if (switches.importMode && (switches.importMode.remaining === null || switches.importMode.remaining > 0)) {
      record.mode = switches.importMode.mode;
      if (switches.importMode.remaining !== null && --switches.importMode.remaining <= 0) switches.importMode = null;
    }
    await save();
    json(res, 200, [{ fileName: file.name, fileSize: String(bytes.byteLength), fileType: file.type || 'application/zip' }]);
    // The import runs in the background, as MyPay's batch does; the status polls report its progress.
    // An aborted import never loads the file (reference.md: IMPORT_ABORTITO): no position is kept.
    setImmediate(() => {
      (record.mode === 'aborted' ? Promise.resolve() : processImport(record, csvText, version))
        .catch((error) => {
          record.error = (error as Error).message;
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
        if (mode === 'normal') switches.importMode = null;
        else if (mode === 'stuck' || mode === 'aborted') switches.importMode = { mode, remaining: times(body.times) };
        else return json(res, 400, { error: 'mode: normal, stuck or aborted' });
        return done({ switches });
      }
      case 'reject': {
        const iuds = (Array.isArray(body.iuds) ? body.iuds : String(body.iuds ?? '').split(/[\s,;]+/)).map(String).filter(Boolean);
        switches.reject = { iuds, count: Math.max(0, Number(body.count ?? 0) || 0) };
        return done({ switches });
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
        <label for="i-mode">Esito dei prossimi import</label><select id="i-mode" name="mode"><option value="stuck">bloccato in IMPORT_IN_ELAB</option><option value="aborted">IMPORT_ABORTITO</option><option value="normal">normale</option></select>
        <label for="i-times">Volte</label><input id="i-times" name="times" value="1" size="6"><button>Imposta</button></fieldset></form>
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
