import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import * as jose from 'jose';
import { child, childElements, escapeXml, localName, text } from '../../functions/adapters/mypay-soap.ts';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { DSU_PROTOCOL, INPS_FISCAL_CODE, inpsOperationPaths } from '../../functions/domain/inps.ts';
import { romeDay, romeYear } from '../../functions/domain/period.ts';
import { closeServer, listen, parseJson, readBody } from './pdnd-simulator.ts';
import type { Closable } from './stores.ts';

/**
 * INPS's ConsultazioneISEE e-services for PDND on this machine (`npm start` and the tests), after their
 * WSDL/XSD v2.8 (functions/adapters/inps/, from pagopa/idpay-admissibility-assessor), the residents' e-service as
 * the one public municipal client calls it (lsantalu/OpenMSP OpenMSP/inps.py, update/update_to_1.3.sh) and
 * reference.md. Each e-service has its own endpoint, voucher audience and purposes, and answers only its own
 * operations:
 *
 * - "Consultazione Attestazione Residenti ISEE": `POST /pdnd/soap/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti`,
 *   SOAPAction …/ISvcConsultazione/ConsultazioneAttestazioneResidenti, the request and answer of
 *   ConsultazioneAttestazione under the operation's own name (…Response/…Result with XmlEsitoAttestazione);
 * - ConsultazioneISEE v1 (the WSDL v2.8 for PDND): `POST /pdnd/soap/ConsultazioneISEE/v1`, ConsultazioneAttestazione
 *   and ConsultazioneIndicatore.
 *
 * A SOAPAction the e-service does not have gets WCF's ActionNotSupported fault (HTTP 500, faultcode
 * a:ActionNotSupported, "… ContractFilter mismatch at the EndpointDispatcher …"), as INPS's WCF service gives it.
 * Before that the gateway checks `Authorization: Bearer <PDND voucher>` (PDND's JWKS, exp, aud = this e-service's
 * audience: 401 otherwise; purposeId one of the e-service's: 403), the client certificate when `tls.requireClientCertificate`
 * (403 without an accepted one), and, when the voucher carries a digest, the AgID-JWT-TrackingEvidence header
 * whose SHA-256 it must be (AUDIT_REST_02). The SOAP `Identity` header (UserId, CodiceUfficio) and the HTTP headers
 * INPS-Identity-UserId and INPS-Identity-CodiceUfficio that municipal clients send with it must be there and agree
 * (a Client fault otherwise: the simulator's reading of OpenMSP, which sends both on every INPS e-service).
 * The request is validated against ConsultazioneISEE_v2.8_PDND.xsd with libxml2 (RICHIESTA_INVALIDA with the
 * schema's complaint). A DSU of a household the fiscal code belongs to, valid on DataValidita: Esito OK with the
 * base64 XML (EsitoAttestazione / Indicatore, http://inps.it/ISEERiforma, iso-8859-1, valid against
 * ISEE_EsitoConsultazioneAttestazione.xsd); none: DATI_NON_TROVATI. `?wsdl` serves the WSDL.
 * - Test citizens (TEST_DSUS, README "INPS and PDND simulators"): valid DSUs of this year, one with omissions,
 *   one expired (last year), one ISEE corrente (expired or current as `kind` says), one with university,
 *   social-health, reduced and changed (Variazione) indicators, and no DSU for every other code. `POST /admin/dsu`
 *   gives a fiscal code a DSU (also from the page at `/`), kept in <dataDir>/inps/dsus.json.
 * - Switches: `POST /admin/faults` { kind: 'DATABASE_OFFLINE' | 'ERRORE_INTERNO' | '429' | '429-daily' | 'slow' | 'malformed' |
 *   'fault' | '503' | 'voucher-expired', times: n | 'always', ms? } ('429-daily': a 429 without Retry-After, as INPS's
 *   daily limit), `POST /admin/rate-limit` { perSecond } (429 with Retry-After beyond it), `POST /admin/reset` {},
 *   `GET /admin/state` (with `lastQueries`: per fiscal code, the operation, PrestazioneDaErogare, application number
 *   and state of the last valid query, so a test sees which benefit code reached INPS).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const CONTRACT_DIR = path.resolve(here, '../../functions/adapters/inps');
export const INPS_PATH = inpsOperationPaths.ConsultazioneAttestazione;
export const RESIDENTI_PATH = inpsOperationPaths.ConsultazioneAttestazioneResidenti;
const NAMESPACE = 'http://inps.it/ConsultazioneISEE';
const ISEE_NAMESPACE = 'http://inps.it/ISEERiforma';
const OPERATIONS = [
  'ConsultazioneAttestazioneResidenti',
  'ConsultazioneAttestazione',
  'ConsultazioneIndicatore',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** One e-service the simulator is: its endpoint path, its vouchers' audience, and the purpose allowed for each operation. */
