/**
 * The MyPay adapter's SOAP core (see functions/adapters/mypay.ts for the whole adapter): the errors, the
 * settings, the envelope and the answer checks, and the two operations of paying now (paaSILInviaDovuti,
 * paaSILChiediPagati). Kept apart so a function that only starts payments and reads their outcome (the
 * citizen's positions) bundles neither the ZIP nor the CSV reader of the reporting.
 */
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import type { MyPay, MyPayPaidItem, MyPayPayer, MyPayPaymentItem, MyPayPaymentOutcome, MyPayPaymentSession } from './ports.ts';

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
export const TRANSIENT_FAULTS = new Set(['PAA_SYSTEM_ERROR']);
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

export const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

export type Fields = [name: string, value: string | boolean | undefined][];
export const elements = (fields: Fields) =>
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

export const childElements = (element: XmlElement) => element.children.filter((c): c is XmlElement => c instanceof XmlElement);
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);
export const child = (element: XmlElement | undefined, name: string) => element && childElements(element).find((c) => localName(c.name) === name);
export const children = (element: XmlElement | undefined, name: string) => (element ? childElements(element).filter((c) => localName(c.name) === name) : []);
export const text = (element: XmlElement | undefined, name: string) => child(element, name)?.text.trim() || undefined;

/** The SOAP call, the answer checks and the downloads, on one configuration. */
export function makeSoapClient(config: MyPayConfig, fetchImpl: typeof fetch = fetch) {
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

  return { config, timeoutMs, password, call, readBody, soap, required, bytes, paidItem };
}
export type SoapClient = ReturnType<typeof makeSoapClient>;

/** Paying now: the checkout session and its outcome. */
export function checkoutOperations(client: SoapClient): Pick<MyPay, 'startPayment' | 'paymentOutcome'> {
  const { config, password, soap, required, paidItem } = client;
  return {
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

  };
}

/** The checkout part of the adapter alone (the citizen's positions function). */
export const makeMyPayCheckout = (config: MyPayConfig, fetchImpl: typeof fetch = fetch) => checkoutOperations(makeSoapClient(config, fetchImpl));
