import { parseXml, XmlElement } from '@rgrove/parse-xml';
import type {
  InpsAnswer,
  InpsAttestationOperation,
  InpsOperation,
  InpsAttestation,
  InpsEsito,
  InpsIndicator,
  InpsOtherIndicator,
  InpsValues,
} from '../domain/inps.ts';
import { inpsEsiti } from '../domain/inps.ts';
import { child, children, childElements, escapeXml, localName, text } from './mypay-soap.ts';
import { decimalToCents } from '../domain/money.ts';
import { jwtPayload, type PdndClient, type Voucher } from './pdnd.ts';
import type { InpsIsee, InpsRequest } from './ports/inps.ts';
import { isCertificateError } from './client-certificate-fetch.ts';

/**
 * INPS's ConsultazioneISEE e-services through PDND (reference.md; the WSDL/XSD v2.8 for PDND in
 * functions/adapters/inps/, as copied in pagopa/idpay-admissibility-assessor): SOAP 1.1 document/literal,
 * namespace http://inps.it/ConsultazioneISEE, SOAPAction http://inps.it/ConsultazioneISEE/ISvcConsultazione/<Operation>,
 * the PDND voucher as `Authorization: Bearer`, the SOAP header `Identity` (http://inps.it/: UserId, CodiceUfficio),
 * and the answer's IdRichiesta, Esito, DescrizioneErrore and base64 XML (http://inps.it/ISEERiforma).
 *
 * The envelope is written here and the answer read with @rgrove/parse-xml (as the MyPay adapter does): the
 * `soap` package would add ~650 KB to the function. Each e-service (settings.attestazione, settings.indicatore)
 * has its own operation, endpoint, voucher audience and purpose. Every wait and call ends before the request's
 * deadline (the caller's time budget). Errors by name:
 * - InpsUnavailable: no answer, 5xx, out of time: retry later;
 * - InpsRateLimited: 429 still after waiting (Retry-After, or RATE_LIMIT_WAIT_MS without it: maybe the daily limit);
 * - InpsMisconfigured: ActionNotSupported, HTTP 403, a certificate refused, a voucher for another audience:
 *   the settings do not match the e-service (never retried; `check` says what to check);
 * - InpsRefused: the voucher refused twice (401), a SOAP fault of the client;
 * - InpsMalformed: an answer that is not the contract's (unreadable XML, base64 that is not an attestation).
 * An Esito other than OK is not an error: the answer carries it (functions/domain/inps.ts says what it means).
 */
export const INPS_NAMESPACE = 'http://inps.it/ConsultazioneISEE';
export const INPS_IDENTITY_NAMESPACE = 'http://inps.it/';
export const soapAction = (operation: string) => `${INPS_NAMESPACE}/ISvcConsultazione/${operation}`;

export class InpsUnavailable extends Error {
  override name = 'InpsUnavailable';
}
export class InpsRefused extends Error {
  override name = 'InpsRefused';
}
export class InpsMalformed extends Error {
  override name = 'InpsMalformed';
}
/** INPS answered 429 to every try: `withoutRetryAfter` when it never said how long to wait (it may be the daily limit). */
export class InpsRateLimited extends Error {
  override name = 'InpsRateLimited';
  constructor(
    message: string,
    readonly withoutRetryAfter: boolean,
  ) {
    super(message);
  }
}
/**
 * The deployment's settings do not match the e-service: an operation it does not have (ActionNotSupported), a
 * client certificate it refuses, a voucher for another audience. Never retried; `check` says what to check.
 */
export class InpsMisconfigured extends Error {
  override name = 'InpsMisconfigured';
  constructor(
    message: string,
    readonly check: string,
  ) {
    super(message);
  }
}