export interface SimEService {
  path: string;
  audience: string;
  operations: Partial<Record<Operation, string>>;
}

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
  /** Ordinario/@Corrente="SI": the ordinary ISEE (iseeCents) is an ISEE corrente, on its modulo sostitutivo. */
  corrente?: { protocol: string; presentedOn: string; expiresOn: string; ordinaryIseeCents: number };
  /** ISEEUni/StudenteUniversitario (ISEEUniAgg), ISEESocioSanRes/ComponenteSocioSanitarieRes (ISEESocioSanRes). */
  universitario?: { fiscalCode: string; iseeCents: number }[];
  sociosanitario?: { fiscalCode: string; iseeCents: number }[];
  /** Ridotto: the reduced household of a beneficiary (ISEERistretto). */
  ridotto?: { beneficiary: string; iseeCents: number }[];
  /** Variazione: the DSU changed (Contestazione, Ricalcolo, Integrazione), with its discrepancies. */
  variazione?: {
    type: 'Contestazione' | 'Ricalcolo' | 'Integrazione';
    discrepancies: { fiscalCode: string; type: string; detail: string }[];
  };
}

export interface TestDsuSpec {
  fiscalCode: string;
  firstName: string;
  lastName: string;
  iseeCents: number;
  /**
   * 'valid' (this year), 'omissions' (this year, with an omission), 'expired' (last year); 'corrente' (this year's
   * DSU with an ISEE corrente that expires `correnteMonths` after its modulo of 1 March; negative months: already
   * expired); 'indicators' (university, social-health, reduced and changed, on a household of 3 or more).
   */
  kind: 'valid' | 'omissions' | 'expired' | 'corrente' | 'indicators';
  members?: number;
  correnteMonths?: number;
}

/**
 * The test citizens (README "Test identities"): the demo citizens and the sign-in identities. Every other
 * fiscal code has no DSU until one is given (`POST /admin/dsu`).
 */
export const TEST_DSUS: TestDsuSpec[] = [
  {
    fiscalCode: 'RSSMRA85C52H501N',
    firstName: 'MARIA',
    lastName: 'ROSSI',
    iseeCents: 845_032,
    kind: 'valid',
    members: 3,
  },
  {
    fiscalCode: 'VRDGPP90P07F839R',
    firstName: 'GIUSEPPE',
    lastName: 'VERDI',
    iseeCents: 1_125_040,
    kind: 'valid',
    members: 2,
  },
  {
    fiscalCode: 'FRRLCU75E15F205M',
    firstName: 'LUCA',
    lastName: 'FERRARI',
    iseeCents: 1_523_050,
    kind: 'valid',
    members: 1,
  },
  {
    fiscalCode: 'CLMGLI92T48L219U',
    firstName: 'GIULIA',
    lastName: 'COLOMBO',
    iseeCents: 489_000,
    kind: 'valid',
    members: 2,
  },
  {
    fiscalCode: 'GRCPLA70A01F205T',
    firstName: 'PAOLO',
    lastName: 'GRECO',
    iseeCents: 980_000,
    kind: 'valid',
    members: 2,
  },
  {
    fiscalCode: 'RCCMRC60A01H501V',
    firstName: 'MARCO',
    lastName: 'RICCI',
    iseeCents: 730_000,
    kind: 'omissions',
    members: 1,
  },
  {
    fiscalCode: 'BRNNNA88M41F839L',
    firstName: 'ANNA',
    lastName: 'BRUNO',
    iseeCents: 1_210_000,
    kind: 'expired',
    members: 2,
  },
  {
    fiscalCode: 'NRECHR88E45F205C',
    firstName: 'CHIARA',
    lastName: 'NERI',
    iseeCents: 678_015,
    kind: 'valid',
    members: 3,
  },
  // Not portal users: their ISEE is asked by the tests and from the simulator's page.
  {
    fiscalCode: 'BNCGNN80A01H501T',
    firstName: 'GIOVANNI',
    lastName: 'BIANCHI',
    iseeCents: 512_000,
    kind: 'corrente',
    members: 2,
    correnteMonths: 6,
  },
  {
    fiscalCode: 'MRNLSE85M50F205X',
    firstName: 'ELISA',
    lastName: 'MARINO',
    iseeCents: 1_850_000,
    kind: 'indicators',
    members: 3,
  },
];

