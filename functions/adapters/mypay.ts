/**
 * The MyPay adapter: the SOAP operations of functions/adapters/mypay/pa-per-ente.wsdl (document/literal,
 * soapAction = operation name, header intestazionePPT with codIpaEnte), the MyBox upload and the result
 * file downloads, over fetch.
 *
 * Why not the `soap` package here: a Lambda importing `soap` bundles to ~650 KB minified (axios, form-data,
 * xml-crypto, xmldom, xpath…), over the 150 KB limit of every function. The envelopes are a handful of flat
 * elements, so they are written from templates (every value escaped) and the answers are read with
 * @rgrove/parse-xml (a strict XML 1.0 parser, ~14 KB). The local simulator serves the same WSDL with
 * `soap.listen`, so the integration tests check these envelopes against a real SOAP stack.
 *
 * Errors carry a name a Step Functions Retry/Catch can match:
 * - `MyPayUnavailable`: HTTP 5xx (except a SOAP Client fault), timeout, connection refused, or fault
 *   PAA_SYSTEM_ERROR — retry with backoff;
 * - `MyPayFault`: a fault code in the answer, a refused upload, a 4xx — retrying the same call changes nothing.
 */
import { createHash } from 'node:crypto';
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import { strFromU8, unzipSync } from 'fflate';
import Papa from 'papaparse';
import type {
  MyPay,
  MyPayAuthorization,
  MyPayImportStatus,
  MyPayPaidItem,
  MyPayPaidRow,
  MyPayPayer,
  MyPayPaymentItem,
  MyPayPaymentOutcome,
  MyPayPaymentSession,
} from './ports.ts';

export const MYPAY_NAMESPACE = 'http://www.regione.veneto.it/pagamenti/ente/';
export const MYPAY_HEAD_NAMESPACE = 'http://www.regione.veneto.it/pagamenti/ente/ppthead';
/** Secrets Manager secret holding the MyPay password in the cloud (never in the table or the template). */

/** Transient: MyPay did not answer (5xx, timeout, refused connection). Retry with backoff. */
export class MyPayUnavailable extends Error {
  override name = 'MyPayUnavailable';
  constructor(
    message: string,
    readonly operation: string,
  ) {
    super(message);
  }
}

/** Permanent: MyPay answered with a fault code or refused the request. */
export class MyPayFault extends Error {
  override name = 'MyPayFault';
  constructor(
    readonly operation: string,
    readonly faultCode: string,
    readonly faultString: string,
    readonly description?: string,
  ) {
    super(`${operation}: ${faultCode} ${faultString}${description ? ` — ${description}` : ''}`);
  }
}

/** Fault codes MyPay uses for its own failures: as transient as a 5xx. */
const TRANSIENT_FAULTS = new Set(['PAA_SYSTEM_ERROR']);
/** Fault code the simulator (and this adapter, for MyBox's answer) uses when a request token is used twice. */
export const FAULT_TOKEN_ALREADY_USED = 'PAA_REQUEST_TOKEN_GIA_USATO';

export interface MyPayConfig {
  /** The SOAP endpoint (…/PagamentiTelematiciDovutiPagati). */
  endpoint: string;
  codIpaEnte: string;
  /** The password, or a function that fetches it (Secrets Manager in the cloud). */
  password: string | (() => Promise<string>);
  /** Per HTTP call (default 10 s). */
  timeoutMs?: number;
  /** reportPaid: wait between export polls (default 2 s) and how many polls at most (default 30). */
  exportPollMs?: number;
  exportMaxPolls?: number;
}

/**
 * The deployment settings: MYPAY_ENDPOINT, MYPAY_COD_IPA, MYPAY_PASSWORD (locally; in the cloud the
 * three come from the secret named by the CDK context mypaySecretName, resolved at deploy), MYPAY_TIMEOUT_MS.
 */
export function myPayConfigFromEnv(env: NodeJS.ProcessEnv = process.env, password?: () => Promise<string>): MyPayConfig {
  const endpoint = env.MYPAY_ENDPOINT;
  const codIpaEnte = env.MYPAY_COD_IPA;
  if (!endpoint || !codIpaEnte) throw new Error('MyPay is not configured: set MYPAY_ENDPOINT and MYPAY_COD_IPA');
  const secret = password ?? env.MYPAY_PASSWORD;
  if (!secret) throw new Error('MyPay password missing: set MYPAY_PASSWORD');
  return { endpoint, codIpaEnte, password: secret, timeoutMs: env.MYPAY_TIMEOUT_MS ? Number(env.MYPAY_TIMEOUT_MS) : undefined };
}

const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