/** One e-service the council subscribed to in PDND's catalogue: its operation, endpoint, voucher audience and purpose. */
export interface InpsEService<O extends InpsOperation = InpsOperation> {
  operation: O;
  /** The e-service's SOAP endpoint (INPS's technical sheet in the PDND catalogue). */
  endpoint: string;
  /** The audience PDND writes in the e-service's vouchers (and the AUDIT_REST_02 token's aud). */
  audience: string;
  /** The purpose (finalità) the council created for it. */
  purposeId: string;
}

export interface InpsSettings {
  /** The attestation: the residents' e-service (ConsultazioneAttestazioneResidenti) or ConsultazioneAttestazione. */
  attestazione: InpsEService<InpsAttestationOperation>;
  /** The indicator, when the council subscribed to it; without it 'Verifica con INPS' reads the attestation. */
  indicatore: InpsEService<'ConsultazioneIndicatore'> | null;
  /** Identity/UserId (and the INPS-Identity-UserId header): the council's fiscal code. */
  userId: string;
  /** Identity/CodiceUfficio (and the INPS-Identity-CodiceUfficio header). */
  codiceUfficio: string;
  /** Send the audit information (AUDIT_REST_02) with every call: only when the e-service asks for it. */
  auditRest02: boolean;
  /** Mutual TLS: the fetch presents the client certificate (functions/adapters/client-certificate-fetch.ts). */
  clientCertificate?: boolean;
}

export interface InpsAdapterOptions {
  settings: InpsSettings;
  pdnd: Pick<PdndClient, 'voucher' | 'forget' | 'trackingEvidence'>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Per HTTP call (default 15 s), shortened to the request's deadline. */
  timeoutMs?: number;
  /** 429s waited out and 5xx/timeouts retried before giving up (default 3 and 2). */
  maxRateLimitWaits?: number;
  maxRetries?: number;
  /** How a 429 is waited out before the retry (default: Retry-After's seconds); the refresh jobs' pace slows down (adapters/pacer.ts). */
  waitAfterRateLimit?: (retryAfterMs: number) => Promise<void>;
  now?: () => number;
}

/** A 429 without Retry-After (INPS's may have none): wait this long before asking again. */
export const RATE_LIMIT_WAIT_MS = 5_000;
/** What a call needs at least, and keeps back of the deadline to answer the citizen. */
const DEADLINE_MARGIN_MS = 500;

/** RicercaCF's children in the XSD's order. */
const ricercaCf = (request: InpsRequest) =>
  `<con:RicercaCF>` +
  `<con:CodiceFiscale>${escapeXml(request.fiscalCode)}</con:CodiceFiscale>` +
  `<con:DataValidita>${escapeXml(request.dataValidita)}</con:DataValidita>` +
  `<con:PrestazioneDaErogare>${escapeXml(request.benefitCode)}</con:PrestazioneDaErogare>` +
  `<con:ProtocolloDomandaEnteErogatore>${escapeXml(request.applicationNumber)}</con:ProtocolloDomandaEnteErogatore>` +
  `<con:StatodomandaPrestazione>${escapeXml(request.applicationState)}</con:StatodomandaPrestazione>` +
  `</con:RicercaCF>`;

