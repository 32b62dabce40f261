import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import * as jose from 'jose';
import { child, childElements, escapeXml, localName, text } from '../../functions/adapters/mypay-soap.ts';
import { DSU_PROTOCOL, INPS_BENEFIT_CODE, INPS_FISCAL_CODE, inpsApplicationStates } from '../../functions/domain/inps.ts';
import { romeDay, romeYear } from '../../functions/domain/period.ts';
import { closeServer, listen, parseJson, readBody } from './pdnd-simulator.ts';
import type { Closable } from './stores.ts';

/**
 * INPS's ConsultazioneISEE e-service for PDND on this machine (`npm start` and the tests), after its WSDL/XSD
 * v2.8 (functions/adapters/inps/, from pagopa/idpay-admissibility-assessor) and reference.md:
 *
 * - `POST /pdnd/soap/ConsultazioneISEE/v1`, SOAP 1.1: SOAPAction …/ISvcConsultazione/ConsultazioneAttestazione or
 *   …/ConsultazioneIndicatore, `Authorization: Bearer <PDND voucher>` (signature by PDND's JWKS, exp, aud = this
 *   e-service, purposeId one of the operation's: 401/403 otherwise), the `Identity` header (UserId,
 *   CodiceUfficio: a Client fault without them), and, when the voucher carries a digest, the
 *   AgID-JWT-TrackingEvidence header whose SHA-256 it must be (AUDIT_REST_02). `?wsdl` serves the WSDL.
 * - The request is checked against the XSD (CodiceFiscaleType, xs:date, PrestazioneDaErogareType,
 *   StatoDomandaPrestazioneType, TipoIndicatoreSinteticoEnum): RICHIESTA_INVALIDA with DescrizioneErrore. A DSU
 *   of a household the fiscal code belongs to, valid on DataValidita: Esito OK with the base64 XML
 *   (EsitoAttestazione / Indicatore, http://inps.it/ISEERiforma, iso-8859-1); none: DATI_NON_TROVATI.
 * - Test citizens (lib/local/inps-simulator.ts TEST_DSUS, README "Test identities"): valid DSUs of this year, one
 *   with omissions, one expired (last year), and no DSU for every other code. `POST /admin/dsu` gives a fiscal
 *   code a DSU (also from the page at `/`), kept in <dataDir>/inps/dsus.json.
 * - Switches: `POST /admin/faults` { kind: 'DATABASE_OFFLINE' | 'ERRORE_INTERNO' | '429' | 'slow' | 'malformed' |
 *   'fault' | '503' | 'voucher-expired', times: n | 'always', ms? }, `POST /admin/rate-limit` { perSecond } (429 with Retry-After
 *   beyond it), `POST /admin/reset` {}, `GET /admin/state`.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const CONTRACT_DIR = path.resolve(here, '../../functions/adapters/inps');
export const INPS_PATH = '/pdnd/soap/ConsultazioneISEE/v1';
const NAMESPACE = 'http://inps.it/ConsultazioneISEE';
const ISEE_NAMESPACE = 'http://inps.it/ISEERiforma';
const OPERATIONS = ['ConsultazioneAttestazione', 'ConsultazioneIndicatore'] as const;
type Operation = (typeof OPERATIONS)[number];
const INDICATORS = ['Ordinario', 'Minorenne', 'Universitario', 'SocioSanitario', 'Dottorato', 'Residenziale'];

export interface SimHouseholdMember {
  relation: string;
  firstName: string;
  lastName: string;
  fiscalCode: string;
}

/** One DSU as the simulator keeps it (amounts in cents). */
export interface SimDsu {
  protocol: string;
  declarant: string;
  household: SimHouseholdMember[];
  presentedOn: string;
  validUntil: string;
  iseeCents: number;
  scala: number;
  omissions: { type: string; fiscalCode: string; checkedOn: string }[];
  minorenni?: { fiscalCode: string; iseeCents: number }[];
}

