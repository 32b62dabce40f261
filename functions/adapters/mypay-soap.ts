/**
 * The MyPay adapter's SOAP core (see functions/adapters/mypay.ts for the whole adapter): the errors, the
 * settings, the envelope and the answer checks, and the two operations of paying now (paaSILInviaDovuti,
 * paaSILChiediPagati). Kept apart so a function that only starts payments and reads their outcome (the
 * citizen's positions) bundles neither the ZIP nor the CSV reader of the reporting.
 */
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import type { MyPay, MyPayPaidItem, MyPayPaymentOutcome, MyPayPaymentSession } from './ports/mypay.ts';
import { decimalToCents } from '../domain/money.ts';

export const MYPAY_NAMESPACE = 'http://www.regione.veneto.it/pagamenti/ente/';
export const MYPAY_HEAD_NAMESPACE = 'http://www.regione.veneto.it/pagamenti/ente/ppthead';
/** The Dovuti/Pagati schema's namespace (PagInf_Dovuti_Pagati_6_2_0.xsd, elementFormDefault qualified). */
export const MYPAY_SCHEMA_NAMESPACE = 'http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/';
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
  /**
   * MyPay's pa.modelloUnico (pagoPA's current "modello unico", default true): a session is linked to its cart
   * only when pagoPA's receipt arrives, so until then paaSILChiediPagati answers PAA_ID_SESSION_NON_VALIDO or,
   * for an older session, PAA_PAGAMENTO_SCADUTO — "not known yet", even for a citizen who has paid
   * (PagamentiTelematiciCCPPaImpl.paSendRT). false: the older WISP mode, where a session never used within
   * about an hour has expired (PaymentManagerService.placeOrder).
   */
  modelloUnico?: boolean;
  /** Per HTTP call (default 10 s). */
  timeoutMs?: number;
  /** reportPaid: wait between export polls (default 2 s) and how many polls at most (default 30). */
  exportPollMs?: number;
  exportMaxPolls?: number;
}

/**
 * The deployment settings: MYPAY_ENDPOINT, MYPAY_COD_IPA, MYPAY_PASSWORD (locally; in the cloud the
 * three come from the secret named by the CDK context mypaySecretName, resolved at deploy), MYPAY_TIMEOUT_MS,
 * MYPAY_MODELLO_UNICO ('false' for the older WISP mode).
 */
export function myPayConfigFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  password?: () => Promise<string>,
): MyPayConfig {
  const endpoint = env.MYPAY_ENDPOINT;
  const codIpaEnte = env.MYPAY_COD_IPA;
  if (!endpoint || !codIpaEnte) throw new Error('MyPay is not configured: set MYPAY_ENDPOINT and MYPAY_COD_IPA');
  const secret = password ?? env.MYPAY_PASSWORD;
  if (!secret) throw new Error('MyPay password missing: set MYPAY_PASSWORD');
  return {
    endpoint,
    codIpaEnte,
    password: secret,
    modelloUnico: env.MYPAY_MODELLO_UNICO?.trim().toLowerCase() !== 'false',
    timeoutMs: env.MYPAY_TIMEOUT_MS ? Number(env.MYPAY_TIMEOUT_MS) : undefined,
  };
}