type Fields = [name: string, value: string | boolean | undefined][];
const elements = (fields: Fields) =>
  fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<${name}>${escapeXml(String(value))}</${name}>`)
    .join('');

/** "12.34" → 1234, exactly (no floating point). */
export function decimalToCents(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`Not an amount: "${text}"`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
/** 1234 → "12.34" */
export const centsToDecimal = (cents: number): string => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const childElements = (element: XmlElement) => element.children.filter((c): c is XmlElement => c instanceof XmlElement);
const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const child = (element: XmlElement | undefined, name: string) => element && childElements(element).find((c) => localName(c.name) === name);
const children = (element: XmlElement | undefined, name: string) => (element ? childElements(element).filter((c) => localName(c.name) === name) : []);
const text = (element: XmlElement | undefined, name: string) => child(element, name)?.text.trim() || undefined;

export function makeMyPay(config: MyPayConfig, fetchImpl: typeof fetch = fetch): MyPay {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const password = async () => (typeof config.password === 'string' ? config.password : config.password());

  /** fetch with the timeout; a timeout or a refused connection is MyPayUnavailable. */
  async function call(operation: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const name = (error as Error).name;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
      throw new MyPayUnavailable(`${operation}: ${reason}`, operation);
    }
  }

  async function readBody(operation: string, response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw new MyPayUnavailable(`${operation}: answer interrupted (${(error as Error).message})`, operation);
    }
  }

  /** One SOAP operation: returns the answer element (…Risposta), after checking its fault. */
  async function soap(operation: string, fields: Fields, header = true): Promise<XmlElement> {
    const envelope =
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ppt="${MYPAY_NAMESPACE}" xmlns:ppthead="${MYPAY_HEAD_NAMESPACE}">` +
      (header ? `<soapenv:Header><ppthead:intestazionePPT>${elements([['codIpaEnte', config.codIpaEnte]])}</ppthead:intestazionePPT></soapenv:Header>` : '') +
      `<soapenv:Body><ppt:${operation}>${elements(fields)}</ppt:${operation}></soapenv:Body></soapenv:Envelope>`;
    const response = await call(operation, config.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${operation}"` },
      body: envelope,
    });
    const body = await readBody(operation, response);
    let document: XmlElement | undefined;
    try {
      document = parseXml(body).root ?? undefined;
    } catch {
      document = undefined;
    }
    const soapBody = child(document, 'Body');
    const soapFault = child(soapBody, 'Fault');
    if (soapFault) {
      const code = text(soapFault, 'faultcode') ?? 'soap:Server';
      const message = text(soapFault, 'faultstring') ?? `HTTP ${response.status}`;
      if (localName(code) === 'Client') throw new MyPayFault(operation, code, message);
      throw new MyPayUnavailable(`${operation}: ${code} ${message}`, operation);
    }
    if (response.status >= 500) throw new MyPayUnavailable(`${operation}: HTTP ${response.status}`, operation);
    const answer = soapBody && childElements(soapBody)[0];
    if (!response.ok || !answer) throw new MyPayFault(operation, `HTTP_${response.status}`, 'Risposta non valida', body.slice(0, 200));
    const fault = child(answer, 'fault');
    if (fault) {
      const faultCode = text(fault, 'faultCode') ?? 'PAA_SYSTEM_ERROR';
      const faultString = text(fault, 'faultString') ?? '';
      const description = text(fault, 'description');
      if (TRANSIENT_FAULTS.has(faultCode)) throw new MyPayUnavailable(`${operation}: ${faultCode} ${faultString}`, operation);
      throw new MyPayFault(operation, faultCode, faultString, description);
    }
    return answer;
  }

  const required = (operation: string, answer: XmlElement, name: string) => {
    const value = text(answer, name);
    if (!value) throw new MyPayFault(operation, 'RISPOSTA_INCOMPLETA', `Manca ${name}`);
    return value;
  };

  async function bytes(operation: string, url: string, init: RequestInit = {}): Promise<Uint8Array> {
    const response = await call(operation, url, init);
    if (response.status >= 500) throw new MyPayUnavailable(`${operation}: HTTP ${response.status}`, operation);
    if (!response.ok) throw new MyPayFault(operation, `HTTP_${response.status}`, 'File non disponibile', await readBody(operation, response));
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new MyPayUnavailable(`${operation}: download interrupted (${(error as Error).message})`, operation);
    }
  }

  const paidItem = (item: XmlElement): MyPayPaidItem => ({
    iud: text(item, 'identificativoUnivocoDovuto') ?? '',
    iuv: text(item, 'identificativoUnivocoVersamento') ?? '',
    amountCents: decimalToCents(text(item, 'singoloImportoPagato') ?? '0'),
    paidOn: text(item, 'dataEsitoSingoloPagamento') ?? '',
    iur: text(item, 'identificativoUnivocoRiscossione') ?? '',
  });

  return {
    async authorize() {
      const operation = 'paaSILAutorizzaImportFlusso';
      const answer = await soap(operation, [['password', await password()]]);
      return {
        uploadUrl: required(operation, answer, 'uploadUrl'),
        authorizationToken: required(operation, answer, 'authorizationToken'),
        requestToken: required(operation, answer, 'requestToken'),
        importPath: text(answer, 'importPath') ?? '',
      } satisfies MyPayAuthorization;
    },

    /**
     * MyBox upload (MyPay4 MyBoxController.uploadFlusso): multipart with `authorizationToken` and one file.
     * MyPay4 computes the MD5 of what it stores and writes it beside the file (`<name>.md5`); the adapter
     * also sends its own as the form field `md5` (hex), which the simulator checks — MyPay4 ignores
     * unknown fields. MyBox answers HTTP 200 with `[{fileName, fileSize, fileType}]`, or
     * `[{codice, descrizione}]` when it refuses the file.
     */
    async upload(authorization, zip, fileName) {
      const operation = 'upload';
      const form = new FormData();
      form.set('authorizationToken', authorization.authorizationToken);
      form.set('md5', createHash('md5').update(zip).digest('hex'));
      form.set('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), fileName);
      const response = await call(operation, authorization.uploadUrl, { method: 'POST', body: form });
      const body = await readBody(operation, response);
      if (response.status >= 500) throw new MyPayUnavailable(`${operation}: HTTP ${response.status}`, operation);
      let answer: { codice?: string; descrizione?: string; fileName?: string; fileSize?: string } | undefined;
      try {
        answer = (JSON.parse(body) as (typeof answer)[])[0];
      } catch {
        answer = undefined;
      }
      if (!response.ok || !answer) throw new MyPayFault(operation, `HTTP_${response.status}`, 'Risposta non valida', body.slice(0, 200));
      if (answer.codice) {
        const code = /già usato|already used/i.test(answer.descrizione ?? '') ? FAULT_TOKEN_ALREADY_USED : `MYBOX_${answer.codice}`;
        throw new MyPayFault(operation, code, answer.descrizione ?? 'File rifiutato');
      }
      if (Number(answer.fileSize) !== zip.byteLength) {
        throw new MyPayFault(operation, 'MYBOX_SIZE', `MyBox ha ricevuto ${answer.fileSize} byte invece di ${zip.byteLength}`);
      }
    },

    async importStatus(requestToken, files = { scarti: true, iuv: true, avvisi: true }) {
      const operation = 'paaSILChiediStatoImportFlusso';
      const answer = await soap(operation, [
        ['requestToken', requestToken],
        ['password', await password()],
        ['fileScarti', files.scarti],
        ['fileIUV', files.iuv],
        ['fileAvvisi', files.avvisi],
      ]);
      return {
        stato: required(operation, answer, 'stato'),
        urlFileScarti: text(answer, 'urlFileScarti'),
        urlFileIUV: text(answer, 'urlFileIUV'),
        urlFileAvvisi: text(answer, 'urlFileAvvisi'),
      } satisfies MyPayImportStatus;
    },

    download: (url) => bytes('download', url),

    /**
     * paaSILInviaDovuti: `dovuti` is the base64 of a Dovuti XML (after MyPay's PagInf_Dovuti_Pagati schema,
     * reduced to what the portal sends: the payer and one datiSingoloVersamento per position).
     */
    async startPayment(payer: MyPayPayer, items: MyPayPaymentItem[], returnUrl: string): Promise<MyPayPaymentSession> {
      const operation = 'paaSILInviaDovuti';
      if (items.length < 1 || items.length > 5) throw new MyPayFault(operation, 'PAA_DOVUTI_NON_VALIDI', 'Da 1 a 5 posizioni per pagamento');
      const dovuti =
        `<?xml version="1.0" encoding="UTF-8"?><Dovuti xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/">` +
        elements([['versioneOggetto', '6.2']]) +
        `<soggettoPagatore><identificativoUnivocoPagatore>${elements([
          ['tipoIdentificativoUnivoco', payer.tipoIdentificativoUnivoco],
          ['codiceIdentificativoUnivoco', payer.codiceIdentificativoUnivoco],
        ])}</identificativoUnivocoPagatore>${elements([
          ['anagraficaPagatore', payer.anagrafica],
          ['e-mailPagatore', payer.email],
        ])}</soggettoPagatore>` +
        `<datiVersamento>${elements([['tipoVersamento', 'ALL']])}` +
        items
          .map(
            (item) =>
              `<datiSingoloVersamento>${elements([
                ['identificativoUnivocoDovuto', item.iud],
                ['identificativoUnivocoVersamento', item.iuv],
                ['importoSingoloVersamento', centsToDecimal(item.amountCents)],
                ['identificativoTipoDovuto', item.tipoDovuto],
                ['causaleVersamento', item.causale],
                ['datiSpecificiRiscossione', item.datiSpecificiRiscossione],
              ])}</datiSingoloVersamento>`,
          )
          .join('') +
        `</datiVersamento></Dovuti>`;
      const answer = await soap(operation, [
        ['password', await password()],
        ['dovuti', Buffer.from(dovuti, 'utf8').toString('base64')],
        ['enteSILInviaRispostaPagamentoUrl', returnUrl],
      ]);
      return { idSession: required(operation, answer, 'idSession'), url: required(operation, answer, 'url') };
    },

    /** paaSILChiediPagati: `pagati` is the base64 of a Pagati XML; "not yet"/"cancelled" come as fault codes. */
    async paymentOutcome(idSession): Promise<MyPayPaymentOutcome> {
      const operation = 'paaSILChiediPagati';
      let answer: XmlElement;
      try {
        answer = await soap(
          operation,
          [
            ['codIpaEnte', config.codIpaEnte],
            ['password', await password()],
            ['idSession', idSession],
          ],
          false,
        );
      } catch (error) {
        if (error instanceof MyPayFault) {
          if (error.faultCode === 'PAA_PAGAMENTO_ANNULLATO') return { status: 'CANCELLED', payments: [] };
          if (error.faultCode === 'PAA_PAGAMENTO_IN_CORSO' || error.faultCode === 'PAA_PAGAMENTO_NON_INIZIATO') return { status: 'PENDING', payments: [] };
        }
        throw error;
      }
      const encoded = required(operation, answer, 'pagati');
      const pagati = parseXml(Buffer.from(encoded, 'base64').toString('utf8')).root!;
      const datiPagamento = child(pagati, 'datiPagamento');
      const esito = text(datiPagamento, 'codiceEsitoPagamento');
      const payments = children(datiPagamento, 'datiSingoloPagamento').map(paidItem);
      return { status: esito === '0' ? 'PAID' : 'FAILED', payments: esito === '0' ? payments : [] };
    },

    async reportPaid(from, to) {
      const book = 'paaSILPrenotaExportFlusso';
      const booked = await soap(book, [
        ['password', await password()],
        ['dateFrom', from],
        ['dateTo', to],
        ['versioneTracciato', '1.0'],
      ]);
      const requestToken = required(book, booked, 'requestToken');
      const operation = 'paaSILChiediStatoExportFlusso';
      for (let poll = 0; poll < (config.exportMaxPolls ?? 30); poll++) {
        const answer = await soap(operation, [
          ['password', await password()],
          ['requestToken', requestToken],
        ]);
        const stato = required(operation, answer, 'stato');
        if (stato === 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO') return [];
        if (stato === 'EXPORT_ESEGUITO') return parsePaidExport(await bytes('download', required(operation, answer, 'downloadUrl')));
        if (stato !== 'LOAD_EXPORT' && stato !== 'EXPORT_IN_ELAB') throw new MyPayFault(operation, stato, 'Export non riuscito');
        await new Promise((resolve) => setTimeout(resolve, config.exportPollMs ?? 2000));
      }
      throw new MyPayUnavailable(`${operation}: export ${requestToken} not ready after ${config.exportMaxPolls ?? 30} polls`, operation);
    },
  };
}

/** The reporting ZIP: one CSV (`;`, header line) with MyPay's export columns; the paid rows. */
export function parsePaidExport(zip: Uint8Array): MyPayPaidRow[] {
  const files = Object.entries(unzipSync(zip)).filter(([name]) => name.toLowerCase().endsWith('.csv'));
  const rows: MyPayPaidRow[] = [];
  for (const [, content] of files) {
    const parsed = Papa.parse<Record<string, string>>(strFromU8(content).replace(/^\uFEFF/, ''), { header: true, delimiter: ';', skipEmptyLines: true });
    for (const row of parsed.data) {
      if (row.esitoSingoloPagamento && row.esitoSingoloPagamento !== 'ESEGUITO') continue;
      rows.push({
        iud: row.codIud ?? '',
        iuv: row.codIuv || row.identificativoUnivocoVersamento || '',
        fiscalCode: row.soggPagCodiceIdentificativoUnivoco ?? '',
        amountCents: decimalToCents(row.singoloImportoPagato || '0'),
        paidOn: (row.dataEsitoSingoloPagamento ?? '').slice(0, 10),
        iur: row.identificativoUnivocoRiscoss ?? '',
        causale: row.causaleVersamento ?? '',
      });
    }
  }
  return rows;
}