export interface TestDsuSpec {
  fiscalCode: string;
  firstName: string;
  lastName: string;
  iseeCents: number;
  /** 'valid' (this year), 'omissions' (this year, with an omission), 'expired' (last year). */
  kind: 'valid' | 'omissions' | 'expired';
  members?: number;
}

/**
 * The test citizens (README "Test identities"): the demo citizens and the sign-in identities. Every other
 * fiscal code has no DSU until one is given (`POST /admin/dsu`).
 */
export const TEST_DSUS: TestDsuSpec[] = [
  { fiscalCode: 'RSSMRA85C52H501N', firstName: 'MARIA', lastName: 'ROSSI', iseeCents: 845_032, kind: 'valid', members: 3 },
  { fiscalCode: 'VRDGPP90P07F839R', firstName: 'GIUSEPPE', lastName: 'VERDI', iseeCents: 1_125_040, kind: 'valid', members: 2 },
  { fiscalCode: 'FRRLCU75E15F205M', firstName: 'LUCA', lastName: 'FERRARI', iseeCents: 1_523_050, kind: 'valid', members: 1 },
  { fiscalCode: 'CLMGLI92T48L219U', firstName: 'GIULIA', lastName: 'COLOMBO', iseeCents: 489_000, kind: 'valid', members: 2 },
  { fiscalCode: 'GRCPLA70A01F205T', firstName: 'PAOLO', lastName: 'GRECO', iseeCents: 980_000, kind: 'valid', members: 2 },
  { fiscalCode: 'RCCMRC60A01H501V', firstName: 'MARCO', lastName: 'RICCI', iseeCents: 730_000, kind: 'omissions', members: 1 },
  { fiscalCode: 'BRNNNA88M41F839L', firstName: 'ANNA', lastName: 'BRUNO', iseeCents: 1_210_000, kind: 'expired', members: 2 },
  { fiscalCode: 'NRECHR88E45F205C', firstName: 'CHIARA', lastName: 'NERI', iseeCents: 678_015, kind: 'valid', members: 3 },
];

/** The equivalence scale of a household of n (DPCM 159/2013, Allegato 1). */
const SCALES = [1, 1, 1.57, 2.04, 2.46, 2.85];
const scaleOf = (members: number) => SCALES[Math.min(members, 5)] + Math.max(0, members - 5) * 0.35;

/** A deterministic DSU protocol for a fiscal code and year. */
export function dsuProtocol(fiscalCode: string, year: number, salt = ''): string {
  const digest = createHash('sha256').update(`${fiscalCode}${year}${salt}`).digest();
  const digits = String(digest.readUInt32BE(0) % 100_000_000).padStart(8, '0');
  return `INPS-ISEE-${year}-${digits}${String.fromCharCode(65 + (digest[4] % 26))}-00`;
}

/** A DSU for a spec, dated in `year` (presented 15 January, released 20 January, valid until 31 December). */
export function makeDsu(spec: TestDsuSpec, year: number): SimDsu {
  const dsuYear = spec.kind === 'expired' ? year - 1 : year;
  const members = Math.max(1, spec.members ?? 1);
  const household: SimHouseholdMember[] = [{ relation: 'D', firstName: spec.firstName.toUpperCase(), lastName: spec.lastName.toUpperCase(), fiscalCode: spec.fiscalCode }];
  for (let i = 1; i < members; i++) {
    // Members of the test households: codes of the same shape, never a real person's.
    household.push({ relation: i === 1 ? 'C' : 'F', firstName: `COMPONENTE ${i}`, lastName: spec.lastName.toUpperCase(), fiscalCode: `${spec.fiscalCode.slice(0, 11)}X${String(i).padStart(3, '0')}Z` });
  }
  return {
    protocol: dsuProtocol(spec.fiscalCode, dsuYear),
    declarant: spec.fiscalCode,
    household,
    presentedOn: `${dsuYear}-01-15`,
    validUntil: `${dsuYear}-12-31`,
    iseeCents: spec.iseeCents,
    scala: scaleOf(members),
    omissions: spec.kind === 'omissions' ? [{ type: 'PatrimoniMobiliari', fiscalCode: spec.fiscalCode, checkedOn: `${dsuYear}-01-18` }] : [],
  };
}

