import * as z from 'zod/mini';
import {
  omissionLabel,
  type InpsDiscrepancy,
  type InpsFetchOutcome,
  type InpsHouseholdMember,
  type InpsOmission,
  type InpsOtherIndicator,
  type InpsValues,
  type StoredInpsDetails,
} from './inps-details.ts';
import { fill } from './messages.ts';
import { formatEuro, toEuros } from './money.ts';
import { italianDay } from './period.ts';
import { pageOf } from './validation.ts';

export * from './inps-details.ts';

/**
 * The ISEE from INPS through PDND (reference.md "ISEE from INPS through PDND"; the ConsultazioneISEE
 * WSDL/XSD v2.8 for PDND, copied in functions/adapters/inps/). Pure: what INPS's answers mean, how an
 * attestation becomes the portal's ISEE, and what each outcome tells a citizen or an operator. The
 * adapter (functions/adapters/inps-isee.ts) turns the SOAP answer into these types.
 */

/** ConsultazioneResponseType/Esito: it arrives inside an HTTP 200. */
export const inpsEsiti = ['OK', 'RICHIESTA_INVALIDA', 'DATI_NON_TROVATI', 'DATABASE_OFFLINE', 'ERRORE_INTERNO', 'RISCONTRO_NON_VALIDO'] as const;
export type InpsEsito = (typeof inpsEsiti)[number];

/** The XSD's PrestazioneDaErogareType (A1.01 … A3.03, Z9.99): which benefit the query is for. */
export const INPS_BENEFIT_CODE = /^(A1\.(0[1-9]|1[0-9]|20)|A2\.(0[1-9]|1[0-2])|A3\.0[1-3]|Z9\.99)$/;
/** StatoDomandaPrestazioneType. */
export const inpsApplicationStates = ['Da Erogare', 'Erogata'] as const;
export type InpsApplicationState = (typeof inpsApplicationStates)[number];
/** TypeProtocollo: the DSU protocol. */
export const DSU_PROTOCOL = /^INPS-ISEE-[0-9]{4}-[0-9]{8}[A-Z]-[0-9]{2}$/;
/** The request's CodiceFiscaleType (the XSD accepts letters only where a plain code has them). */
export const INPS_FISCAL_CODE = /^([A-Z]{6}\d{2}[A-Z]\d{2}[A-Z][A-Z0-9]{3}[A-Z]|\d{11})$/;

/** The attestation (EsitoAttestazione/Attestazione), as the adapter reads it. Dates yyyy-mm-dd. */
export interface InpsAttestation {
  protocolloDSU: string;
  codiceFiscaleDichiarante: string;
  dataPresentazione: string;
  /** DataValidita: the DSU is valid until this day (31 December of the year it was presented). */
  dataValidita: string;
  dataScadenzaDSUCorrente: string | null;
  household: InpsHouseholdMember[];
  /** ISEEOrdinario; null when the attestation has no ordinary indicator. */
  ordinario: (InpsValues & { dataRilascio: string }) | null;
  otherIndicators: InpsOtherIndicator[];
  omissions: InpsOmission[];
  discrepancies: InpsDiscrepancy[];
}

/** The indicator (Indicatore): the values and the DSU, no expiry and no omissions. */
export interface InpsIndicator {
  tipoIndicatore: string;
  values: InpsValues;
  protocolloDSU: string;
  dataPresentazione: string;
}

/** One answer of INPS, whatever its Esito, with what the accountability record needs. */
export interface InpsAnswer<T> {
  operation: 'ConsultazioneAttestazione' | 'ConsultazioneIndicatore';
  idRichiesta: string | null;
  esito: InpsEsito;
  descrizioneErrore: string | null;
  purposeId: string;
  voucherJti: string;
  data: T | null;
}

/**
 * What an answer (or a failure to get one) means:
 * - FOUND: a valid DSU with an ordinary ISEE;
 * - NOT_FOUND: DATI_NON_TROVATI (no DSU valid on the date asked), or an attestation without an ordinary ISEE;
 * - RETRY_LATER: DATABASE_OFFLINE, ERRORE_INTERNO, INPS or PDND unreachable, busy or answering unreadable XML;
 * - REFUSED: RICHIESTA_INVALIDA, RISCONTRO_NON_VALIDO, the voucher or the request refused (configuration).
 */
