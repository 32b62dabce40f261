import type { Position } from './payments.ts';
import { isOpen } from './positions/states.ts';

/**
 * The operator's payment list of a call (operator-admin §2 "Payment list", §3 "Debt summary row" and
 * "Payment filter"): one row per citizen, call and year, summing that citizen's positions of the year.
 * Pure rules (no zod: the API's schemas are in debt-summaries.ts) shared by the API (functions/payments) and the web (the page's filters), kept apart from
 * debt-positions.ts (node:crypto) so the web can import them. Amounts are integer euro cents.
 *
 * A row's figures (design, README "The payment list"):
 * - importoTotale = what the year's positions ask, paid or not: the sum of importoDovuto of the positions
 *   not cancelled (a cancelled position asks nothing);
 * - paymentIds = the ids of the PENDING positions (neither paid nor cancelled): the web joins them with
 *   ';' and the badge counts them;
 * - 'Email non inviata' = the citizen has a pending position whose notice e-mail was not sent;
 * - daRiconciliare = the citizen's positions with a payment an operator must reconcile ('Pagamento da
 *   riconciliare': another amount, a cancelled position, paid twice; issue 21).
 */

export const debtListMessages = {
  year: 'Anno non valido: i pagamenti partono dal 2025.',
  sort: 'Ordinamento non valido.',
  pageSize: 'Righe per pagina: 10, 25 o 50.',
  chkNoSendMail: 'Email non inviata: true o false.',
  chkDaRiconciliare: 'Pagamento da riconciliare: true o false.',
  name: 'Al massimo 100 caratteri.',
} as const;
/** The page's texts (the web only: kept out of the Lambda bundles). */
export const paymentListTexts = {
  empty: 'Non ci sono pagamenti!',
  nothingToExport: 'Nessun pagamento selezionato per esportare.',
} as const;

/** Operator-admin §9: "Totals start date: 2025-01-01 (fixed)"; totals and rows are per year from then on. */
export const DEBT_TOTALS_START_YEAR = 2025;
export const DEBT_PAGE_SIZES = [10, 25, 50] as const;
export const DEBT_DEFAULT_PAGE_SIZE = 10;
/** 'Scarica Excel' reads the whole filter in pages of up to this size (DynamoDB stops a Query at 1 MB: ~2,500 rows). */
export const DEBT_EXPORT_PAGE_SIZE = 2500;
/** Amount ascending/descending, surname+name ascending/descending. */
export const debtSorts = ['importo', '-importo', 'nome', '-nome'] as const;
export type DebtSort = (typeof debtSorts)[number];
/**
 * A text filter counts and sums at most this many matching rows (a bounded read, ~20 RCU at most);
 * beyond it 'Record trovati' and the sum are lower bounds and the page says so.
 */
export const DEBT_FILTER_COUNT_CAP = 200;

/**
 * A call-year's figures, amounts in cents (a totals item holds them, kept by the summaries' deltas):
 * cittadini = rows of the unfiltered list; posizioni; dovuto = importoDovuto of the positions not
 * cancelled (= the sum of the rows' importoTotale); pagato = importoTotalePagato of the paid ones;
 * daPagare = importoDovuto of the pending ones; pagate, daPagareCount, annullate = how many;
 * cittadiniSenzaEmail and importoSenzaEmail = the rows (and their sum) with 'Email non inviata';
 * daRiconciliare, cittadiniDaRiconciliare = positions and rows with a payment to reconcile, and
 * differenzaDaRiconciliare the sum of their differences (paid − due).
 */
export const debtTotalKeys = [
  'cittadini',
  'posizioni',
  'dovuto',
  'pagato',
  'daPagare',
  'pagate',
  'daPagareCount',
  'annullate',
  'cittadiniSenzaEmail',
  'importoSenzaEmail',
  'daRiconciliare',
  'cittadiniDaRiconciliare',
  'differenzaDaRiconciliare',
] as const;
export type DebtTotals = Record<(typeof debtTotalKeys)[number], number>;
export const zeroTotals = (): DebtTotals => Object.fromEntries(debtTotalKeys.map((k) => [k, 0])) as DebtTotals;