const amount = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** ISE, ISR, ISP coherent with the ISEE and the scale (ISEE = ISE / scala; ISE = ISR + 20% ISP). */
export function valuesOf(dsu: Pick<SimDsu, 'iseeCents' | 'scala'>) {
  const ise = Math.round(dsu.iseeCents * dsu.scala);
  const isp = Math.round(ise * 0.5);
  const isr = ise - Math.round(isp * 0.2);
  const isee = Math.round(ise / dsu.scala);
  return { ISE: amount(ise), ScalaEquivalenza: dsu.scala.toFixed(2), ISEE: amount(isee), ISR: amount(isr), ISP: amount(isp) };
}

const attributes = (values: Record<string, string | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(v!)}"`)
    .join('');

const ricercaCfXml = (ricerca: Record<string, string | undefined>) => `<RicercaCF${attributes(ricerca)}/>`;

/** The EsitoAttestazione document (ISEE_EsitoConsultazioneAttestazione.xsd, ISEE_Attestazione.xsd). */
export function attestationXml(dsu: SimDsu, ricerca: Record<string, string | undefined>): string {
  const values = valuesOf(dsu);
  const modalita = `<ModalitaCalcoloISEEOrdinario SommaRedditiComponenti="${values.ISR}" RedditoFigurativoPatrimonioMobiliare="0.00" Detrazioni="0.00" ISR="${values.ISR}" PatrimonioMobiliare="${values.ISP}" DetrazionePatrimonioMobiliare="0.00" PatrimonioImmobiliare="0.00" DetrazionePatrimonioImmobiliare="0.00" ISP="${values.ISP}" ISE="${values.ISE}" ParametroNucleo="${values.ScalaEquivalenza}" Maggiorazioni="0.00" ScalaEquivalenza="${values.ScalaEquivalenza}"/>`;
  const household = dsu.household
    .map((m) => `<ComponenteNucleo${attributes({ RapportoConDichiarante: m.relation, Cognome: m.lastName, Nome: m.firstName, CodiceFiscale: m.fiscalCode })}/>`)
    .join('');
  const minorenni = dsu.minorenni?.length
    ? `<ISEEMin>${dsu.minorenni.map((m) => `<ComponenteMinorenne${attributes({ Cognome: 'MINORE', Nome: 'COMPONENTE', CodiceFiscale: m.fiscalCode, ISEE: amount(m.iseeCents) })}><ISEEOrd/></ComponenteMinorenne>`).join('')}</ISEEMin>`
    : '';
  const omissions = dsu.omissions
    .map((o) => `<OmissioneDifformita${attributes({ TipoOmissioneDifformita: o.type, CodiceFiscale: o.fiscalCode, DataControlloAE: o.checkedOn })}/>`)
    .join('');
  return (
    `<?xml version="1.0" encoding="iso-8859-1"?><EsitoAttestazione xmlns="${ISEE_NAMESPACE}">` +
    `<Attestazione${attributes({ CodiceFiscaleDichiarante: dsu.declarant, NumeroProtocolloDSU: dsu.protocol, DataPresentazione: dsu.presentedOn, DataValidita: dsu.validUntil })}>` +
    `<Ordinario><NucleoFamiliare>${household}</NucleoFamiliare>` +
    `<ISEEOrdinario DataRilascio="${dsu.presentedOn.slice(0, 8)}20"><Valori${attributes(values)}/>${modalita}</ISEEOrdinario>${minorenni}</Ordinario>` +
    omissions +
    `</Attestazione><Ricerca>${ricercaCfXml(ricerca)}</Ricerca></EsitoAttestazione>`
  );
}