export type InpsOutcomeKind = 'FOUND' | 'NOT_FOUND' | 'RETRY_LATER' | 'REFUSED';

export function outcomeOfEsito(esito: InpsEsito, hasOrdinary: boolean): InpsOutcomeKind {
  switch (esito) {
    case 'OK':
      return hasOrdinary ? 'FOUND' : 'NOT_FOUND';
    case 'DATI_NON_TROVATI':
      return 'NOT_FOUND';
    case 'DATABASE_OFFLINE':
    case 'ERRORE_INTERNO':
      return 'RETRY_LATER';
    case 'RICHIESTA_INVALIDA':
    case 'RISCONTRO_NON_VALIDO':
      return 'REFUSED';
  }
}

/** The adapters' error names (functions/adapters/pdnd.ts, inps-isee.ts) and what they mean. */
export function outcomeOfError(error: unknown): InpsOutcomeKind | null {
  const name = (error as Error | undefined)?.name;
  if (name === 'InpsUnavailable' || name === 'InpsMalformed' || name === 'PdndUnavailable') return 'RETRY_LATER';
  if (name === 'InpsRefused' || name === 'PdndRefused') return 'REFUSED';
  return null;
}

/** Italian texts of the INPS features, for citizens and for operators. */
export const inpsMessages = {
  /** The short notice on /caricamento_ISEE: what the council asks INPS, and why. */
  notice:
    'Il Comune chiede all’INPS, tramite la Piattaforma Digitale Nazionale Dati (PDND), la tua attestazione ISEE valida oggi: valore dell’ISEE, componenti del nucleo familiare, date ed eventuali omissioni o difformità. La usa solo per calcolare le quote dei servizi sociali; ogni richiesta è registrata e la trovi nel tuo profilo.',
  validated: 'ISEE recuperato da INPS e già accettato: {value} (DSU {protocollo}, valida fino al {scadenza}). Puoi iscriverti ai bandi.',
  review: 'ISEE recuperato da INPS: {value}. L’attestazione riporta omissioni o difformità: il Comune la verificherà prima di accettarla.',
  unchanged: 'Il tuo ISEE è già aggiornato: INPS conferma {value} (DSU {protocollo}, valida fino al {scadenza}).',
  notFound:
    'INPS non ha un’attestazione ISEE valida oggi per il tuo codice fiscale. Presenta la DSU (sul sito dell’INPS, a un CAF o al Comune) e riprova quando l’attestazione è pronta, oppure carica qui sotto un’attestazione che hai già.',
  retryLater: 'Il servizio ISEE dell’INPS non è raggiungibile in questo momento. Riprova più tardi oppure carica l’attestazione.',
  refused: 'Non è stato possibile consultare l’INPS per conto del Comune. Riprova più tardi oppure carica l’attestazione; se il problema continua, contatta il Comune.',
  operatorValidated: 'ISEE aggiornato da INPS e accettato: {value} (DSU {protocollo}, valida fino al {scadenza}).',
  operatorReview: 'ISEE recuperato da INPS ({value}) con omissioni o difformità: è tra gli ISEE da verificare.',
  operatorUnchanged: 'L’ISEE dell’utente è già quello di INPS: {value} (DSU {protocollo}).',
  operatorNotFound: 'INPS non ha un’attestazione ISEE valida oggi per questo codice fiscale: l’utente deve presentare la DSU o caricare l’attestazione.',
  /** The December reminders stop when IO refuses the council (401, 403, a wrong address), not the citizen. */
  remindersStopped:
    'Promemoria ISEE interrotti: l’app IO rifiuta le richieste del portale ({reason}). Va sistemata la configurazione di IO (la chiave del servizio, i permessi e gli indirizzi IP autorizzati nell’Area Riservata di IO, l’indirizzo IO_BASE_URL del portale). Nessun cittadino è stato segnato come privo dell’app IO; avviando di nuovo, i promemoria riprendono da dove si sono fermati.',
  operatorRefused: 'INPS o PDND hanno rifiutato la richiesta del Comune: controlla la configurazione PDND (clientId, kid, finalità) e l’adesione all’e-service INPS.',
  omissionsReason: 'Omissioni o difformità segnalate da INPS: {list}.',
  noUserFiscalCode: 'L’utente non ha un codice fiscale valido per INPS.',
  checkAgrees: 'Il valore concorda con INPS.',
  checkDiffers: 'Il valore è diverso da quello di INPS.',
  refreshRunning: 'È già in corso un aggiornamento degli ISEE da INPS per questo bando.',
  refreshFailed: 'L’aggiornamento degli ISEE da INPS non è riuscito.',
  expiryRunning: 'È già in corso il controllo delle scadenze ISEE.',
  expiryFailed: 'Il controllo delle scadenze ISEE non è riuscito.',
  newYearRunning: 'È già in corso il recupero dei nuovi ISEE da INPS.',
} as const;


