import * as z from 'zod/mini';
import {
  omissionLabel,
  type InpsDiscrepancy,
  type InpsFetchOutcome,
  type InpsCorrente,
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
export const inpsEsiti = [
  'OK',
  'RICHIESTA_INVALIDA',
  'DATI_NON_TROVATI',
  'DATABASE_OFFLINE',
  'ERRORE_INTERNO',
  'RISCONTRO_NON_VALIDO',
] as const;
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

/**
 * The operations of INPS's ISEE e-services the portal calls (SOAPAction …/ISvcConsultazione/<operation>). Each
 * e-service of the PDND catalogue has its own endpoint, voucher audience and purpose, and answers only its own
 * operations: "Consultazione Attestazione Residenti ISEE", the one municipalities subscribe, answers
 * ConsultazioneAttestazioneResidenti at …/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti
 * (lsantalu/OpenMSP); the WSDL v2.8 for PDND has ConsultazioneAttestazione and ConsultazioneIndicatore at …/v1.
 */
export const inpsAttestationOperations = ['ConsultazioneAttestazioneResidenti', 'ConsultazioneAttestazione'] as const;
export type InpsAttestationOperation = (typeof inpsAttestationOperations)[number];
export type InpsOperation = InpsAttestationOperation | 'ConsultazioneIndicatore';
/** Each operation's endpoint path at INPS (the host is a setting: api.inps.it, or the collaudo one). */
export const inpsOperationPaths: Record<InpsOperation, string> = {
  ConsultazioneAttestazioneResidenti: '/pdnd/soap/ConsultazioneISEE/v2/ConsultazioneAttestazioneResidenti',
  ConsultazioneAttestazione: '/pdnd/soap/ConsultazioneISEE/v1',
  ConsultazioneIndicatore: '/pdnd/soap/ConsultazioneISEE/v1',
};

/** The attestation (EsitoAttestazione/Attestazione), as the adapter reads it. Dates yyyy-mm-dd. */
export interface InpsAttestation {
  protocolloDSU: string;
  codiceFiscaleDichiarante: string;
  dataPresentazione: string;
  /** DataValidita: the DSU is valid until this day (31 December of the year it was presented). */
  dataValidita: string;
  dataScadenzaDSUCorrente: string | null;
  /** Ordinario/@Corrente="SI": the ordinary ISEE is an ISEE corrente, with its own protocol and expiry. */
  corrente: InpsCorrente | null;
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
  operation: InpsOperation;
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
 * - REFUSED: RICHIESTA_INVALIDA, RISCONTRO_NON_VALIDO, the voucher or the request refused (configuration);
 * - MISCONFIGURED: the settings do not match the e-service (an operation it does not have, a certificate it
 *   refuses, a voucher for another audience): never retried, an alarm, the operator told what to check.
 */
export type InpsOutcomeKind = 'FOUND' | 'NOT_FOUND' | 'RETRY_LATER' | 'REFUSED' | 'MISCONFIGURED';

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
  if (
    name === 'InpsUnavailable' ||
    name === 'InpsMalformed' ||
    name === 'InpsRateLimited' ||
    name === 'PdndUnavailable'
  )
    return 'RETRY_LATER';
  if (name === 'InpsMisconfigured') return 'MISCONFIGURED';
  if (name === 'InpsRefused' || name === 'PdndRefused') return 'REFUSED';
  return null;
}

/** Italian texts of the INPS features, for citizens and for operators. */
export const inpsMessages = {
  /** The short notice on /caricamento_ISEE: what the council asks INPS, and why. */
  notice:
    'Il Comune chiede all’INPS, tramite la Piattaforma Digitale Nazionale Dati (PDND), la tua attestazione ISEE valida oggi: valore dell’ISEE, componenti del nucleo familiare, date ed eventuali omissioni o difformità. La usa solo per calcolare le quote dei servizi sociali; ogni richiesta è registrata e la trovi nel tuo profilo.',
  validated:
    'ISEE recuperato da INPS e già accettato: {value} ({dsu} {protocollo}, valida fino al {scadenza}). Puoi iscriverti ai bandi.',
  review:
    'ISEE recuperato da INPS: {value}. L’attestazione riporta omissioni o difformità: il Comune la verificherà prima di accettarla.',
  unchanged: 'Il tuo ISEE è già aggiornato: INPS conferma {value} ({dsu} {protocollo}, valida fino al {scadenza}).',
  notFound:
    'INPS non ha un’attestazione ISEE valida oggi per il tuo codice fiscale. Presenta la DSU (sul sito dell’INPS, a un CAF o al Comune) e riprova quando l’attestazione è pronta, oppure carica qui sotto un’attestazione che hai già.',
  retryLater:
    'Il servizio ISEE dell’INPS non è raggiungibile in questo momento. Riprova più tardi oppure carica l’attestazione.',
  refused:
    'Non è stato possibile consultare l’INPS per conto del Comune. Riprova più tardi oppure carica l’attestazione; se il problema continua, contatta il Comune.',
  /** The council's settings do not match INPS's e-service: nothing the citizen can do but upload. */
  councilCheckUnavailable:
    'La verifica dell’ISEE presso l’INPS non è al momento disponibile per il Comune. Puoi caricare qui sotto la tua attestazione ISEE (il PDF rilasciato dall’INPS o dal CAF) indicandone il valore: il Comune la verificherà.',
  operatorMisconfigured:
    'La configurazione del Comune per l’e-service ISEE dell’INPS è da correggere: {reason}. Controlla {check}. Finché non è corretta, nessuna richiesta a INPS può riuscire: l’errore non viene ripetuto.',
  operatorValidated: 'ISEE aggiornato da INPS e accettato: {value} ({dsu} {protocollo}, valida fino al {scadenza}).',
  operatorReview: 'ISEE recuperato da INPS ({value}) con omissioni o difformità: è tra gli ISEE da verificare.',
  operatorUnchanged: 'L’ISEE dell’utente è già quello di INPS: {value} ({dsu} {protocollo}).',
  operatorNotFound:
    'INPS non ha un’attestazione ISEE valida oggi per questo codice fiscale: l’utente deve presentare la DSU o caricare l’attestazione.',
  /** The December reminders stop when IO refuses the council (401, 403, a wrong address), not the citizen. */
  remindersStopped:
    'Promemoria ISEE interrotti: l’app IO rifiuta le richieste del portale ({reason}). Va sistemata la configurazione di IO (la chiave del servizio, i permessi e gli indirizzi IP autorizzati nell’Area Riservata di IO, l’indirizzo IO_BASE_URL del portale). Nessun cittadino è stato segnato come privo dell’app IO; avviando di nuovo, i promemoria riprendono da dove si sono fermati.',
  operatorRefused:
    'INPS o PDND hanno rifiutato la richiesta del Comune: controlla la configurazione PDND (clientId, kid, finalità) e l’adesione all’e-service INPS.',
  omissionsReason: 'Omissioni o difformità segnalate da INPS: {list}.',
  noUserFiscalCode: 'L’utente non ha un codice fiscale valido per INPS.',
  checkAgrees: 'Il valore concorda con INPS.',
  checkDiffers: 'Il valore è diverso da quello di INPS.',
  refreshRunning: 'È già in corso un aggiornamento degli ISEE da INPS per questo bando.',
  refreshFailed: 'L’aggiornamento degli ISEE da INPS non è riuscito.',
  dailyLimit:
    'INPS ha raggiunto il limite giornaliero di richieste del Comune: restano {left} iscritti da aggiornare. {resume}',
  resumeCall: 'Avvia di nuovo l’aggiornamento domani: riprende da dove si è fermato.',
  resumeNewYear: 'Il recupero riprende domani da dove si è fermato.',
  dailyEstimate:
    'Raggiunta la stima giornaliera di richieste dichiarata nella finalità PDND ({estimate}): restano {left} iscritti da aggiornare. Il recupero riprende domani da dove si è fermato.',
  outOfTime:
    'INPS non ha risposto in tempo. La richiesta è registrata: riprova tra qualche minuto oppure carica l’attestazione.',
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
    ...attestation.omissions.map(
      (o) => `${omissionLabel(o.type)} (${o.fiscalCode}, controllo del ${italianDay(o.checkedOn)})`,
    ),
    ...attestation.discrepancies.map((d) => `${d.type}: ${d.detail} (${d.fiscalCode})`),
  ];
  return fill(inpsMessages.omissionsReason, { list: items.join('; ') });
}

