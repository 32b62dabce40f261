import { parseXml, XmlElement } from '@rgrove/parse-xml';
import type {
  InpsAnswer,
  InpsAttestation,
  InpsEsito,
  InpsIndicator,
  InpsOtherIndicator,
  InpsValues,
} from '../domain/inps.ts';
import { inpsEsiti } from '../domain/inps.ts';
import { child, children, childElements, escapeXml, localName, text } from './mypay-soap.ts';
import { decimalToCents } from '../domain/money.ts';
import type { PdndClient, Voucher } from './pdnd.ts';
import type { InpsIsee, InpsRequest } from './ports.ts';

/**
 * INPS's ConsultazioneISEE e-services through PDND (reference.md; the WSDL/XSD v2.8 for PDND in
 * functions/adapters/inps/, as copied in pagopa/idpay-admissibility-assessor): SOAP 1.1 document/literal,
 * namespace http://inps.it/ConsultazioneISEE, SOAPAction http://inps.it/ConsultazioneISEE/ISvcConsultazione/<Operation>,
 * the PDND voucher as `Authorization: Bearer`, the SOAP header `Identity` (http://inps.it/: UserId, CodiceUfficio),
 * and the answer's IdRichiesta, Esito, DescrizioneErrore and base64 XML (http://inps.it/ISEERiforma).
 *
 * The envelope is written here and the answer read with @rgrove/parse-xml (as the MyPay adapter does): the
 * `soap` package would add ~650 KB to the function. Errors by name:
 * - InpsUnavailable: no answer, 5xx, 429 still after waiting as Retry-After says: retry later;
 * - InpsRefused: the voucher refused twice (401/403), a SOAP fault of the client: configuration;
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

export interface InpsSettings {
  /** The e-service's SOAP endpoint (e.g. https://api.inps.it/pdnd/soap/ConsultazioneISEE/v1). */
  endpoint: string;
  /** Identity/UserId: the council's fiscal code. */
  userId: string;
  /** Identity/CodiceUfficio. */
  codiceUfficio: string;
  /** The PDND purposes (finalità) of the two e-services: each has its own voucher. */
  purposes: { attestazione: string; indicatore: string };
  /** The e-services' audience, for the AUDIT_REST_02 token when one is asked for. */
  audience: string;
  /** Send the audit information (AUDIT_REST_02) with every call: only when the e-service asks for it. */
  auditRest02: boolean;
}

export interface InpsAdapterOptions {
  settings: InpsSettings;
  pdnd: Pick<PdndClient, 'voucher' | 'forget' | 'trackingEvidence'>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Per HTTP call (default 15 s). */
  timeoutMs?: number;
  /** 429s waited out (Retry-After) and 5xx/timeouts retried before InpsUnavailable (default 3 and 2). */
  maxRateLimitWaits?: number;
  maxRetries?: number;
  /** How a 429 is waited out before the retry (default: Retry-After's seconds); the refresh jobs' pace slows down (adapters/pacer.ts). */
  waitAfterRateLimit?: (retryAfterMs: number) => Promise<void>;
}

/** RicercaCF's children in the XSD's order. */
const ricercaCf = (request: InpsRequest) =>
  `<con:RicercaCF>` +
  `<con:CodiceFiscale>${escapeXml(request.fiscalCode)}</con:CodiceFiscale>` +
  `<con:DataValidita>${escapeXml(request.dataValidita)}</con:DataValidita>` +
  `<con:PrestazioneDaErogare>${escapeXml(request.benefitCode)}</con:PrestazioneDaErogare>` +
  `<con:ProtocolloDomandaEnteErogatore>${escapeXml(request.applicationNumber)}</con:ProtocolloDomandaEnteErogatore>` +
  `<con:StatodomandaPrestazione>${escapeXml(request.applicationState)}</con:StatodomandaPrestazione>` +
  `</con:RicercaCF>`;