/** The Indicatore document (ISEE_EsitoConsultazioneIndicatore.xsd). */
export function indicatorXml(dsu: SimDsu, tipo: string, ricerca: Record<string, string | undefined>): string {
  return (
    `<?xml version="1.0" encoding="iso-8859-1"?><Indicatore xmlns="${ISEE_NAMESPACE}"${attributes({ TipoIndicatore: tipo, ...valuesOf(dsu), ProtocolloDSU: dsu.protocol, DataPresentazione: dsu.presentedOn })}>` +
    `${ricercaCfXml(ricerca)}</Indicatore>`
  );
}

export interface InpsSimulatorOptions {
  port: number;
  host?: string;
  dataDir?: string;
  /** PDND's JWKS (vouchers are checked with it) and issuer. */
  pdnd: { jwksUrl: string; issuer: string };
  /** This e-service's audience (the voucher's aud). */
  audience: string;
  /** The purposes allowed to call each operation. */
  purposes: { attestazione: string; indicatore: string };
  /** Requests per second before 429 (default 50). */
  perSecond?: number;
  /** Today (tests move it). */
  today?: () => Date;
}

export interface InpsSimulator extends Closable {
  url: string;
  endpoint: string;
  stats(): { requests: number; rateLimited: number; byEsito: Record<string, number>; unauthorized: number };
}