export function envelope(
  settings: Pick<InpsSettings, 'userId' | 'codiceUfficio'>,
  operation: InpsOperation,
  requestBody: string,
): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:con="${INPS_NAMESPACE}" xmlns:inps="${INPS_IDENTITY_NAMESPACE}">` +
    // The Identity schema has no elementFormDefault: its children are unqualified.
    `<soapenv:Header><inps:Identity><UserId>${escapeXml(settings.userId)}</UserId><CodiceUfficio>${escapeXml(settings.codiceUfficio)}</CodiceUfficio></inps:Identity></soapenv:Header>` +
    `<soapenv:Body><con:${operation}><con:request>${requestBody}</con:request></con:${operation}></soapenv:Body></soapenv:Envelope>`
  );
}

const attr = (element: XmlElement | undefined, name: string): string | undefined => {
  const value = element?.attributes[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
};
const required = (element: XmlElement | undefined, name: string): string => {
  const value = attr(element, name);
  if (value === undefined) throw new InpsMalformed(`${element?.name ?? 'elemento'} senza l’attributo ${name}`);
  return value;
};
const cents = (value: string) => {
  try {
    return decimalToCents(value);
  } catch {
    throw new InpsMalformed(`Importo non valido: ${value}`);
  }
};
const day = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) throw new InpsMalformed(`Data non valida: ${value}`);
  return value.slice(0, 10);
};

export function readValues(element: XmlElement | undefined): InpsValues {
  const scala = Number(required(element, 'ScalaEquivalenza'));
  if (!Number.isFinite(scala) || scala <= 0) throw new InpsMalformed('Scala di equivalenza non valida');
  return {
    iseCents: cents(required(element, 'ISE')),
    scalaEquivalenza: scala,
    iseeCents: cents(required(element, 'ISEE')),
    isrCents: cents(required(element, 'ISR')),
    ispCents: cents(required(element, 'ISP')),
  };
}

/** The base64 XML of the answer, decoded with the encoding it declares (INPS's schemas are iso-8859-1). */
export function decodeEmbeddedXml(base64: string): XmlElement {
  const bytes = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  const head = bytes.subarray(0, 100).toString('latin1');
  const encoding = /encoding=["']([^"']+)["']/i.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
  const xml = encoding === 'iso-8859-1' || encoding === 'latin1' ? bytes.toString('latin1') : bytes.toString('utf8');
  try {
    const root = parseXml(xml.replace(/^<\?xml[^>]*\?>/, '')).root;
    if (!root) throw new Error('empty');
    return root;
  } catch (error) {
    throw new InpsMalformed(`XML di esito illeggibile (${(error as Error).message})`);
  }
}

/** Each person's value of an indicator block other than the ordinary one (ISEEMin, ISEEUni, ISEESocioSanRes, Ridotto). */
function personIndicators(
  block: XmlElement | undefined,
  personName: string,
  kind: InpsOtherIndicator['kind'],
): InpsOtherIndicator[] {
  return children(block, personName).map((person) => {
    const own = childElements(person).find((c) => child(c, 'Valori'));
    const value = attr(person, 'ISEE') ?? attr(child(own, 'Valori'), 'ISEE');
    return {
      kind,
      fiscalCode: required(person, 'CodiceFiscale'),
      iseeCents: value === undefined ? null : cents(value),
    };
  });
}

/** EsitoAttestazione → the attestation (null when the answer has none). */
export function readAttestation(esito: XmlElement): InpsAttestation | null {
  const attestazione = localName(esito.name) === 'Attestazione' ? esito : child(esito, 'Attestazione');
  if (!attestazione) return null;
  const ordinario = child(attestazione, 'Ordinario');
  const iseeOrdinario = child(ordinario, 'ISEEOrdinario');
  const scadenzaCorrente = attr(attestazione, 'DataScadenzaDSUCorrente');
  const corrente =
    attr(ordinario, 'Corrente') === 'SI'
      ? {
          protocolloDSU: required(ordinario, 'ProtocolloDSUModuloSostitutivo'),
          dataPresentazione: day(required(ordinario, 'DataPresentazioneModuloSostitutivo')),
          // An ISEE corrente without its expiry is read as unusable rather than valid until 31 December.
          dataScadenza: day(scadenzaCorrente ?? required(attestazione, 'DataScadenzaDSUCorrente')),
        }
      : null;
  return {
    protocolloDSU: required(attestazione, 'NumeroProtocolloDSU'),
    codiceFiscaleDichiarante: required(attestazione, 'CodiceFiscaleDichiarante'),
    dataPresentazione: day(required(attestazione, 'DataPresentazione')),
    dataValidita: day(required(attestazione, 'DataValidita')),
    dataScadenzaDSUCorrente: scadenzaCorrente ? day(scadenzaCorrente) : null,
    corrente,
    household: children(child(ordinario, 'NucleoFamiliare'), 'ComponenteNucleo').map((member) => ({
      relation: required(member, 'RapportoConDichiarante'),
      lastName: required(member, 'Cognome'),
      firstName: required(member, 'Nome'),
      fiscalCode: required(member, 'CodiceFiscale'),
    })),
    ordinario: iseeOrdinario
      ? { ...readValues(child(iseeOrdinario, 'Valori')), dataRilascio: day(required(iseeOrdinario, 'DataRilascio')) }
      : null,
    otherIndicators: [
      ...personIndicators(child(ordinario, 'ISEEMin'), 'ComponenteMinorenne', 'MINORENNI'),
      ...personIndicators(child(ordinario, 'ISEEUni'), 'StudenteUniversitario', 'UNIVERSITARIO'),
      ...personIndicators(child(ordinario, 'ISEESocioSanRes'), 'ComponenteSocioSanitarieRes', 'SOCIOSANITARIO'),
      ...children(attestazione, 'Ridotto').map((ridotto) => {
        const value = attr(child(child(ridotto, 'ISEERistretto'), 'Valori'), 'ISEE');
        return {
          kind: 'RIDOTTO' as const,
          fiscalCode: required(ridotto, 'CodiceFiscaleBeneficiario'),
          iseeCents: value === undefined ? null : cents(value),
        };
      }),
    ],
    omissions: children(attestazione, 'OmissioneDifformita').map((o) => ({
      type: required(o, 'TipoOmissioneDifformita'),
      fiscalCode: required(o, 'CodiceFiscale'),
      checkedOn: day(required(o, 'DataControlloAE')),
    })),
    discrepancies: children(child(attestazione, 'Variazione'), 'DiscordanzeContestazione').map((d) => ({
      fiscalCode: required(d, 'CFDiscordanza'),
      type: required(d, 'TipologiaDiscordanza'),
      detail: required(d, 'SpecificaDiscordanza'),
    })),
  };
}

/** Indicatore → the indicator. */
export function readIndicator(indicatore: XmlElement): InpsIndicator {
  return {
    tipoIndicatore: required(indicatore, 'TipoIndicatore'),
    values: readValues(indicatore),
    protocolloDSU: required(indicatore, 'ProtocolloDSU'),
    dataPresentazione: day(required(indicatore, 'DataPresentazione')),
  };
}

const readAttestationOrFail = (xml: XmlElement) => {
  const attestation = readAttestation(xml);
  if (!attestation) throw new InpsMalformed('EsitoAttestazione senza Attestazione');
  return attestation;
};

/** The audience(s) a voucher is for. */
const audiencesOf = (token: string): string[] => {
  const aud = jwtPayload(token)?.aud;
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.map(String) : [];
};

const eServiceCheck = (service: InpsEService) =>
  `l’e-service a cui il Comune aderisce su PDND e la sua scheda tecnica: operazione ${service.operation}, indirizzo ${service.endpoint}, audience ${service.audience}, finalità ${service.purposeId}`;

export function makeInpsIsee(options: InpsAdapterOptions): InpsIsee {
  const { settings, pdnd } = options;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRateLimitWaits = options.maxRateLimitWaits ?? 3;
  const maxRetries = options.maxRetries ?? 2;

  /** One HTTP exchange, with the waits and retries the transport needs; returns the SOAP answer's first element. */
  async function exchange(
    service: InpsEService,
    body: string,
    request: InpsRequest,
  ): Promise<{ answer: XmlElement; voucher: Voucher }> {
    const { operation } = service;
    let rateLimitWaits = 0;
    let failures = 0;
    let refusedVouchers = 0;
    /** Time left before the caller's deadline, less what it keeps to answer. */
    const left = () => (request.deadline === undefined ? Infinity : request.deadline - now() - DEADLINE_MARGIN_MS);
    const outOfTime = () => new InpsUnavailable(`${operation}: tempo esaurito prima della risposta di INPS`);
    /** Waits before the next try, or gives up when the wait would outlast the deadline. */
    const waitOrGiveUp = async (ms: number, wait: (ms: number) => Promise<void> = sleep) => {
      if (left() < ms + 1000) throw outOfTime();
      await wait(ms);
    };
    for (;;) {
      if (left() < 1000) throw outOfTime();
      const evidence =
        settings.auditRest02 && request.requestedBy
          ? await pdnd.trackingEvidence({
              aud: service.audience,
              purposeId: service.purposeId,
              userID: request.requestedBy.userID,
              userLocation: 'portale-servizi-sociali',
              LoA: request.requestedBy.LoA,
            })
          : undefined;
      const voucher = await pdnd.voucher(service.purposeId, evidence, { deadline: request.deadline });
      const audiences = audiencesOf(voucher.token);
      if (audiences.length > 0 && !audiences.includes(service.audience)) {
        throw new InpsMisconfigured(
          `${operation}: il voucher di PDND è per ${audiences.join(', ')}, non per ${service.audience}`,
          `la finalità ${service.purposeId} (deve essere quella dell’e-service) e l’audience configurata: ${eServiceCheck(service)}`,
        );
      }
      let response: Response;
      let payload: string;
      const callTimeout = Math.min(timeoutMs, left());
      try {
        response = await doFetch(service.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            SOAPAction: `"${soapAction(operation)}"`,
            authorization: `Bearer ${voucher.token}`,
            // Municipal clients send the Identity as HTTP headers too (lsantalu/OpenMSP inps.py).
            'INPS-Identity-UserId': settings.userId,
            'INPS-Identity-CodiceUfficio': settings.codiceUfficio,
            ...(evidence ? { 'AgID-JWT-TrackingEvidence': evidence.jws } : {}),
          },
          body,
          signal: AbortSignal.timeout(callTimeout),
        });
        payload = await response.text();
      } catch (error) {
        if (isCertificateError(error)) {
          throw new InpsMisconfigured(
            `${operation}: connessione TLS rifiutata (${(error as Error).message})`,
            `il certificato client (segreto INPS_CLIENT_CERT_SECRET) e la sua registrazione presso INPS; ${eServiceCheck(service)}`,
          );
        }
        if (++failures > maxRetries) {
          const reason =
            (error as Error).name === 'TimeoutError'
              ? `nessuna risposta in ${callTimeout} ms`
              : (error as Error).message;
          throw new InpsUnavailable(`${operation}: ${reason}`);
        }
        await waitOrGiveUp(500 * 2 ** (failures - 1));
        continue;
      }
      if (response.status === 403) {
        // Forbidden is not a voucher gone stale: a certificate or a purpose INPS does not accept.
        throw new InpsMisconfigured(
          `${operation}: accesso negato da INPS (HTTP 403${payload ? `: ${payload.slice(0, 200)}` : ''})`,
          `${settings.clientCertificate ? 'il certificato client, ' : ''}${eServiceCheck(service)}`,
        );
      }
      if (response.status === 401) {
        // An expired or revoked voucher: ask PDND for a new one, once.
        pdnd.forget(voucher);
        if (++refusedVouchers > 1) throw new InpsRefused(`${operation}: voucher rifiutato (HTTP ${response.status})`);
        continue;
      }
      if (response.status === 429) {
        const header = response.headers.get('retry-after');
        const seconds =
          header === null ? NaN : /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - now()) / 1000;
        const withoutRetryAfter = !Number.isFinite(seconds);
        // Without Retry-After it may be the daily limit: waited out once, then said to be one.
        if (++rateLimitWaits > (withoutRetryAfter ? 1 : maxRateLimitWaits))
          throw new InpsRateLimited(
            `${operation}: troppe richieste (HTTP 429${withoutRetryAfter ? ', senza Retry-After' : ''})`,
            withoutRetryAfter,
          );
        const waitMs = withoutRetryAfter ? RATE_LIMIT_WAIT_MS : Math.min(Math.max(seconds, 0) * 1000, 30_000);
        if (left() < waitMs + 1000)
          throw new InpsRateLimited(
            `${operation}: troppe richieste (HTTP 429), nessun tempo per attendere`,
            withoutRetryAfter,
          );
        await (options.waitAfterRateLimit ?? sleep)(waitMs);
        continue;
      }
      let document: XmlElement | undefined;
      try {
        document = parseXml(payload).root ?? undefined;
      } catch {
        document = undefined;
      }
      const soapBody = child(document, 'Body');
      const fault = child(soapBody, 'Fault');
      if (fault) {
        const code = localName(text(fault, 'faultcode') ?? 'Server');
        const message = text(fault, 'faultstring') ?? `HTTP ${response.status}`;
        // WCF's answer to a SOAPAction the endpoint does not have: the operation or the endpoint is not the e-service's.
        if (code === 'ActionNotSupported')
          throw new InpsMisconfigured(
            `${operation}: operazione non prevista dall’e-service (${message.slice(0, 200)})`,
            eServiceCheck(service),
          );
        if (code === 'Client') throw new InpsRefused(`${operation}: ${message}`);
        if (++failures > maxRetries) throw new InpsUnavailable(`${operation}: ${message}`);
        await waitOrGiveUp(500 * 2 ** (failures - 1));
        continue;
      }
      if (response.status >= 500) {
        if (++failures > maxRetries) throw new InpsUnavailable(`${operation}: HTTP ${response.status}`);
        await waitOrGiveUp(500 * 2 ** (failures - 1));
        continue;
      }
      const answer = soapBody && childElements(soapBody)[0];
      if (!response.ok || !answer)
        throw new InpsMalformed(`${operation}: risposta non valida (HTTP ${response.status})`);
      return { answer, voucher };
    }
  }

  async function consult<T>(
    service: InpsEService,
    requestBody: string,
    request: InpsRequest,
    read: (xml: XmlElement) => T | null,
  ): Promise<InpsAnswer<T>> {
    const { operation } = service;
    const { answer, voucher } = await exchange(service, envelope(settings, operation, requestBody), request);
    const result = child(answer, `${operation}Result`);
    const esito = text(result, 'Esito') as InpsEsito | undefined;
    if (!result || !esito || !inpsEsiti.includes(esito))
      throw new InpsMalformed(`${operation}: Esito mancante o sconosciuto`);
    const encoded = text(
      result,
      operation === 'ConsultazioneIndicatore' ? 'XmlEsitoIndicatore' : 'XmlEsitoAttestazione',
    );
    return {
      operation,
      idRichiesta: text(result, 'IdRichiesta') ?? null,
      esito,
      descrizioneErrore: text(result, 'DescrizioneErrore') ?? null,
      purposeId: service.purposeId,
      voucherJti: voucher.jti,
      data: esito === 'OK' && encoded ? read(decodeEmbeddedXml(encoded)) : null,
    };
  }

  return {
    settings: { hasIndicator: settings.indicatore !== null, attestationOperation: settings.attestazione.operation },
    attestation: (request) => consult(settings.attestazione, ricercaCf(request), request, readAttestationOrFail),
    indicator: async (request, tipoIndicatore = 'Ordinario') => {
      const service = settings.indicatore;
      if (!service)
        throw new InpsMisconfigured(
          'ConsultazioneIndicatore: nessun e-service dell’indicatore configurato',
          'INPS_PURPOSE_INDICATORE',
        );
      return consult(
        service,
        `<con:TipoIndicatore>${escapeXml(tipoIndicatore)}</con:TipoIndicatore>${ricercaCf(request)}`,
        request,
        (xml) => readIndicator(localName(xml.name) === 'Indicatore' ? xml : (child(xml, 'Indicatore') ?? xml)),
      );
    },
  };
}