/** The other members' first names (TypeNome: capitals, accented vowels, apostrophe, blank and hyphen only). */
const MEMBER_NAMES = [
  'LUCA',
  'SARA',
  'PIETRO',
  'ELENA',
  'DAVIDE',
  'MARTA',
  'LUIGI',
  'ANNA',
  'PAOLO',
  'GIULIA',
  'MARCO',
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
  const household: SimHouseholdMember[] = [
    {
      relation: 'D',
      firstName: spec.firstName.toUpperCase(),
      lastName: spec.lastName.toUpperCase(),
      fiscalCode: spec.fiscalCode,
    },
  ];
  for (let i = 1; i < members; i++) {
    // Members of the test households: codes of the same shape, never a real person's.
    household.push({
      relation: i === 1 ? 'C' : 'F',
      firstName: MEMBER_NAMES[(i - 1) % MEMBER_NAMES.length],
      lastName: spec.lastName.toUpperCase(),
      fiscalCode: `${spec.fiscalCode.slice(0, 11)}X${String(i).padStart(3, '0')}Z`,
    });
  }
  const dsu: SimDsu = {
    protocol: dsuProtocol(spec.fiscalCode, dsuYear),
    declarant: spec.fiscalCode,
    household,
    presentedOn: `${dsuYear}-01-15`,
    validUntil: `${dsuYear}-12-31`,
    iseeCents: spec.iseeCents,
    scala: scaleOf(members),
    omissions:
      spec.kind === 'omissions'
        ? [{ type: 'PatrimoniMobiliari', fiscalCode: spec.fiscalCode, checkedOn: `${dsuYear}-01-18` }]
        : [],
  };
  if (spec.kind === 'corrente') {
    // The modulo sostitutivo of 1 March: its ISEE corrente lasts six months (DPCM 159/2013 art. 9, as amended), until 31 August.
    const months = spec.correnteMonths ?? 6;
    const end = new Date(Date.UTC(dsuYear, 2 + months, 0));
    // The DSU's own ordinary ISEE (before the income fell) is the one in force again once the ISEE corrente ends.
    dsu.corrente = {
      protocol: dsuProtocol(spec.fiscalCode, dsuYear, 'corrente'),
      presentedOn: `${dsuYear}-03-01`,
      expiresOn: end.toISOString().slice(0, 10),
      ordinaryIseeCents: Math.round(spec.iseeCents * 1.25),
    };
  }
  if (spec.kind === 'indicators') {
    const [, second = household[0], third = household[0]] = household;
    dsu.universitario = [{ fiscalCode: third.fiscalCode, iseeCents: Math.round(spec.iseeCents * 0.8) }];
    dsu.sociosanitario = [{ fiscalCode: spec.fiscalCode, iseeCents: Math.round(spec.iseeCents * 0.6) }];
    dsu.ridotto = [{ beneficiary: second.fiscalCode, iseeCents: Math.round(spec.iseeCents * 0.45) }];
    dsu.variazione = {
      type: 'Contestazione',
      discrepancies: [
        {
          fiscalCode: spec.fiscalCode,
          type: 'Reddito',
          detail: 'Reddito complessivo diverso da quello dell’Agenzia delle Entrate',
        },
      ],
    };
  }
  return dsu;
}

const amount = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** ISE, ISR, ISP coherent with the ISEE and the scale (ISEE = ISE / scala; ISE = ISR + 20% ISP). */
export function valuesOf(dsu: Pick<SimDsu, 'iseeCents' | 'scala'>) {
  const ise = Math.round(dsu.iseeCents * dsu.scala);
  const isp = Math.round(ise * 0.5);
  const isr = ise - Math.round(isp * 0.2);
  const isee = Math.round(ise / dsu.scala);
  return {
    ISE: amount(ise),
    ScalaEquivalenza: dsu.scala.toFixed(2),
    ISEE: amount(isee),
    ISR: amount(isr),
    ISP: amount(isp),
  };
}

const attributes = (values: Record<string, string | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(v!)}"`)
    .join('');

const ricercaCfXml = (ricerca: Record<string, string | undefined>) => `<RicercaCF${attributes(ricerca)}/>`;

/** TypeModalitaCalcolo for a set of values. */
const modalita = (name: string, values: ReturnType<typeof valuesOf>) =>
  `<${name} SommaRedditiComponenti="${values.ISR}" RedditoFigurativoPatrimonioMobiliare="0.00" Detrazioni="0.00" ISR="${values.ISR}" PatrimonioMobiliare="${values.ISP}" DetrazionePatrimonioMobiliare="0.00" PatrimonioImmobiliare="0.00" DetrazionePatrimonioImmobiliare="0.00" ISP="${values.ISP}" ISE="${values.ISE}" ParametroNucleo="${values.ScalaEquivalenza}" Maggiorazioni="0.00" ScalaEquivalenza="${values.ScalaEquivalenza}"/>`;

