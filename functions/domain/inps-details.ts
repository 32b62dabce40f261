import { toEurosOrNull } from './money.ts';

/**
 * What an ISEE fetched from INPS keeps of the attestation, and how the API shows it: apart from inps.ts
 * (the answers, the messages, the queries) so that every function showing an ISEE carries only this. No zod:
 * the API's schema of it is isee.ts inpsDetailsSchema.
 */
/** One indicator's figures (TypeValori), amounts in cents, the scale as INPS gives it (two decimals). */
export interface InpsValues {
  iseCents: number;
  scalaEquivalenza: number;
  iseeCents: number;
  isrCents: number;
  ispCents: number;
}

export interface InpsHouseholdMember {
  /** RapportoConDichiarante: D, C, F, MA, FC, FNC, P, GNC. */
  relation: string;
  lastName: string;
  firstName: string;
  fiscalCode: string;
}

/** An indicator other than the ordinary one, for one person (minorenni, universitario, sociosanitario, ridotto). */
export interface InpsOtherIndicator {
  kind: 'MINORENNI' | 'UNIVERSITARIO' | 'SOCIOSANITARIO' | 'RIDOTTO';
  fiscalCode: string;
  /** null when INPS says it cannot be computed (ISEENonCalcolabile) or equals the ordinary one without a value. */
  iseeCents: number | null;
}

/** OmissioneDifformita: the tax agency's check found something missing or different. */
export interface InpsOmission {
  type: string;
  fiscalCode: string;
  checkedOn: string;
}

/** Variazione/DiscordanzeContestazione. */
export interface InpsDiscrepancy {
  fiscalCode: string;
  type: string;
  detail: string;
}

const OMISSION_LABELS: Record<string, string> = {
  PatrimoniMobiliari: 'patrimonio mobiliare',
  RedditiScostamento: 'redditi diversi da quelli dell’Agenzia delle Entrate',
  PatrimoniMobiliariSottoSoglia: 'patrimonio mobiliare (sotto soglia)',
  PatrimoniMobiliariSopraSoglia: 'patrimonio mobiliare (sopra soglia)',
};
export const omissionLabel = (type: string) => OMISSION_LABELS[type] ?? type;

/**
 * What the ISEE item keeps of the attestation (amounts in cents), beside the portal's own fields
 * (value, year, protocol, expiry): the API shows it as `inps` (toInpsDetails).
 */
/**
 * The ISEE corrente (ISEE_Attestazione.xsd: Ordinario/@Corrente="SI"): the ordinary ISEE recomputed on a
 * 'modulo sostitutivo' with its own protocol, presented on its own day, expiring on the attestation's
 * DataScadenzaDSUCorrente, months before the DSU's 31 December.
 */
export interface InpsCorrente {
  protocolloDSU: string;
  dataPresentazione: string;
  dataScadenza: string;
}

/**
 * A member as the ISEE item keeps it (README "What is kept of an ISEE from INPS"): the relation to the declarant
 * always (the household's size and shape explain the equivalence scale), the fiscal code only of the declarant
 * and of the members the review needs (named by an omission, a discrepancy or another indicator), no names.
 * Items stored before kept every member's names and code: they are shown as they are.
 */
export interface StoredHouseholdMember {
  relation: string;
  fiscalCode: string | null;
  lastName?: string | null;
  firstName?: string | null;
}

export interface StoredInpsDetails {
  protocolloDSU: string;
  dataPresentazione: string;
  dataValidita: string;
  dataRilascio: string | null;
  /** Absent on items stored before the ISEE corrente was read. */
  corrente?: InpsCorrente | null;
  values: InpsValues | null;
  household: StoredHouseholdMember[];
  otherIndicators: InpsOtherIndicator[];
  omissions: InpsOmission[];
  discrepancies: InpsDiscrepancy[];
  reviewReason: string | null;
  idRichiesta: string | null;
  queriedAt: string;
}

/** What the API shows of the attestation (isee.ts inpsDetailsSchema): amounts in euro, omissions labelled. */
export const toInpsDetails = (stored: StoredInpsDetails) => ({
  protocolloDSU: stored.protocolloDSU,
  dataPresentazione: stored.dataPresentazione,
  dataValidita: stored.dataValidita,
  dataRilascio: stored.dataRilascio,
  corrente: stored.corrente ?? null,
  ise: toEurosOrNull(stored.values?.iseCents),
  scalaEquivalenza: stored.values?.scalaEquivalenza ?? null,
  isee: toEurosOrNull(stored.values?.iseeCents),
  isr: toEurosOrNull(stored.values?.isrCents),
  isp: toEurosOrNull(stored.values?.ispCents),
  household: stored.household.map((m) => ({
    relation: m.relation,
    fiscalCode: m.fiscalCode ?? null,
    lastName: m.lastName ?? null,
    firstName: m.firstName ?? null,
  })),
  otherIndicators: stored.otherIndicators.map((o) => ({
    kind: o.kind,
    fiscalCode: o.fiscalCode,
    isee: toEurosOrNull(o.iseeCents),
  })),
  omissions: stored.omissions.map((o) => ({ ...o, label: omissionLabel(o.type) })),
  discrepancies: stored.discrepancies,
  reviewReason: stored.reviewReason,
  idRichiesta: stored.idRichiesta,
  queriedAt: stored.queriedAt,
});

/** The answer of 'Recupera il mio ISEE da INPS' and of the operator's 'Aggiorna ISEE da INPS'. */
export const inpsFetchOutcomes = ['VALIDATED', 'REVIEW', 'UNCHANGED', 'NOT_FOUND'] as const;
export type InpsFetchOutcome = (typeof inpsFetchOutcomes)[number];