/** 'voucher-expired': a 401 as for a voucher past its exp (the client must ask PDND for a new one). */
type FaultKind = 'DATABASE_OFFLINE' | 'ERRORE_INTERNO' | '429' | 'slow' | 'malformed' | 'fault' | '503' | 'voucher-expired';
const FAULT_KINDS: FaultKind[] = ['DATABASE_OFFLINE', 'ERRORE_INTERNO', '429', 'slow', 'malformed', 'fault', '503', 'voucher-expired'];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (value: string | undefined) => !!value && ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export async function startInpsSimulator(options: InpsSimulatorOptions): Promise<InpsSimulator> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  const today = options.today ?? (() => new Date());
  const jwks = jose.createRemoteJWKSet(new URL(options.pdnd.jwksUrl));
  const store = options.dataDir ? path.join(options.dataDir, 'inps', 'dsus.json') : null;
  let added: SimDsu[] = store && fs.existsSync(store) ? JSON.parse(fs.readFileSync(store, 'utf8')) : [];
  let perSecond = options.perSecond ?? 50;
  let faults: { kind: FaultKind; remaining: number | null; ms?: number }[] = [];
  let bucket = { tokens: perSecond, at: Date.now() };
  let lastId = 100_000;
  const counts = { requests: 0, rateLimited: 0, unauthorized: 0, byEsito: {} as Record<string, number> };

  const save = () => {
    if (!store) return;
    fs.mkdirSync(path.dirname(store), { recursive: true });
    fs.writeFileSync(store, JSON.stringify(added, null, 2));
  };
  /** Every DSU the simulator holds now: the test citizens' (dated on this year) and those given by hand. */
  const dsus = (): SimDsu[] => [...added, ...TEST_DSUS.map((spec) => makeDsu(spec, romeYear(today())))];
  /** The newest DSU of a household the code belongs to, valid on the day. */
  const dsuFor = (fiscalCode: string, day: string) =>
    dsus()
      .filter((d) => d.household.some((m) => m.fiscalCode === fiscalCode) && d.presentedOn <= day && day <= d.validUntil)
      .sort((a, b) => b.presentedOn.localeCompare(a.presentedOn))[0] ?? null;

  const takeFault = () => {
    const rule = faults[0];
    if (!rule) return null;
    if (rule.remaining !== null) rule.remaining -= 1;
    faults = faults.filter((f) => f.remaining === null || f.remaining > 0);
    return rule;
  };
  /** A token bucket of `perSecond` tokens refilled continuously: false when empty (429). */
  const takeToken = () => {
    const now = Date.now();
    bucket = { tokens: Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond), at: now };
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };

  const xml = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(body);
  };
  const soapFault = (res: ServerResponse, code: 'Client' | 'Server', message: string) =>
    xml(
      res,
      500,
      `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:${code}</faultcode><faultstring xml:lang="it-IT">${escapeXml(message)}</faultstring></s:Fault></s:Body></s:Envelope>`,
    );
  const answer = (res: ServerResponse, operation: Operation, esito: string, fields: { descrizione?: string; base64?: string }) => {
    counts.byEsito[esito] = (counts.byEsito[esito] ?? 0) + 1;
    const resultField = operation === 'ConsultazioneAttestazione' ? 'XmlEsitoAttestazione' : 'XmlEsitoIndicatore';
    xml(
      res,
      200,
      `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
        `<${operation}Response xmlns="${NAMESPACE}"><${operation}Result>` +
        `<IdRichiesta>${++lastId}</IdRichiesta><Esito>${esito}</Esito>` +
        (fields.descrizione ? `<DescrizioneErrore>${escapeXml(fields.descrizione)}</DescrizioneErrore>` : '') +
        (fields.base64 ? `<${resultField}>${fields.base64}</${resultField}>` : '') +
        `</${operation}Result></${operation}Response></s:Body></s:Envelope>`,
    );
  };

  /** The voucher: PDND's signature and expiry, this e-service's audience, a purpose allowed for the operation. */
  async function voucherProblem(req: IncomingMessage, operation: Operation): Promise<{ status: 401 | 403; reason: string } | null> {
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(authorization)?.[1];
    if (!token) return { status: 401, reason: 'voucher mancante' };
    let payload: jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, jwks, { issuer: options.pdnd.issuer, audience: options.audience, algorithms: ['RS256'], typ: 'at+jwt' }));
    } catch (error) {
      return { status: 401, reason: `voucher non valido: ${(error as Error).message}` };
    }
    const allowed = operation === 'ConsultazioneAttestazione' ? options.purposes.attestazione : options.purposes.indicatore;
    if ((payload as Record<string, unknown>).purposeId !== allowed) return { status: 403, reason: 'finalità non abilitata a questa operazione' };
    const digest = (payload as Record<string, any>).digest?.value as string | undefined;
    const evidence = req.headers['agid-jwt-trackingevidence'];
    if (digest || evidence) {
      if (typeof evidence !== 'string' || !digest || createHash('sha256').update(evidence, 'ascii').digest('hex') !== digest) {
        return { status: 403, reason: 'AgID-JWT-TrackingEvidence non corrisponde al digest del voucher' };
      }
    }
    return null;
  }

  async function consult(req: IncomingMessage, res: ServerResponse) {
    counts.requests += 1;
    if (!takeToken()) {
      counts.rateLimited += 1;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Too Many Requests');
    }
    const fault = takeFault();
    if (fault?.kind === '429') {
      counts.rateLimited += 1;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Too Many Requests');
    }
    if (fault?.kind === '503') {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Service Unavailable');
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms ?? 3000));
    const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
    const operation = OPERATIONS.find((op) => action === `${NAMESPACE}/ISvcConsultazione/${op}`);
    const body = await readBody(req);
    if (!operation) return soapFault(res, 'Client', `SOAPAction non riconosciuta: ${action || '(assente)'}`);
    const refused = fault?.kind === 'voucher-expired' ? { status: 401 as const, reason: 'voucher scaduto' } : await voucherProblem(req, operation);
    if (refused) {
      counts.unauthorized += 1;
      res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' });
      return res.end(refused.reason);
    }
    if (fault?.kind === 'fault') return soapFault(res, 'Server', 'Servizio temporaneamente non disponibile');
    let envelope: XmlElement | undefined;
    try {
      envelope = parseXml(body).root ?? undefined;
    } catch {
      return soapFault(res, 'Client', 'Il messaggio non è XML ben formato');
    }
    const identity = child(child(envelope, 'Header'), 'Identity');
    if (!text(identity, 'UserId') || !text(identity, 'CodiceUfficio')) return soapFault(res, 'Client', 'Intestazione Identity mancante o incompleta (UserId, CodiceUfficio)');
    const call = childElements(child(envelope, 'Body') ?? new XmlElement('Body'))[0];
    if (!call || localName(call.name) !== operation) return soapFault(res, 'Client', `Il corpo non è ${operation}`);
    if (fault?.kind === 'DATABASE_OFFLINE' || fault?.kind === 'ERRORE_INTERNO') return answer(res, operation, fault.kind, { descrizione: fault.kind === 'DATABASE_OFFLINE' ? 'Banca dati non disponibile' : 'Errore interno' });
    const request = child(call, 'request');
    const ricerca = child(request, 'RicercaCF');
    const fields = {
      CodiceFiscale: text(ricerca, 'CodiceFiscale'),
      DataValidita: text(ricerca, 'DataValidita'),
      PrestazioneDaErogare: text(ricerca, 'PrestazioneDaErogare'),
      ProtocolloDomandaEnteErogatore: text(ricerca, 'ProtocolloDomandaEnteErogatore'),
      StatodomandaPrestazione: text(ricerca, 'StatodomandaPrestazione'),
    };
    const tipo = text(request, 'TipoIndicatore');
    const invalid =
      !ricerca ? 'RicercaCF mancante'
      : !fields.CodiceFiscale || !INPS_FISCAL_CODE.test(fields.CodiceFiscale) ? 'CodiceFiscale non valido'
      : fields.DataValidita !== undefined && !validDay(fields.DataValidita) ? 'DataValidita non valida'
      : fields.PrestazioneDaErogare !== undefined && !INPS_BENEFIT_CODE.test(fields.PrestazioneDaErogare) ? 'PrestazioneDaErogare non valida'
      : fields.ProtocolloDomandaEnteErogatore !== undefined && fields.ProtocolloDomandaEnteErogatore.length > 256 ? 'ProtocolloDomandaEnteErogatore troppo lungo'
      : fields.StatodomandaPrestazione !== undefined && !(inpsApplicationStates as readonly string[]).includes(fields.StatodomandaPrestazione) ? 'StatodomandaPrestazione non valido'
      : operation === 'ConsultazioneIndicatore' && (!tipo || !INDICATORS.includes(tipo)) ? 'TipoIndicatore non valido'
      : null;
    if (invalid) return answer(res, operation, 'RICHIESTA_INVALIDA', { descrizione: invalid });
    const day = fields.DataValidita ?? romeDay(today());
    const dsu = dsuFor(fields.CodiceFiscale!, day);
    if (!dsu) return answer(res, operation, 'DATI_NON_TROVATI', { descrizione: 'Nessuna DSU valida per il codice fiscale alla data indicata' });
    const document = operation === 'ConsultazioneAttestazione' ? attestationXml(dsu, fields) : indicatorXml(dsu, tipo!, fields);
    const base64 = fault?.kind === 'malformed' ? Buffer.from('<Attestazione NumeroProtocolloDSU=').toString('base64') : iso88591(document).toString('base64');
    return answer(res, operation, 'OK', { base64 });
  }

  /** The answer as INPS writes it, iso-8859-1: a character outside Latin-1 (Ł, Ș, €) as a character reference, not a wrong byte. */
  const iso88591 = (xml: string) => Buffer.from(xml.replace(/[^\u0000-\u00ff]/gu, (c) => `&#${c.codePointAt(0)};`), 'latin1');

  /** Gives a fiscal code a DSU (replacing the ones given before for that code). */
  function addDsu(body: Record<string, any>): string | null {
    const fiscalCode = String(body.fiscalCode ?? '').toUpperCase();
    if (!INPS_FISCAL_CODE.test(fiscalCode)) return 'fiscalCode: codice fiscale non valido';
    const value = Number(body.value);
    if (!Number.isFinite(value) || value < 0 || Math.round(value * 100) !== Math.round(value * 100 * 1e6) / 1e6) return 'value: importo in euro, al massimo due decimali';
    const year = body.year === undefined ? romeYear(today()) : Number(body.year);
    if (!Number.isInteger(year) || year < 2015 || year > 2100) return 'year: anno di presentazione';
    const members = body.members === undefined ? 1 : Number(body.members);
    if (!Number.isInteger(members) || members < 1 || members > 12) return 'members: da 1 a 12';
    const dsu = makeDsu(
      { fiscalCode, firstName: String(body.firstName ?? 'NOME'), lastName: String(body.lastName ?? 'COGNOME'), iseeCents: Math.round(value * 100), kind: body.omissions ? 'omissions' : 'valid', members },
      year,
    );
    if (body.protocol !== undefined) {
      if (!DSU_PROTOCOL.test(String(body.protocol))) return 'protocol: INPS-ISEE-AAAA-NNNNNNNNL-NN';
      dsu.protocol = String(body.protocol);
    } else {
      dsu.protocol = dsuProtocol(fiscalCode, year, String(added.length + Date.now()));
    }
    if (typeof body.presentedOn === 'string' && validDay(body.presentedOn)) dsu.presentedOn = body.presentedOn;
    added = [dsu, ...added.filter((d) => d.declarant !== fiscalCode)];
    save();
    return null;
  }

  async function admin(pathname: string, req: IncomingMessage, res: ServerResponse) {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && pathname === '/admin/state') return json(200, { ...counts, perSecond, faults, dsus: dsus() });
    const raw = await readBody(req);
    const form = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const body = form ? Object.fromEntries(new URLSearchParams(raw)) : parseJson(raw);
    if (!body) return json(400, { detail: 'JSON non valido' });
    const done = () => (form ? (res.writeHead(303, { location: '/' }), res.end()) : json(200, { ok: true }));
    if (pathname === '/admin/dsu' && req.method === 'POST') {
      const problem = addDsu({ ...body, omissions: body.omissions === true || body.omissions === 'on' });
      return problem ? json(400, { detail: problem }) : done();
    }
    if (pathname === '/admin/dsu/delete' && req.method === 'POST') {
      const fiscalCode = String(body.fiscalCode ?? '').toUpperCase();
      added = added.filter((d) => d.declarant !== fiscalCode);
      save();
      return done();
    }
    if (pathname === '/admin/faults') {
      const times = body.times === undefined ? 1 : body.times === 'always' ? 'always' : Number(body.times);
      if (!FAULT_KINDS.includes(body.kind) || !(times === 'always' || (Number.isInteger(times) && times > 0))) {
        return json(400, { detail: `{ kind: ${FAULT_KINDS.join(' | ')}, times: n | always, ms? }` });
      }
      faults.push({ kind: body.kind, remaining: times === 'always' ? null : (times as number), ms: body.ms === undefined ? undefined : Number(body.ms) });
      return done();
    }
    if (pathname === '/admin/rate-limit') {
      const value = Number(body.perSecond);
      if (!(value > 0)) return json(400, { detail: '{ perSecond }' });
      perSecond = value;
      bucket = { tokens: value, at: Date.now() };
      return done();
    }
    if (pathname === '/admin/reset') {
      faults = [];
      perSecond = options.perSecond ?? 50;
      bucket = { tokens: perSecond, at: Date.now() };
      if (body.counts === true || body.counts === 'on') Object.assign(counts, { requests: 0, rateLimited: 0, unauthorized: 0, byEsito: {} });
      if (body.dsus === true) {
        added = [];
        save();
      }
      return done();
    }
    return json(404, { detail: pathname });
  }

  function page(res: ServerResponse) {
    const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const rows = dsus()
      .map(
        (d) =>
          `<tr><td>${escape(d.declarant)}</td><td>${escape(d.household[0]?.lastName ?? '')} ${escape(d.household[0]?.firstName ?? '')}</td><td>${escape(d.protocol)}</td>` +
          `<td>${escape(amount(d.iseeCents))}</td><td>${escape(d.presentedOn)}</td><td>${escape(d.validUntil)}</td><td>${d.omissions.length ? 'sì' : 'no'}</td></tr>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Simulatore INPS ConsultazioneISEE</title></head><body><main>` +
        `<h1>Simulatore INPS ConsultazioneISEE (PDND)</h1><p>Endpoint SOAP: <code>${escape(url + INPS_PATH)}</code> (<a href="${INPS_PATH}?wsdl">WSDL</a>). Richieste: ${counts.requests}, 429: ${counts.rateLimited}, voucher rifiutati: ${counts.unauthorized}.</p>` +
        `<h2>Dai una DSU a un codice fiscale</h2><form method="post" action="/admin/dsu">` +
        `<p><label>Codice fiscale <input name="fiscalCode" required></label> <label>Cognome <input name="lastName"></label> <label>Nome <input name="firstName"></label></p>` +
        `<p><label>ISEE (euro, punto decimale) <input name="value" required></label> <label>Anno di presentazione <input name="year"></label> <label>Componenti <input name="members" value="1"></label> <label><input type="checkbox" name="omissions"> con omissioni</label></p>` +
        `<p><button>Registra la DSU</button></p></form>` +
        `<h2>Interruttori</h2><form method="post" action="/admin/faults"><p><label>Guasto <select name="kind">${FAULT_KINDS.map((k) => `<option>${k}</option>`).join('')}</select></label> <label>Volte <input name="times" value="1"></label> <label>Ritardo (ms, per slow) <input name="ms" value="3000"></label> <button>Attiva</button></p></form>` +
        `<form method="post" action="/admin/rate-limit"><p><label>Richieste al secondo <input name="perSecond" value="${perSecond}"></label> <button>Imposta</button></p></form>` +
        `<form method="post" action="/admin/reset"><p><button>Spegni gli interruttori</button></p></form>` +
        `<table><caption>DSU valide o scadute</caption><thead><tr><th scope="col">Dichiarante</th><th scope="col">Nome</th><th scope="col">Protocollo</th><th scope="col">ISEE</th><th scope="col">Presentata</th><th scope="col">Valida fino al</th><th scope="col">Omissioni</th></tr></thead><tbody>${rows}</tbody></table>` +
        `</main></body></html>`,
    );
  }

  const wsdl = () => fs.readFileSync(path.join(CONTRACT_DIR, 'ConsultazioneISEE_v2.8_PDND.wsdl'), 'utf8').replace(/location="[^"]*"/, `location="${url}${INPS_PATH}"`);

  const server = http.createServer((req, res) => {
    const { pathname, searchParams } = new URL(req.url ?? '/', url);
    const handle = async () => {
      if (pathname === INPS_PATH && req.method === 'GET' && searchParams.has('wsdl')) return xml(res, 200, wsdl());
      if (req.method === 'GET' && /^\/pdnd\/soap\/ConsultazioneISEE\/[\w.]+\.xsd$/.test(pathname)) {
        const file = path.join(CONTRACT_DIR, path.basename(pathname));
        return fs.existsSync(file) ? xml(res, 200, fs.readFileSync(file, 'latin1')) : xml(res, 404, '');
      }
      if (pathname === INPS_PATH && req.method === 'POST') return consult(req, res);
      if (pathname.startsWith('/admin/')) return admin(pathname, req, res);
      if (pathname === '/' && req.method === 'GET') return page(res);
      res.writeHead(404);
      res.end();
    };
    handle().catch(() => {
      if (!res.headersSent) soapFault(res, 'Server', 'Errore del simulatore');
      else res.end();
    });
  });
  await listen(server, options.port, host);
  return { url, endpoint: `${url}${INPS_PATH}`, stats: () => structuredClone(counts), close: () => closeServer(server) };
}