/** The EsitoAttestazione document (ISEE_EsitoConsultazioneAttestazione.xsd, ISEE_Attestazione.xsd), in the XSD's order. */
export function attestationXml(dsu: SimDsu, ricerca: Record<string, string | undefined>): string {
  const values = valuesOf(dsu);
  const released = `${dsu.presentedOn.slice(0, 8)}20`;
  const member = (fiscalCode: string) => dsu.household.find((m) => m.fiscalCode === fiscalCode) ?? dsu.household[0];
  const names = (fiscalCode: string) => ({
    Cognome: member(fiscalCode).lastName,
    Nome: member(fiscalCode).firstName,
    CodiceFiscale: fiscalCode,
  });
  /** An indicator of its own for a person: Valori and ModalitaCalcolo under the XSD's element for it. */
  const own = (element: string, calculation: string, iseeCents: number) => {
    const v = valuesOf({ iseeCents, scala: dsu.scala });
    return `<${element} DataRilascio="${released}"><Valori${attributes(v)}/>${modalita(calculation, v)}</${element}>`;
  };
  const household = dsu.household
    .map(
      (m) =>
        `<ComponenteNucleo${attributes({ RapportoConDichiarante: m.relation, Cognome: m.lastName, Nome: m.firstName, CodiceFiscale: m.fiscalCode })}/>`,
    )
    .join('');
  const minorenni = dsu.minorenni?.length
    ? `<ISEEMin>${dsu.minorenni.map((m) => `<ComponenteMinorenne${attributes({ Cognome: 'MINORE', Nome: 'COMPONENTE', CodiceFiscale: m.fiscalCode, ISEE: amount(m.iseeCents) })}><ISEEOrd/></ComponenteMinorenne>`).join('')}</ISEEMin>`
    : '';
  const aggiuntiva = (fiscalCode: string) =>
    `<ComponenteAgguntiva><ComponenteAttrattaAggiuntiva${attributes({ Cognome: member(fiscalCode).lastName, Nome: 'AGGIUNTIVO', CodiceFiscale: fiscalCode })}/></ComponenteAgguntiva>`;
  const universitario = dsu.universitario?.length
    ? `<ISEEUni>${dsu.universitario
        .map((u) => {
          const v = valuesOf({ iseeCents: u.iseeCents, scala: dsu.scala });
          return `<StudenteUniversitario${attributes({ ...names(u.fiscalCode), ISEE: amount(u.iseeCents) })}><ISEEUniAgg DataRilascio="${released}">${aggiuntiva(u.fiscalCode)}<Valori${attributes(v)}/>${modalita('ModalitaCalcoloISEEUniAgg', v)}</ISEEUniAgg></StudenteUniversitario>`;
        })
        .join('')}</ISEEUni>`
    : '';
  const sociosanitario = dsu.sociosanitario?.length
    ? `<ISEESocioSanRes>${dsu.sociosanitario
        .map(
          (c) =>
            `<ComponenteSocioSanitarieRes${attributes({ ...names(c.fiscalCode), ISEE: amount(c.iseeCents) })}>${own('ISEESocioSanRes', 'ModalitaCalcoloISEESocioSanResRes', c.iseeCents)}</ComponenteSocioSanitarieRes>`,
        )
        .join('')}</ISEESocioSanRes>`
    : '';
  const ridotti = (dsu.ridotto ?? [])
    .map(
      (r) =>
        `<Ridotto CodiceFiscaleBeneficiario="${r.beneficiary}"><NucleoRistretto><ComponenteNucleoRistretto${attributes({ RelazioneConBeneficiario: 'B', ...names(r.beneficiary) })}/></NucleoRistretto>` +
        `${own('ISEERistretto', 'ModalitaCalcoloISEERistretto', r.iseeCents)}</Ridotto>`,
    )
    .join('');
  const variazione = dsu.variazione
    ? `<Variazione${attributes({ TipoVariazione: dsu.variazione.type, NumeroProtocolloDSUVariata: dsuProtocol(dsu.declarant, Number(dsu.presentedOn.slice(0, 4)), 'variata'), DataPresentazioneDSUVariata: dsu.presentedOn })}>` +
      dsu.variazione.discrepancies
        .map(
          (d) =>
            `<DiscordanzeContestazione${attributes({ CFDiscordanza: d.fiscalCode, TipologiaDiscordanza: d.type, SpecificaDiscordanza: d.detail })}/>`,
        )
        .join('') +
      `</Variazione>`
    : '';
  const omissions = dsu.omissions
    .map(
      (o) =>
        `<OmissioneDifformita${attributes({ TipoOmissioneDifformita: o.type, CodiceFiscale: o.fiscalCode, DataControlloAE: o.checkedOn })}/>`,
    )
    .join('');
  const corrente = dsu.corrente
    ? attributes({
        Corrente: 'SI',
        DataPresentazioneModuloSostitutivo: dsu.corrente.presentedOn,
        ProtocolloDSUModuloSostitutivo: dsu.corrente.protocol,
      })
    : '';
  return (
    `<?xml version="1.0" encoding="iso-8859-1"?><EsitoAttestazione xmlns="${ISEE_NAMESPACE}">` +
    `<Attestazione${attributes({ CodiceFiscaleDichiarante: dsu.declarant, NumeroProtocolloDSU: dsu.protocol, DataPresentazione: dsu.presentedOn, DataValidita: dsu.validUntil, DataScadenzaDSUCorrente: dsu.corrente?.expiresOn })}>` +
    `<Ordinario${corrente}><NucleoFamiliare>${household}</NucleoFamiliare>` +
    `<ISEEOrdinario DataRilascio="${dsu.corrente ? `${dsu.corrente.presentedOn.slice(0, 8)}05` : released}"><Valori${attributes(values)}/>${modalita('ModalitaCalcoloISEEOrdinario', values)}</ISEEOrdinario>${minorenni}${universitario}${sociosanitario}</Ordinario>` +
    ridotti +
    variazione +
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
  /** The v1 e-service's audience (the voucher's aud) and the purposes allowed to call its two operations. */
  audience: string;
  purposes: { attestazione: string; indicatore: string };
  /** The residents' e-service too ("Consultazione Attestazione Residenti ISEE"), with its own audience and purpose. */
  residenti?: { audience: string; purpose: string };
  /** Every e-service, instead of the two above. */
  eservices?: SimEService[];
  /** HTTPS, and mutual TLS: without a client certificate signed by `ca` the gateway answers 403. */
  tls?: { key: string; cert: string; ca?: string; requireClientCertificate?: boolean };
  /** Requests per second before 429 (default 50). */
  perSecond?: number;
  /** Today (tests move it). */
  today?: () => Date;
}

export interface InpsSimulator extends Closable {
  url: string;
  /** The v1 e-service's endpoint, and the residents' one. */
  endpoint: string;
  residentiEndpoint: string;
  stats(): {
    requests: number;
    rateLimited: number;
    byEsito: Record<string, number>;
    unauthorized: number;
    actionNotSupported: number;
  };
}

/** 'voucher-expired': a 401 as for a voucher past its exp (the client must ask PDND for a new one). */
type FaultKind =
  | 'DATABASE_OFFLINE'
  | 'ERRORE_INTERNO'
  | '429'
  | '429-daily'
  | 'slow'
  | 'malformed'
  | 'fault'
  | '503'
  | 'voucher-expired';
const FAULT_KINDS: FaultKind[] = [
  'DATABASE_OFFLINE',
  'ERRORE_INTERNO',
  '429',
  '429-daily',
  'slow',
  'malformed',
  'fault',
  '503',
  'voucher-expired',
];

/** The v1 e-service of the WSDL v2.8, and the residents' one when configured. */
export function simEServices(
  options: Pick<InpsSimulatorOptions, 'audience' | 'purposes' | 'residenti' | 'eservices'>,
): SimEService[] {
  if (options.eservices) return options.eservices;
  return [
    {
      path: INPS_PATH,
      audience: options.audience,
      operations: {
        ConsultazioneAttestazione: options.purposes.attestazione,
        ConsultazioneIndicatore: options.purposes.indicatore,
      },
    },
    ...(options.residenti
      ? [
          {
            path: RESIDENTI_PATH,
            audience: options.residenti.audience,
            operations: { ConsultazioneAttestazioneResidenti: options.residenti.purpose },
          },
        ]
      : []),
  ];
}

let requestValidator: XsdValidator | undefined;
/**
 * The schema's first complaint about a request, or null (ConsultazioneISEE_v2.8_PDND.xsd, libxml2). The residents'
 * operation has ConsultazioneAttestazione's request (OpenMSP sends the same RicercaCF): it is checked as one.
 */
function requestSchemaErrors(call: XmlElement): string | null {
  requestValidator ??= XsdValidator.fromDoc(
    XmlDocument.fromString(fs.readFileSync(path.join(CONTRACT_DIR, 'ConsultazioneISEE_v2.8_PDND.xsd'), 'latin1')),
  );
  const name =
    localName(call.name) === 'ConsultazioneAttestazioneResidenti' ? 'ConsultazioneAttestazione' : localName(call.name);
  const serialize = (element: XmlElement): string =>
    `<${localName(element.name)}${element === call ? ` xmlns="${NAMESPACE}"` : ''}>` +
    element.children
      .map((c) => (c instanceof XmlElement ? serialize(c) : escapeXml(String((c as { text?: string }).text ?? ''))))
      .join('') +
    `</${localName(element.name)}>`;
  const xml = serialize(call)
    .replace(/^<[^>\s]+/, `<${name}`)
    .replace(/<\/[^>]+>$/, `</${name}>`);
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(xml);
    requestValidator.validate(doc);
    return null;
  } catch (error) {
    return (error as Error).message.trim().split('\n')[0] ?? 'richiesta non valida';
  } finally {
    doc?.dispose();
  }
}