/**
 * The protocol and expiry the portal records for an attestation: an ISEE corrente's own (its modulo
 * sostitutivo's protocol, DataScadenzaDSUCorrente), else the DSU's (NumeroProtocolloDSU, DataValidita).
 */
export const attestationDsu = (attestation: Pick<InpsAttestation, 'protocolloDSU' | 'dataValidita' | 'corrente'>) =>
  attestation.corrente
    ? { protocollo: attestation.corrente.protocolloDSU, scadenza: attestation.corrente.dataScadenza, corrente: true }
    : { protocollo: attestation.protocolloDSU, scadenza: attestation.dataValidita, corrente: false };

/** The year the DSU was presented (the portal's ISEE year). */
export const dsuYear = (attestation: Pick<InpsAttestation, 'dataPresentazione'>) =>
  Number(attestation.dataPresentazione.slice(0, 4));

/**
 * What is kept of the household: every member's relation, the fiscal code only of the declarant and of those the
 * review needs (an omission, a discrepancy or another indicator names them), no names. The fee needs none of it
 * (it takes the ISEE value); INPS can be asked again while the DSU is valid. `full` (the council's setting
 * INPS_KEEP_FULL_HOUSEHOLD, when its data-protection officer decides so): every member's names and fiscal code.
 */
export function keptHousehold(
  attestation: Pick<
    InpsAttestation,
    'household' | 'codiceFiscaleDichiarante' | 'omissions' | 'discrepancies' | 'otherIndicators'
  >,
  full = false,
) {
  if (full) return attestation.household;
  const needed = new Set([
    attestation.codiceFiscaleDichiarante,
    ...attestation.omissions.map((o) => o.fiscalCode),
    ...attestation.discrepancies.map((d) => d.fiscalCode),
    ...attestation.otherIndicators.map((o) => o.fiscalCode),
  ]);
  return attestation.household.map((m) => ({
    relation: m.relation,
    fiscalCode: needed.has(m.fiscalCode) ? m.fiscalCode : null,
  }));
}