/** operator-admin §3 "Debt summary row" (debt-summaries.ts debtSummaryRowSchema answers it). */
export interface DebtSummaryRow {
  userId: string;
  cognome: string;
  nome: string;
  codiceFiscale: string;
  telefono: string | null;
  email: string | null;
  /** Cents. */
  importoTotale: number;
  paymentIds: string[];
  /** Positions with a payment to reconcile ('Pagamento da riconciliare'). */
  daRiconciliare: number;
}

/** What a summary needs of a position. */
const SUMMARY_FIELDS = [
  'id',
  'mese',
  'importoDovuto',
  'importoTotalePagato',
  'isPagato',
  'annullato',
  'isEmailSent',
  'cognome',
  'nome',
  'fiscalCode',
  'riconciliazione',
] as const satisfies readonly (keyof Position)[];
export type SummaryPosition = Pick<Position, (typeof SUMMARY_FIELDS)[number]>;

/**
 * Whether a position's write can change its citizen's row of the payment list: a new position, or one
 * whose fields a summary reads changed (a checkout's hold, an export's verdict or an IO status cannot).
 */
export function changesSummary({ before, after }: { before: SummaryPosition | null; after: SummaryPosition }) {
  return !before || SUMMARY_FIELDS.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
/** What a summary shows of the citizen (the user record; the position's copy when the record is gone). */
export interface SummaryPerson {
  cognome: string;
  nome: string;
  codiceFiscale: string;
  telefono: string | null;
  email: string | null;
}

/** A citizen's row for one call and year, and what it adds to the call-year's totals. Null: no positions. */
export interface DebtSummary extends DebtSummaryRow {
  callId: string;
  anno: number;
  /** Pending positions whose e-mail was not sent exist ('Email non inviata'). */
  senzaEmail: boolean;
  contribution: DebtTotals;
}

export function summarize(input: {
  callId: string;
  anno: number;
  userId: string;
  positions: readonly SummaryPosition[];
  person: SummaryPerson | null;
}): DebtSummary | null {
  const positions = [...input.positions].sort((a, b) => a.mese - b.mese);
  if (!positions.length) return null;
  const first = positions[0]!;
  const person = input.person ?? {
    cognome: first.cognome,
    nome: first.nome,
    codiceFiscale: first.fiscalCode,
    telefono: null,
    email: null,
  };
  const pending = positions.filter(isOpen);
  const dovuto = positions.filter((p) => !p.annullato).reduce((sum, p) => sum + p.importoDovuto, 0);
  const senzaEmail = pending.some((p) => !p.isEmailSent);
  const toReconcile = positions.filter((p) => p.riconciliazione);
  const contribution: DebtTotals = {
    cittadini: 1,
    posizioni: positions.length,
    dovuto,
    pagato: positions.filter((p) => p.isPagato).reduce((sum, p) => sum + p.importoTotalePagato, 0),
    daPagare: pending.reduce((sum, p) => sum + p.importoDovuto, 0),
    pagate: positions.filter((p) => p.isPagato && p.importoTotalePagato > 0).length,
    daPagareCount: pending.length,
    annullate: positions.filter((p) => p.annullato).length,
    cittadiniSenzaEmail: senzaEmail ? 1 : 0,
    importoSenzaEmail: senzaEmail ? dovuto : 0,
    daRiconciliare: toReconcile.length,
    cittadiniDaRiconciliare: toReconcile.length ? 1 : 0,
    differenzaDaRiconciliare: toReconcile.reduce((sum, p) => sum + (p.riconciliazione?.differenza ?? 0), 0),
  };
  return {
    callId: input.callId,
    anno: input.anno,
    userId: input.userId,
    ...person,
    importoTotale: dovuto,
    paymentIds: pending.map((p) => p.id),
    daRiconciliare: toReconcile.length,
    senzaEmail,
    contribution,
  };
}

/** What a summary shows of the citizen, from the user record (null when the record is gone: the positions' copy). */
export const summaryPersonOf = (
  user:
    | { lastName: string; firstName: string; fiscalCode: string; phoneNumber?: string | null; email?: string | null }
    | null
    | undefined,
): SummaryPerson | null =>
  user
    ? {
        cognome: user.lastName,
        nome: user.firstName,
        codiceFiscale: user.fiscalCode,
        telefono: user.phoneNumber ?? null,
        email: user.email ?? null,
      }
    : null;

/** Whether two summaries show and add up the same (a refresh writes only a summary that differs). */
export function sameSummary(a: DebtSummary, b: DebtSummary): boolean {
  const view = (s: DebtSummary) =>
    JSON.stringify([
      s.cognome,
      s.nome,
      s.codiceFiscale,
      s.telefono,
      s.email,
      s.importoTotale,
      s.paymentIds,
      s.senzaEmail,
      s.daRiconciliare ?? 0,
      debtTotalKeys.map((key) => s.contribution[key] ?? 0),
    ]);
  return view(a) === view(b);
}

/** What replacing `before` by `after` adds to the totals (either may be absent). */
export function totalsDelta(before: DebtTotals | null, after: DebtTotals | null): DebtTotals {
  const delta = zeroTotals();
  for (const key of debtTotalKeys) delta[key] = (after?.[key] ?? 0) - (before?.[key] ?? 0);
  return delta;
}

export const addTotals = (a: DebtTotals, b: DebtTotals): DebtTotals => {
  const sum = zeroTotals();
  for (const key of debtTotalKeys) sum[key] = a[key] + b[key];
  return sum;
};

export const isZeroDelta = (delta: DebtTotals) => debtTotalKeys.every((key) => delta[key] === 0);

/** Lower case, no accents, letters and digits only (the users search's normalisation). */
export function normaliseName(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Each word normalised, one space between: "De Rossi", "Maria" → "de rossi maria" (a space sorts before letters). */
const words = (text: string) => text.trim().split(/\s+/).map(normaliseName).filter(Boolean);

/** The surname+name order and prefix key. */
export const nameKey = (cognome: string, nome: string) => [...words(cognome ?? ''), ...words(nome ?? '')].join(' ');

/**
 * How a text filter is read: with a digit it is a fiscal-code prefix (upper case, letters and digits);
 * otherwise a prefix of "cognome nome" ("ros" → Rossi…, "rossi ma" → Rossi Maria…).
 */
export function readNameFilter(text: string | undefined): { kind: 'fiscalCode' | 'name'; prefix: string } | null {
  if (!text?.trim()) return null;
  if (/\d/.test(text)) return { kind: 'fiscalCode', prefix: text.toUpperCase().replace(/[^A-Z0-9]/g, '') };
  const typed = words(text);
  if (!typed.length) return null;
  return { kind: 'name', prefix: typed.join(' ') };
}

/** Orders rows as the list does (the same order the indexes give): by importoTotale or by surname+name. */
export function compareRows(sort: DebtSort) {
  const direction = sort.startsWith('-') ? -1 : 1;
  return (a: DebtSummaryRow, b: DebtSummaryRow) => {
    const primary = sort.endsWith('importo')
      ? a.importoTotale - b.importoTotale
      : nameKey(a.cognome, a.nome) < nameKey(b.cognome, b.nome)
        ? -1
        : nameKey(a.cognome, a.nome) > nameKey(b.cognome, b.nome)
          ? 1
          : 0;
    return direction * (primary || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  };
}

/** The Excel file name: "<yyyy-mm-dd>_<call name>.xlsx", or "pagamenti.xlsx" without a call name. */
export function paymentsWorkbookName(callName: string | null | undefined, today: string): string {
  const safe = (callName ?? '')
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return safe ? `${today}_${safe}.xlsx` : 'pagamenti.xlsx';
}

/** At most this many names are kept per month (the count is complete). */
export const MISSING_ISEE_NAMES = 1000;