export const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** A value, or `{ xml }`: elements already written (escaped) by the caller, for a nested type. */
export type Fields = [name: string, value: string | boolean | undefined | { xml: string }][];
export const elements = (fields: Fields) =>
  fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<${name}>${typeof value === 'object' ? value.xml : escapeXml(String(value))}</${name}>`)
    .join('');

export const childElements = (element: XmlElement) =>
  element.children.filter((c): c is XmlElement => c instanceof XmlElement);
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);
export const child = (element: XmlElement | undefined, name: string) =>
  element && childElements(element).find((c) => localName(c.name) === name);
export const children = (element: XmlElement | undefined, name: string) =>
  element ? childElements(element).filter((c) => localName(c.name) === name) : [];
export const text = (element: XmlElement | undefined, name: string) => child(element, name)?.text.trim() || undefined;

/** The SOAP call, the answer checks and the downloads, on one configuration. */
/** What a MyPay call keeps back of the caller's deadline: the time to record the outcome and answer. */
export const DEADLINE_MARGIN_MS = 500;

export function makeSoapClient(config: MyPayConfig, fetchImpl: typeof fetch = fetch) {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const password = async () => (typeof config.password === 'string' ? config.password : config.password());

  /**
   * fetch with the timeout, cut to the caller's `deadline` (epoch ms: the function's remaining time, as the
   * INPS adapter does) less DEADLINE_MARGIN_MS, so the call ends and the portal answers in Italian before the
   * function's own timeout; a timeout or a refused connection is MyPayUnavailable.
   */
  async function call(operation: string, url: string, init: RequestInit, deadline?: number): Promise<Response> {
    const callTimeout = Math.floor(
      Math.min(timeoutMs, deadline === undefined ? Infinity : deadline - Date.now() - DEADLINE_MARGIN_MS),
    );
    if (callTimeout <= 0)
      throw new MyPayUnavailable(`${operation}: no time left before the caller's deadline`, operation);
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(callTimeout) });
    } catch (error) {
      const name = (error as Error).name;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${callTimeout} ms`
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
  async function soap(operation: string, fields: Fields, header = true, deadline?: number): Promise<XmlElement> {
    const envelope =
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ppt="${MYPAY_NAMESPACE}" xmlns:ppthead="${MYPAY_HEAD_NAMESPACE}">` +
      (header
        ? `<soapenv:Header><ppthead:intestazionePPT>${elements([['codIpaEnte', config.codIpaEnte]])}</ppthead:intestazionePPT></soapenv:Header>`
        : '') +
      `<soapenv:Body><ppt:${operation}>${elements(fields)}</ppt:${operation}></soapenv:Body></soapenv:Envelope>`;
    const response = await call(
      operation,
      config.endpoint,
      {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${operation}"` },
        body: envelope,
      },
      deadline,
    );
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
    if (!response.ok || !answer)
      throw new MyPayFault(operation, `HTTP_${response.status}`, 'Risposta non valida', body.slice(0, 200));
    const fault = child(answer, 'fault');
    if (fault) {
      const faultCode = text(fault, 'faultCode') ?? 'PAA_SYSTEM_ERROR';
      const faultString = text(fault, 'faultString') ?? '';
      const description = text(fault, 'description');
      if (TRANSIENT_FAULTS.has(faultCode))
        throw new MyPayUnavailable(`${operation}: ${faultCode} ${faultString}`, operation);
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
    if (!response.ok)
      throw new MyPayFault(
        operation,
        `HTTP_${response.status}`,
        'File non disponibile',
        await readBody(operation, response),
      );
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new MyPayUnavailable(`${operation}: download interrupted (${(error as Error).message})`, operation);
    }
  }

  /** A datiSingoloPagamento of a Pagati document; the IUV is datiPagamento's (MyPay4 PagamentiTelematiciDovutiPagatiHelper.creaPagatiDocument). */
  const paidItem = (item: XmlElement, iuv = ''): MyPayPaidItem => ({
    iud: text(item, 'identificativoUnivocoDovuto') ?? '',
    iuv: text(item, 'identificativoUnivocoVersamento') ?? iuv,
    amountCents: decimalToCents(text(item, 'singoloImportoPagato') ?? '0'),
    paidOn: (text(item, 'dataEsitoSingoloPagamento') ?? '').slice(0, 10),
    iur: text(item, 'identificativoUnivocoRiscossione') ?? '',
  });

  return { config, timeoutMs, password, call, readBody, soap, required, bytes, paidItem };
}
export type SoapClient = ReturnType<typeof makeSoapClient>;

/** A base64Binary element's bytes as text (`null` when it is not base64). */
const fromBase64 = (encoded: string): string | null =>
  /^[A-Za-z0-9+/=\s]+$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : null;