/** The difference of a value from INPS's (INPS − value), in words: which way it goes. */
export function differenceFromInps(difference: number): string | null {
  if (difference === 0) return null;
  return `${formatEuro(Math.abs(difference))} ${difference < 0 ? 'in più' : 'in meno'} del valore INPS`;
}

export function storedInpsDetails(
  attestation: InpsAttestation,
  answer: { idRichiesta: string | null },
  at: string,
  fullHousehold = false,
): StoredInpsDetails {
  const { ordinario } = attestation;
  return {
    protocolloDSU: attestation.protocolloDSU,
    dataPresentazione: attestation.dataPresentazione,
    dataValidita: attestation.dataValidita,
    dataRilascio: ordinario?.dataRilascio ?? null,
    corrente: attestation.corrente,
    values: ordinario
      ? {
          iseCents: ordinario.iseCents,
          scalaEquivalenza: ordinario.scalaEquivalenza,
          iseeCents: ordinario.iseeCents,
          isrCents: ordinario.isrCents,
          ispCents: ordinario.ispCents,
        }
      : null,
    household: keptHousehold(attestation, fullHousehold),
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
    IN_CORSO: 'Inviata, nessuna risposta registrata',
    CONFIGURAZIONE_ERRATA: 'Configurazione del Comune da correggere',
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
export const myInpsQuerySchema = z.pick(inpsQuerySchema, {
  id: true,
  at: true,
  reason: true,
  reasonLabel: true,
  idRichiesta: true,
  esito: true,
  resultLabel: true,
});
export const myInpsQueryPageSchema = pageOf(myInpsQuerySchema);

/** The 'Verifica con INPS' answer on the review page of an uploaded document. */
export const inpsCheckSchema = z.object({
  found: z.boolean(),
  message: z.string(),
  inps: z.nullable(
    z.object({
      value: z.number(),
      protocolloDSU: z.string(),
      dataPresentazione: z.string(),
      ise: z.number(),
      scalaEquivalenza: z.number(),
    }),
  ),
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
    read:
      upload.readCents === null
        ? null
        : { value: toEuros(upload.readCents), difference: toEuros(inpsCents - upload.readCents) },
    protocolMatches,
    agrees:
      declaredAgrees && (upload.readCents === null || upload.readCents === inpsCents) && protocolMatches !== false,
  };
}

/** The message of a fetch, for the citizen or for the operator. */
export function fetchMessage(
  outcome: InpsFetchOutcome,
  audience: 'CITIZEN' | 'OPERATOR',
  isee: { valueCents: number; protocollo: string | null; scadenza: string | null; corrente?: boolean } | null,
): string {
  const values: Record<string, string> = isee
    ? {
        value: formatEuro(toEuros(isee.valueCents)),
        protocollo: isee.protocollo ?? '—',
        scadenza: italianDay(isee.scadenza),
        dsu: isee.corrente ? 'ISEE corrente, protocollo' : 'DSU',
      }
    : {};
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
export const applicationNumber = (userId: string, callId?: string | null) =>
  callId ? `BANDO-${callId}-${userId}` : `PORTALE-${userId}`;