export function envelope(settings: Pick<InpsSettings, 'userId' | 'codiceUfficio'>, operation: string, requestBody: string): string {
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
function personIndicators(block: XmlElement | undefined, personName: string, kind: InpsOtherIndicator['kind']): InpsOtherIndicator[] {
  return children(block, personName).map((person) => {
    const own = childElements(person).find((c) => child(c, 'Valori'));
    const value = attr(person, 'ISEE') ?? attr(child(own, 'Valori'), 'ISEE');
    return { kind, fiscalCode: required(person, 'CodiceFiscale'), iseeCents: value === undefined ? null : cents(value) };
  });
}

/** EsitoAttestazione → the attestation (null when the answer has none). */
export function readAttestation(esito: XmlElement): InpsAttestation | null {
  const attestazione = localName(esito.name) === 'Attestazione' ? esito : child(esito, 'Attestazione');
  if (!attestazione) return null;
  const ordinario = child(attestazione, 'Ordinario');
  const iseeOrdinario = child(ordinario, 'ISEEOrdinario');
  return {
    protocolloDSU: required(attestazione, 'NumeroProtocolloDSU'),
    codiceFiscaleDichiarante: required(attestazione, 'CodiceFiscaleDichiarante'),
    dataPresentazione: day(required(attestazione, 'DataPresentazione')),
    dataValidita: day(required(attestazione, 'DataValidita')),
    dataScadenzaDSUCorrente: attr(attestazione, 'DataScadenzaDSUCorrente') ? day(attr(attestazione, 'DataScadenzaDSUCorrente')!) : null,
    household: children(child(ordinario, 'NucleoFamiliare'), 'ComponenteNucleo').map((member) => ({
      relation: required(member, 'RapportoConDichiarante'),
      lastName: required(member, 'Cognome'),
      firstName: required(member, 'Nome'),
      fiscalCode: required(member, 'CodiceFiscale'),
    })),
    ordinario: iseeOrdinario ? { ...readValues(child(iseeOrdinario, 'Valori')), dataRilascio: day(required(iseeOrdinario, 'DataRilascio')) } : null,
    otherIndicators: [
      ...personIndicators(child(ordinario, 'ISEEMin'), 'ComponenteMinorenne', 'MINORENNI'),
      ...personIndicators(child(ordinario, 'ISEEUni'), 'StudenteUniversitario', 'UNIVERSITARIO'),
      ...personIndicators(child(ordinario, 'ISEESocioSanRes'), 'ComponenteSocioSanitarieRes', 'SOCIOSANITARIO'),
      ...children(attestazione, 'Ridotto').map((ridotto) => {
        const value = attr(child(child(ridotto, 'ISEERistretto'), 'Valori'), 'ISEE');
        return { kind: 'RIDOTTO' as const, fiscalCode: required(ridotto, 'CodiceFiscaleBeneficiario'), iseeCents: value === undefined ? null : cents(value) };
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

export function makeInpsIsee(options: InpsAdapterOptions): InpsIsee {
  const { settings, pdnd } = options;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRateLimitWaits = options.maxRateLimitWaits ?? 3;
  const maxRetries = options.maxRetries ?? 2;

  /** One HTTP exchange, with the waits and retries the transport needs; returns the SOAP answer's first element. */
  async function exchange(operation: string, purposeId: string, body: string, request: InpsRequest): Promise<{ answer: XmlElement; voucher: Voucher }> {
    let rateLimitWaits = 0;
    let failures = 0;
    let refusedVouchers = 0;
    for (;;) {
      const evidence =
        settings.auditRest02 && request.requestedBy
          ? await pdnd.trackingEvidence({ aud: settings.audience, purposeId, userID: request.requestedBy.userID, userLocation: 'portale-servizi-sociali', LoA: request.requestedBy.LoA })
          : undefined;
      const voucher = await pdnd.voucher(purposeId, evidence);
      let response: Response;
      let payload: string;
      try {
        response = await doFetch(settings.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            SOAPAction: `"${soapAction(operation)}"`,
            authorization: `Bearer ${voucher.token}`,
            ...(evidence ? { 'AgID-JWT-TrackingEvidence': evidence.jws } : {}),
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        payload = await response.text();
      } catch (error) {
        if (++failures > maxRetries) {
          const reason = (error as Error).name === 'TimeoutError' ? `nessuna risposta in ${timeoutMs} ms` : (error as Error).message;
          throw new InpsUnavailable(`${operation}: ${reason}`);
        }
        await sleep(500 * 2 ** (failures - 1));
        continue;
      }
      if (response.status === 401 || response.status === 403) {
        // An expired or revoked voucher: ask PDND for a new one, once.
        pdnd.forget(voucher);
        if (++refusedVouchers > 1) throw new InpsRefused(`${operation}: voucher rifiutato (HTTP ${response.status})`);
        continue;
      }
      if (response.status === 429) {
        if (++rateLimitWaits > maxRateLimitWaits) throw new InpsUnavailable(`${operation}: troppe richieste (HTTP 429)`);
        const retryAfter = Number(response.headers.get('retry-after'));
        const waitMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter * 1000, 30_000) : 1000;
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
        if (code === 'Client') throw new InpsRefused(`${operation}: ${message}`);
        if (++failures > maxRetries) throw new InpsUnavailable(`${operation}: ${message}`);
        await sleep(500 * 2 ** (failures - 1));
        continue;
      }
      if (response.status >= 500) {
        if (++failures > maxRetries) throw new InpsUnavailable(`${operation}: HTTP ${response.status}`);
        await sleep(500 * 2 ** (failures - 1));
        continue;
      }
      const answer = soapBody && childElements(soapBody)[0];
      if (!response.ok || !answer) throw new InpsMalformed(`${operation}: risposta non valida (HTTP ${response.status})`);
      return { answer, voucher };
    }
  }

  async function consult<T>(operation: InpsAnswer<T>['operation'], purposeId: string, requestBody: string, request: InpsRequest, read: (xml: XmlElement) => T | null): Promise<InpsAnswer<T>> {
    const { answer, voucher } = await exchange(operation, purposeId, envelope(settings, operation, requestBody), request);
    const result = child(answer, `${operation}Result`);
    const esito = text(result, 'Esito') as InpsEsito | undefined;
    if (!result || !esito || !inpsEsiti.includes(esito)) throw new InpsMalformed(`${operation}: Esito mancante o sconosciuto`);
    const encoded = text(result, operation === 'ConsultazioneAttestazione' ? 'XmlEsitoAttestazione' : 'XmlEsitoIndicatore');
    return {
      operation,
      idRichiesta: text(result, 'IdRichiesta') ?? null,
      esito,
      descrizioneErrore: text(result, 'DescrizioneErrore') ?? null,
      purposeId,
      voucherJti: voucher.jti,
      data: esito === 'OK' && encoded ? read(decodeEmbeddedXml(encoded)) : null,
    };
  }

  return {
    attestation: (request) =>
      consult('ConsultazioneAttestazione', settings.purposes.attestazione, ricercaCf(request), request, (xml) => {
        const attestation = readAttestation(xml);
        if (!attestation) throw new InpsMalformed('EsitoAttestazione senza Attestazione');
        return attestation;
      }),
    indicator: (request, tipoIndicatore = 'Ordinario') =>
      consult('ConsultazioneIndicatore', settings.purposes.indicatore, `<con:TipoIndicatore>${escapeXml(tipoIndicatore)}</con:TipoIndicatore>${ricercaCf(request)}`, request, (xml) =>
        readIndicator(localName(xml.name) === 'Indicatore' ? xml : (child(xml, 'Indicatore') ?? xml)),
      ),
  };
}