/** Whether the attestation must go to the operators' review (design §4: omissions or discrepancies). */
export const needsReview = (attestation: Pick<InpsAttestation, 'omissions' | 'discrepancies'>) =>
  attestation.omissions.length > 0 || attestation.discrepancies.length > 0;

/** The reason shown to the operator on the review page. */
export function reviewReason(attestation: Pick<InpsAttestation, 'omissions' | 'discrepancies'>): string | null {
  if (!needsReview(attestation)) return null;
  const items = [
    ...attestation.omissions.map((o) => `${omissionLabel(o.type)} (${o.fiscalCode}, controllo del ${italianDay(o.checkedOn)})`),
    ...attestation.discrepancies.map((d) => `${d.type}: ${d.detail} (${d.fiscalCode})`),
  ];
  return fill(inpsMessages.omissionsReason, { list: items.join('; ') });
}

/** The year the DSU was presented (the portal's ISEE year). */
export const dsuYear = (attestation: Pick<InpsAttestation, 'dataPresentazione'>) => Number(attestation.dataPresentazione.slice(0, 4));

export function storedInpsDetails(attestation: InpsAttestation, answer: { idRichiesta: string | null }, at: string): StoredInpsDetails {
  const { ordinario } = attestation;
  return {
    protocolloDSU: attestation.protocolloDSU,
    dataPresentazione: attestation.dataPresentazione,
    dataValidita: attestation.dataValidita,
    dataRilascio: ordinario?.dataRilascio ?? null,
    values: ordinario ? { iseCents: ordinario.iseCents, scalaEquivalenza: ordinario.scalaEquivalenza, iseeCents: ordinario.iseeCents, isrCents: ordinario.isrCents, ispCents: ordinario.ispCents } : null,
    household: attestation.household,
    otherIndicators: attestation.otherIndicators,
    omissions: attestation.omissions,
    discrepancies: attestation.discrepancies,
    reviewReason: reviewReason(attestation),
    idRichiesta: answer.idRichiesta,
    queriedAt: at,
  };
}

/**
 * Why the council asks INPS: recorded with every query (accountability) and shown to the citizen.
 * CITIZEN: the citizen's own 'Recupera il mio ISEE da INPS'; OPERATOR: 'Aggiorna ISEE da INPS' on the user
 * record; CHECK: 'Verifica con INPS' on an uploaded document; CALL: a call's refresh; NEW_YEAR: the January job.
 */
export const inpsQueryReasons = ['CITIZEN', 'OPERATOR', 'CHECK', 'CALL', 'NEW_YEAR'] as const;
export type InpsQueryReason = (typeof inpsQueryReasons)[number];
export const inpsQueryReasonLabel: Record<InpsQueryReason, string> = {
  CITIZEN: 'Su tua richiesta, dalla pagina Caricamento ISEE',
  OPERATOR: 'Aggiornamento dell’ISEE da parte di un operatore',
  CHECK: 'Verifica dell’attestazione che hai caricato',
  CALL: 'Aggiornamento degli ISEE degli iscritti a un bando',
  NEW_YEAR: 'Recupero del nuovo ISEE a inizio anno',
};

/** How the query ended, in a word the lists show. */
export const inpsResultLabel = (esito: string): string =>
  ({
    OK: 'ISEE trovato',
    DATI_NON_TROVATI: 'Nessun ISEE valido',
    DATABASE_OFFLINE: 'INPS non disponibile',
    ERRORE_INTERNO: 'Errore di INPS',
    RICHIESTA_INVALIDA: 'Richiesta rifiutata',
    RISCONTRO_NON_VALIDO: 'Richiesta rifiutata',
  })[esito] ?? 'Nessuna risposta';