/** WCF's fault for a SOAPAction the endpoint has no operation for (INPS's ConsultazioneISEE is a WCF service). */
const actionNotSupported = (action: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode xmlns:a="http://schemas.microsoft.com/ws/2005/05/addressing/none">a:ActionNotSupported</faultcode>` +
  `<faultstring xml:lang="it-IT">The message with Action '${escapeXml(action)}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher. This may be because of either a contract mismatch (mismatched Actions between sender and receiver) or a binding/security mismatch between the sender and the receiver.  Check that sender and receiver have the same contract and the same binding (including security requirements, e.g. Message, Transport, None).</faultstring></s:Fault></s:Body></s:Envelope>`;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (value: string | undefined) =>
  !!value && ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export async function startInpsSimulator(options: InpsSimulatorOptions): Promise<InpsSimulator> {
  const host = options.host ?? '127.0.0.1';
  const url = `${options.tls ? 'https' : 'http'}://${host === '127.0.0.1' ? 'localhost' : host}:${options.port}`;
  const today = options.today ?? (() => new Date());
  const jwks = jose.createRemoteJWKSet(new URL(options.pdnd.jwksUrl));
  const store = options.dataDir ? path.join(options.dataDir, 'inps', 'dsus.json') : null;
  let added: SimDsu[] = store && fs.existsSync(store) ? JSON.parse(fs.readFileSync(store, 'utf8')) : [];
  let perSecond = options.perSecond ?? 50;
  let faults: { kind: FaultKind; remaining: number | null; ms?: number }[] = [];
  let bucket = { tokens: perSecond, at: Date.now() };
  let lastId = 100_000;
  const counts = {
    requests: 0,
    rateLimited: 0,
    unauthorized: 0,
    actionNotSupported: 0,
    byEsito: {} as Record<string, number>,
  };
  /** The last query's RicercaCF per fiscal code (the benefit code, application and its state a test expects to see). */
  let lastQueries: Record<
    string,
    {
      operation: string;
      PrestazioneDaErogare?: string;
      ProtocolloDomandaEnteErogatore?: string;
      StatodomandaPrestazione?: string;
    }
  > = {};
  const eservices = simEServices(options);

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
      .filter(
        (d) => d.household.some((m) => m.fiscalCode === fiscalCode) && d.presentedOn <= day && day <= d.validUntil,
      )
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
  const answer = (
    res: ServerResponse,
    operation: Operation,
    esito: string,
    fields: { descrizione?: string; base64?: string },
  ) => {
    counts.byEsito[esito] = (counts.byEsito[esito] ?? 0) + 1;
    const resultField = operation === 'ConsultazioneIndicatore' ? 'XmlEsitoIndicatore' : 'XmlEsitoAttestazione';
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

  /** The gateway's check of the voucher: PDND's signature and expiry, this e-service's audience, one of its purposes. */
  async function voucherProblem(
    req: IncomingMessage,
    service: SimEService,
  ): Promise<{ status: 401 | 403; reason: string } | null> {
    const authorization = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(authorization)?.[1];
    if (!token) return { status: 401, reason: 'voucher mancante' };
    let payload: jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, jwks, {
        issuer: options.pdnd.issuer,
        audience: service.audience,
        algorithms: ['RS256'],
        typ: 'at+jwt',
      }));
    } catch (error) {
      return { status: 401, reason: `voucher non valido: ${(error as Error).message}` };
    }
    if (!Object.values(service.operations).includes((payload as Record<string, unknown>).purposeId as string))
      return { status: 403, reason: 'finalità non abilitata a questo e-service' };
    const digest = (payload as Record<string, any>).digest?.value as string | undefined;
    const evidence = req.headers['agid-jwt-trackingevidence'];
    if (digest || evidence) {
      if (
        typeof evidence !== 'string' ||
        !digest ||
        createHash('sha256').update(evidence, 'ascii').digest('hex') !== digest
      ) {
        return { status: 403, reason: 'AgID-JWT-TrackingEvidence non corrisponde al digest del voucher' };
      }
    }
    return null;
  }

  async function consult(service: SimEService, req: IncomingMessage, res: ServerResponse) {
    counts.requests += 1;
    if (!takeToken()) {
      counts.rateLimited += 1;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Too Many Requests');
    }
    const fault = takeFault();
    if (fault?.kind === '429' || fault?.kind === '429-daily') {
      counts.rateLimited += 1;
      // INPS's daily limit comes without Retry-After (pagopa/idpay-admissibility-assessor treats it so).
      res.writeHead(429, {
        ...(fault.kind === '429' ? { 'retry-after': '1' } : {}),
        'content-type': 'text/plain; charset=utf-8',
      });
      return res.end('Too Many Requests');
    }
    if (fault?.kind === '503') {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Service Unavailable');
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.ms ?? 3000));
    const body = await readBody(req);
    if (options.tls?.requireClientCertificate && !(req.socket as TLSSocket).authorized) {
      counts.unauthorized += 1;
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Certificato client assente o non riconosciuto');
    }
    const refused =
      fault?.kind === 'voucher-expired'
        ? { status: 401 as const, reason: 'voucher scaduto' }
        : await voucherProblem(req, service);
    if (refused) {
      counts.unauthorized += 1;
      res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' });
      return res.end(refused.reason);
    }
    const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
    const operation = OPERATIONS.find(
      (op) => op in service.operations && action === `${NAMESPACE}/ISvcConsultazione/${op}`,
    );
    if (!operation) {
      counts.actionNotSupported += 1;
      return xml(res, 500, actionNotSupported(action));
    }
    if (fault?.kind === 'fault') return soapFault(res, 'Server', 'Servizio temporaneamente non disponibile');
    let envelope: XmlElement | undefined;
    try {
      envelope = parseXml(body).root ?? undefined;
    } catch {
      return soapFault(res, 'Client', 'Il messaggio non è XML ben formato');
    }
    const identity = child(child(envelope, 'Header'), 'Identity');
    const userId = text(identity, 'UserId');
    const codiceUfficio = text(identity, 'CodiceUfficio');
    if (!userId || !codiceUfficio)
      return soapFault(res, 'Client', 'Intestazione Identity mancante o incompleta (UserId, CodiceUfficio)');
    if (
      req.headers['inps-identity-userid'] !== userId ||
      req.headers['inps-identity-codiceufficio'] !== codiceUfficio
    ) {
      return soapFault(
        res,
        'Client',
        'Intestazioni HTTP INPS-Identity-UserId e INPS-Identity-CodiceUfficio mancanti o diverse dall’intestazione Identity',
      );
    }
    const call = childElements(child(envelope, 'Body') ?? new XmlElement('Body'))[0];
    if (!call || localName(call.name) !== operation) return soapFault(res, 'Client', `Il corpo non è ${operation}`);
    if (fault?.kind === 'DATABASE_OFFLINE' || fault?.kind === 'ERRORE_INTERNO')
      return answer(res, operation, fault.kind, {
        descrizione: fault.kind === 'DATABASE_OFFLINE' ? 'Banca dati non disponibile' : 'Errore interno',
      });
    const request = child(call, 'request');
    const ricerca = child(request, 'RicercaCF');
    const invalid = !request ? 'request mancante' : !ricerca ? 'RicercaCF mancante' : requestSchemaErrors(call);
    if (invalid) return answer(res, operation, 'RICHIESTA_INVALIDA', { descrizione: invalid });
    const fields = {
      CodiceFiscale: text(ricerca, 'CodiceFiscale'),
      DataValidita: text(ricerca, 'DataValidita'),
      PrestazioneDaErogare: text(ricerca, 'PrestazioneDaErogare'),
      ProtocolloDomandaEnteErogatore: text(ricerca, 'ProtocolloDomandaEnteErogatore'),
      StatodomandaPrestazione: text(ricerca, 'StatodomandaPrestazione'),
    };
    lastQueries[fields.CodiceFiscale!] = {
      operation,
      PrestazioneDaErogare: fields.PrestazioneDaErogare,
      ProtocolloDomandaEnteErogatore: fields.ProtocolloDomandaEnteErogatore,
      StatodomandaPrestazione: fields.StatodomandaPrestazione,
    };
    const tipo = text(request, 'TipoIndicatore');
    const day = fields.DataValidita ?? romeDay(today());
    const found = dsuFor(fields.CodiceFiscale!, day);
    // On a day the ISEE corrente covers, the attestation is the corrente; before its modulo or after it ends, the DSU's ordinary one.
    const dsu =
      found?.corrente && !(found.corrente.presentedOn <= day && day <= found.corrente.expiresOn)
        ? { ...found, corrente: undefined, iseeCents: found.corrente.ordinaryIseeCents }
        : found;
    if (!dsu)
      return answer(res, operation, 'DATI_NON_TROVATI', {
        descrizione: 'Nessuna DSU valida per il codice fiscale alla data indicata',
      });
    const document =
      operation === 'ConsultazioneIndicatore' ? indicatorXml(dsu, tipo!, fields) : attestationXml(dsu, fields);
    const base64 =
      fault?.kind === 'malformed'
        ? Buffer.from('<Attestazione NumeroProtocolloDSU=').toString('base64')
        : iso88591(document).toString('base64');
    return answer(res, operation, 'OK', { base64 });
  }

  /** The answer as INPS writes it, iso-8859-1: a character outside Latin-1 (Ł, Ș, €) as a character reference, not a wrong byte. */
  const iso88591 = (xml: string) =>
    Buffer.from(
      xml.replace(/[^\u0000-\u00ff]/gu, (c) => `&#${c.codePointAt(0)};`),
      'latin1',
    );

  /** Gives a fiscal code a DSU (replacing the ones given before for that code). */
  function addDsu(body: Record<string, any>): string | null {
    const fiscalCode = String(body.fiscalCode ?? '').toUpperCase();
    if (!INPS_FISCAL_CODE.test(fiscalCode)) return 'fiscalCode: codice fiscale non valido';
    const value = Number(body.value);
    if (!Number.isFinite(value) || value < 0 || Math.round(value * 100) !== Math.round(value * 100 * 1e6) / 1e6)
      return 'value: importo in euro, al massimo due decimali';
    const year = body.year === undefined ? romeYear(today()) : Number(body.year);
    if (!Number.isInteger(year) || year < 2015 || year > 2100) return 'year: anno di presentazione';
    const members = body.members === undefined ? 1 : Number(body.members);
    if (!Number.isInteger(members) || members < 1 || members > 12) return 'members: da 1 a 12';
    const kinds = ['valid', 'omissions', 'corrente', 'indicators'] as const;
    const kind = body.kind === undefined || body.kind === '' ? (body.omissions ? 'omissions' : 'valid') : body.kind;
    if (!kinds.includes(kind)) return `kind: ${kinds.join(' | ')}`;
    const correnteMonths =
      body.correnteMonths === undefined || body.correnteMonths === '' ? undefined : Number(body.correnteMonths);
    if (correnteMonths !== undefined && !(Number.isInteger(correnteMonths) && Math.abs(correnteMonths) <= 12))
      return 'correnteMonths: mesi di validità dell’ISEE corrente dal 1° marzo (da -12 a 12)';
    const dsu = makeDsu(
      {
        fiscalCode,
        firstName: String(body.firstName ?? 'NOME'),
        lastName: String(body.lastName ?? 'COGNOME'),
        iseeCents: Math.round(value * 100),
        kind,
        members: kind === 'indicators' ? Math.max(members, 3) : members,
        correnteMonths,
      },
      year,
    );
    if (body.protocol !== undefined) {
      if (!DSU_PROTOCOL.test(String(body.protocol))) return 'protocol: INPS-ISEE-AAAA-NNNNNNNNL-NN';
      dsu.protocol = String(body.protocol);
    } else {
      dsu.protocol = dsuProtocol(fiscalCode, year, String(added.length + Date.now()));
    }
    if (typeof body.presentedOn === 'string' && validDay(body.presentedOn)) dsu.presentedOn = body.presentedOn;
    // An ISEE corrente on given days: its modulo sostitutivo's day and its expiry (DataScadenzaDSUCorrente).
    if (dsu.corrente && typeof body.correnteOn === 'string' && validDay(body.correnteOn))
      dsu.corrente.presentedOn = body.correnteOn;
    if (dsu.corrente && typeof body.correnteUntil === 'string' && validDay(body.correnteUntil))
      dsu.corrente.expiresOn = body.correnteUntil;
    added = [dsu, ...added.filter((d) => d.declarant !== fiscalCode)];
    save();
    return null;
  }

  async function admin(pathname: string, req: IncomingMessage, res: ServerResponse) {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && pathname === '/admin/state')
      return json(200, { ...counts, perSecond, faults, dsus: dsus(), lastQueries });
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
      faults.push({
        kind: body.kind,
        remaining: times === 'always' ? null : (times as number),
        ms: body.ms === undefined ? undefined : Number(body.ms),
      });
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
      if (body.counts === true || body.counts === 'on') {
        Object.assign(counts, { requests: 0, rateLimited: 0, unauthorized: 0, actionNotSupported: 0, byEsito: {} });
        lastQueries = {};
      }
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
          `<td>${escape(amount(d.iseeCents))}</td><td>${escape(d.presentedOn)}</td><td>${escape(d.corrente ? `${d.validUntil} (ISEE corrente fino al ${d.corrente.expiresOn})` : d.validUntil)}</td><td>${d.omissions.length ? 'sì' : 'no'}</td></tr>`,
      )
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="it"><head><meta charset="utf-8"><title>Simulatore INPS ConsultazioneISEE</title></head><body><main>` +
        `<h1>Simulatore INPS ConsultazioneISEE (PDND)</h1><p>E-service: ${eservices.map((e) => `<code>${escape(url + e.path)}</code> (${escape(Object.keys(e.operations).join(', '))})`).join('; ')} (<a href="${INPS_PATH}?wsdl">WSDL</a>). Richieste: ${counts.requests}, 429: ${counts.rateLimited}, voucher rifiutati: ${counts.unauthorized}.</p>` +
        `<h2>Dai una DSU a un codice fiscale</h2><form method="post" action="/admin/dsu">` +
        `<p><label>Codice fiscale <input name="fiscalCode" required></label> <label>Cognome <input name="lastName"></label> <label>Nome <input name="firstName"></label></p>` +
        `<p><label>ISEE (euro, punto decimale) <input name="value" required></label> <label>Anno di presentazione <input name="year"></label> <label>Componenti <input name="members" value="1"></label> <label><input type="checkbox" name="omissions"> con omissioni</label></p>` +
        `<p><label>Tipo <select name="kind"><option value="">ordinaria</option><option value="corrente">ISEE corrente</option><option value="indicators">universitario, sociosanitario, ridotto, variazione</option></select></label> <label>Mesi di validità dell’ISEE corrente dal 1° marzo <input name="correnteMonths" value="6"></label></p>` +
        `<p><button>Registra la DSU</button></p></form>` +
        `<h2>Interruttori</h2><form method="post" action="/admin/faults"><p><label>Guasto <select name="kind">${FAULT_KINDS.map((k) => `<option>${k}</option>`).join('')}</select></label> <label>Volte <input name="times" value="1"></label> <label>Ritardo (ms, per slow) <input name="ms" value="3000"></label> <button>Attiva</button></p></form>` +
        `<form method="post" action="/admin/rate-limit"><p><label>Richieste al secondo <input name="perSecond" value="${perSecond}"></label> <button>Imposta</button></p></form>` +
        `<form method="post" action="/admin/reset"><p><button>Spegni gli interruttori</button></p></form>` +
        `<table><caption>DSU valide o scadute</caption><thead><tr><th scope="col">Dichiarante</th><th scope="col">Nome</th><th scope="col">Protocollo</th><th scope="col">ISEE</th><th scope="col">Presentata</th><th scope="col">Valida fino al</th><th scope="col">Omissioni</th></tr></thead><tbody>${rows}</tbody></table>` +
        `</main></body></html>`,
    );
  }

  const wsdl = () =>
    fs
      .readFileSync(path.join(CONTRACT_DIR, 'ConsultazioneISEE_v2.8_PDND.wsdl'), 'utf8')
      .replace(/location="[^"]*"/, `location="${url}${INPS_PATH}"`);

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const { pathname, searchParams } = new URL(req.url ?? '/', url);
    const service = eservices.find((e) => e.path === pathname);
    const handle = async () => {
      if (service && req.method === 'GET' && searchParams.has('wsdl')) return xml(res, 200, wsdl());
      if (req.method === 'GET' && /^\/pdnd\/soap\/ConsultazioneISEE\/[\w.]+\.xsd$/.test(pathname)) {
        const file = path.join(CONTRACT_DIR, path.basename(pathname));
        return fs.existsSync(file) ? xml(res, 200, fs.readFileSync(file, 'latin1')) : xml(res, 404, '');
      }
      if (service && req.method === 'POST') return consult(service, req, res);
      if (pathname.startsWith('/admin/')) return admin(pathname, req, res);
      if (pathname === '/' && req.method === 'GET') return page(res);
      res.writeHead(404);
      res.end();
    };
    handle().catch(() => {
      if (!res.headersSent) soapFault(res, 'Server', 'Errore del simulatore');
      else res.end();
    });
  };
  const server = options.tls
    ? https.createServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ca: options.tls.ca,
          requestCert: !!options.tls.requireClientCertificate,
          rejectUnauthorized: false,
        },
        listener,
      )
    : http.createServer(listener);
  await listen(server as http.Server, options.port, host);
  return {
    url,
    endpoint: `${url}${INPS_PATH}`,
    residentiEndpoint: `${url}${RESIDENTI_PATH}`,
    stats: () => structuredClone(counts),
    close: () => closeServer(server as http.Server),
  };
}