/** Paying a position MyPay holds, and the outcome of the session. */
export function checkoutOperations(client: SoapClient): Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome'> {
  const { config, password, soap, required, paidItem } = client;
  const modelloUnico = config.modelloUnico ?? true;
  return {
    /**
     * How MyPay4 lets a council's own system send a citizen to pay a position it imported: paaSILVerificaAvviso
     * (PagamentiTelematiciDovutiPagatiImpl.java) with the council's codIpaEnte (header) and password, the IUV and
     * the page to come back to. MyPay checks the position (DA_PAGARE, its payment type active, a required due
     * date not past), makes a new session for this attempt and answers the landing URL
     * (/public/landing/inviaDovuti?id=…, LandingController.java), which pays MyPay's own record of the position
     * and sends the citizen back with ?idSession=<that session>&esito=OK|ERROR. Null when MyPay has nothing
     * payable for the IUV (PAA_IUV_NON_VALIDO: paid, cancelled, unknown); a past due date is MyPayFault
     * PAA_IUV_SCADUTO.
     */
    async openPositionCheckout(iuv: string, returnUrl: string, deadline?: number): Promise<MyPayPaymentSession | null> {
      const operation = 'paaSILVerificaAvviso';
      let answer: XmlElement;
      try {
        answer = await soap(
          operation,
          [
            ['password', await password()],
            ['identificativoUnivocoVersamento', iuv],
            ['enteSILInviaRispostaPagamentoUrl', returnUrl],
          ],
          true,
          deadline,
        );
      } catch (error) {
        if (error instanceof MyPayFault && error.faultCode === 'PAA_IUV_NON_VALIDO') return null;
        throw error;
      }
      const esito = text(answer, 'esito');
      if (esito !== 'OK')
        throw new MyPayFault(operation, `ESITO_${esito ?? 'ASSENTE'}`, 'Verifica avviso non riuscita');
      return { idSession: required(operation, answer, 'idSession'), url: required(operation, answer, 'url') };
    },

    /**
     * paaSILChiediPagati: `pagati` is Base64 of the Pagati XML put in a DataHandler, which the SOAP layer
     * encodes once more (PagamentiTelematiciDovutiPagatiImpl.java: Base64.encodeBase64 then a base64Binary
     * element): decoded twice. Not started / in progress / cancelled / expired come as fault codes; with the
     * modello unico, PAA_PAGAMENTO_NON_INIZIATO, PAA_ID_SESSION_NON_VALIDO and PAA_PAGAMENTO_SCADUTO mean the
     * receipt has not arrived (UNKNOWN), and PAA_ID_SESSION_NON_VALIDO in WISP mode is the few minutes between the session's storage
     * expiring and MyPay calling it expired (PagamentiTelematiciDovutiPagatiImpl.paaSILChiediPagati).
     */
    async paymentOutcome(idSession, deadline): Promise<MyPayPaymentOutcome> {
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
          deadline,
        );
      } catch (error) {
        if (error instanceof MyPayFault) {
          if (error.faultCode === 'PAA_PAGAMENTO_ANNULLATO') return { status: 'CANCELLED', payments: [] };
          if (error.faultCode === 'PAA_PAGAMENTO_SCADUTO')
            return { status: modelloUnico ? 'UNKNOWN' : 'EXPIRED', payments: [] };
          if (error.faultCode === 'PAA_ID_SESSION_NON_VALIDO') return { status: 'UNKNOWN', payments: [] };
          if (error.faultCode === 'PAA_PAGAMENTO_IN_CORSO') return { status: 'PENDING', payments: [] };
          // Modello unico: MyPay has only the basket until the receipt arrives, whether or not the citizen paid.
          if (error.faultCode === 'PAA_PAGAMENTO_NON_INIZIATO')
            return { status: modelloUnico ? 'UNKNOWN' : 'PENDING', payments: [] };
        }
        throw error;
      }
      const once = fromBase64(required(operation, answer, 'pagati'));
      const xml = once === null ? null : fromBase64(once);
      let pagati: XmlElement | undefined;
      try {
        pagati = xml ? (parseXml(xml).root ?? undefined) : undefined;
      } catch {
        pagati = undefined;
      }
      if (!pagati) throw new MyPayFault(operation, 'RISPOSTA_NON_VALIDA', 'pagati non è un documento Pagati in Base64');
      const datiPagamento = child(pagati, 'datiPagamento');
      // codiceEsitoPagamento 0 paid, 1 not paid, 2 partly paid (a cart): the items with an IUR are the paid ones.
      const esito = text(datiPagamento, 'codiceEsitoPagamento');
      const iuv = text(datiPagamento, 'identificativoUnivocoVersamento') ?? '';
      const payments = children(datiPagamento, 'datiSingoloPagamento')
        .map((item) => paidItem(item, iuv))
        .filter((item) => item.iur && item.amountCents > 0);
      const paid = (esito === '0' || esito === '2') && payments.length > 0;
      return { status: paid ? 'PAID' : 'FAILED', payments: paid ? payments : [] };
    },
  };
}

/** The checkout part of the adapter alone (the citizen's positions function). */
export const makeMyPayCheckout = (config: MyPayConfig, fetchImpl: typeof fetch = fetch) =>
  checkoutOperations(makeSoapClient(config, fetchImpl));