/** One query as the operator sees it on the user record (everything reference.md says to record). */
export const inpsQuerySchema = z.object({
  id: z.string(),
  at: z.string(),
  operation: z.string(),
  reason: z.enum(inpsQueryReasons),
  reasonLabel: z.string(),
  purposeId: z.string(),
  voucherJti: z.nullable(z.string()),
  fiscalCode: z.string(),
  benefitCode: z.string(),
  applicationNumber: z.string(),
  applicationState: z.string(),
  idRichiesta: z.nullable(z.string()),
  esito: z.string(),
  resultLabel: z.string(),
  who: z.object({ role: z.string(), fullName: z.string() }),
});
export type InpsQuery = z.output<typeof inpsQuerySchema>;
export const inpsQueryPageSchema = pageOf(inpsQuerySchema);

/** What the citizen sees of the queries about them: when, why and how it ended. */
export const myInpsQuerySchema = z.pick(inpsQuerySchema, { id: true, at: true, reason: true, reasonLabel: true, idRichiesta: true, esito: true, resultLabel: true });
export const myInpsQueryPageSchema = pageOf(myInpsQuerySchema);


/** The 'Verifica con INPS' answer on the review page of an uploaded document. */
export const inpsCheckSchema = z.object({
  found: z.boolean(),
  message: z.string(),
  inps: z.nullable(z.object({ value: z.number(), protocolloDSU: z.string(), dataPresentazione: z.string(), ise: z.number(), scalaEquivalenza: z.number() })),
  /** The declared value and the one read from the document, each with INPS's difference (INPS − it). */
  declared: z.object({ value: z.number(), difference: z.number() }),
  read: z.nullable(z.object({ value: z.number(), difference: z.number() })),
  protocolMatches: z.nullable(z.boolean()),
  agrees: z.boolean(),
});
export type InpsCheck = z.output<typeof inpsCheckSchema>;

/** Compares what INPS says with the declared value and the reading of the uploaded document. */
export function compareWithInps(
  indicator: InpsIndicator,
  upload: { valueCents: number; readCents: number | null; protocollo: string | null },
): Omit<InpsCheck, 'found' | 'message'> {
  const inpsCents = indicator.values.iseeCents;
  const protocolMatches = upload.protocollo ? upload.protocollo.toUpperCase() === indicator.protocolloDSU : null;
  const declaredAgrees = upload.valueCents === inpsCents;
  return {
    inps: {
      value: toEuros(inpsCents),
      protocolloDSU: indicator.protocolloDSU,
      dataPresentazione: indicator.dataPresentazione,
      ise: toEuros(indicator.values.iseCents),
      scalaEquivalenza: indicator.values.scalaEquivalenza,
    },
    declared: { value: toEuros(upload.valueCents), difference: toEuros(inpsCents - upload.valueCents) },
    read: upload.readCents === null ? null : { value: toEuros(upload.readCents), difference: toEuros(inpsCents - upload.readCents) },
    protocolMatches,
    agrees: declaredAgrees && (upload.readCents === null || upload.readCents === inpsCents) && protocolMatches !== false,
  };
}

/** The message of a fetch, for the citizen or for the operator. */
export function fetchMessage(outcome: InpsFetchOutcome, audience: 'CITIZEN' | 'OPERATOR', isee: { valueCents: number; protocollo: string | null; scadenza: string | null } | null): string {
  const values: Record<string, string> = isee ? { value: formatEuro(toEuros(isee.valueCents)), protocollo: isee.protocollo ?? '—', scadenza: italianDay(isee.scadenza) } : {};
  const citizen = audience === 'CITIZEN';
  switch (outcome) {
    case 'VALIDATED':
      return fill(citizen ? inpsMessages.validated : inpsMessages.operatorValidated, values);
    case 'REVIEW':
      return fill(citizen ? inpsMessages.review : inpsMessages.operatorReview, values);
    case 'UNCHANGED':
      return fill(citizen ? inpsMessages.unchanged : inpsMessages.operatorUnchanged, values);
    case 'NOT_FOUND':
      return citizen ? inpsMessages.notFound : inpsMessages.operatorNotFound;
  }
}

/**
 * The council's application number sent as ProtocolloDomandaEnteErogatore (≤ 256 characters): the call and
 * the citizen when the query is for a subscription, else the citizen's own request on the portal.
 */
export const applicationNumber = (userId: string, callId?: string | null) => (callId ? `BANDO-${callId}-${userId}` : `PORTALE-${userId}`);
