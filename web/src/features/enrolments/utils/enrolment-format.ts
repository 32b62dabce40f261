/**
 * Pure helpers of the enrolled-users table (spec part 2 §2.11, §4, §5): how ISEE, fee and hours read,
 * how the filters live in the address, and how the modals'
 * inputs are read. No React here: unit-tested in test/unit/web/enrolment-format.test.ts.
 */
import { isRideService } from '@domain/fee';
import { fileMessages } from '@domain/files';
import { enrolmentMessages, MAX_IMPORT_FILE_BYTES, rankingScoreSchema, weeklyHourSchema } from '@domain/enrolment';
import { formatEuroCents, parseEuroText } from '@domain/money';
import {
  ENROLMENT_PAGE_SIZES,
  type EnrolmentFilters,
  type EnrolmentPageSize,
  type EnrolmentRow,
  type EnrolmentSort,
} from '../api/types';

/** ISEE year 1900 marks an ISEE error (spec part 2 §9). */
export const ISEE_ERROR_YEAR = 1900;
export const ISEE_MISSING = 'ISEE non caricato';
/** The cost cell of a subscriber with no validated ISEE valid this month (design §4): no position is made for it. */
export const ISEE_EXPIRED_OR_MISSING = 'ISEE scaduto o mancante';
/** The fee waits for an ISEE the operators have not validated yet (the user record's label for it). */
export const ISEE_TO_VALIDATE = 'ISEE da validare';
export const ISEE_ERROR = 'Errore ISEE';
export const NO_BAND_TEXT = 'Fascia ISEE non trovata';
export const EXEMPT_TEXT = 'Esente';
export const EMPTY_TABLE = 'Non ci sono utenti iscritti.';
export const NO_FILE = 'Nessun file caricato';
export const SINGLE_PAYMENT_EXEMPT = 'Pagamento singolo non disponibile: ISEE pari o inferiore a 3.000,00 €';
export const ISEE_YEAR_MISMATCH_HINT = 'Anno dell’ultimo ISEE diverso dall’anno del bando';
export const ISEE_NONE_FOR_YEAR_HINT = 'Nessun ISEE dell’anno del bando';
/** Why a row has the red border: its latest ISEE is of another year than the call's, or there is none. */
export const iseeYearHint = (isee: EnrolmentRow['isee']) => (isee ? ISEE_YEAR_MISMATCH_HINT : ISEE_NONE_FOR_YEAR_HINT);

/** The ISEE cell: value in euro and year, 'ISEE non caricato', or 'Errore ISEE' for year 1900. */
export function formatIsee(isee: EnrolmentRow['isee']): string {
  if (!isee) return ISEE_MISSING;
  if (isee.year === ISEE_ERROR_YEAR) return ISEE_ERROR;
  return `${formatEuroCents(isee.valueCents)} (${isee.year})`;
}

/** The cost cell: the month's fee, or why there is none (an ISEE not validated yet is not a missing one). */
export function formatFee(fee: EnrolmentRow['fee'], isee: EnrolmentRow['isee'] = null): string {
  if (!fee) return '—';
  switch (fee.kind) {
    case 'DUE':
      return formatEuroCents(fee.amountCents);
    case 'EXEMPT':
      return EXEMPT_TEXT;
    case 'NO_ISEE':
      return isee?.state === 'LOADED' ? ISEE_TO_VALIDATE : ISEE_EXPIRED_OR_MISSING;
    case 'NO_BAND':
      return NO_BAND_TEXT;
  }
}

/** Hours, or rides for taxi services (spec part 2 §2.11). */
export const hoursHeader = (serviceName: string) => (isRideService(serviceName) ? 'Corse' : 'Ore');
/** What the confirm modal asks, and the citizen's label. */
export const hoursQuestion = (serviceName: string) => (isRideService(serviceName) ? 'Corse' : 'Ore settimanali');
export const weeklyHoursLabel = (serviceName: string) =>
  isRideService(serviceName) ? 'Corse settimanali' : 'Ore settimanali';

type Read = { value: number } | { error: string };

/** A modal's number read with the API's own schema; the message is the field's (an empty field is a missing one). */
function readWith(
  schema: { safeParse(value: unknown): { success: true; data: number } | { success: false } },
  text: string,
  invalid: string,
): Read {
  const trimmed = text.trim();
  if (trimmed === '') return { error: enrolmentMessages.required };
  const parsed = schema.safeParse(trimmed);
  return parsed.success ? { value: parsed.data } : { error: invalid };
}

/** Weekly hours typed by the operator ('12,5' or '12.5'), as the API reads them (weeklyHourSchema). */
export const parseHoursInput = (text: string): Read => readWith(weeklyHourSchema, text, enrolmentMessages.weeklyHour);

/** The ranking score (spec part 2 §5), as the API reads it (rankingScoreSchema). */
export const parseRankingInput = (text: string): Read =>
  readWith(rankingScoreSchema, text, enrolmentMessages.rankingScore);

/**
 * 'ISEE maggiore di', typed the Italian way: '' → null (no filter), '1.234,5' → 1234.5, '1234.50' → 1234.5
 * (one dot and one or two digits is a decimal point, as the API reads it), bad text → NaN.
 */
export const parseIseeAbove = (text: string): number | null => (/^[\s€]*$/.test(text) ? null : parseEuroText(text));

export const emptyFilters: EnrolmentFilters = {
  fiscalCode: '',
  firstName: '',
  lastName: '',
  iseeAbove: '',
  confirmed: false,
};
const SORTS: readonly EnrolmentSort[] = ['ranking', '-ranking', 'isee', '-isee'];
export const DEFAULT_SORT: EnrolmentSort = 'ranking';
export const DEFAULT_PAGE_SIZE: EnrolmentPageSize = 10;

export interface EnrolmentView {
  filters: EnrolmentFilters;
  sort: EnrolmentSort;
  limit: EnrolmentPageSize;
}

/** The table's filters, order and page size as kept in the address (so reload and back keep them). */
export function viewFromParams(params: URLSearchParams): EnrolmentView {
  const sort = params.get('sort') as EnrolmentSort | null;
  const limit = Number(params.get('limit'));
  return {
    filters: {
      fiscalCode: params.get('fiscalCode') ?? '',
      firstName: params.get('firstName') ?? '',
      lastName: params.get('lastName') ?? '',
      iseeAbove: params.get('iseeAbove') ?? '',
      confirmed: params.get('confirmed') === 'true',
    },
    sort: sort && SORTS.includes(sort) ? sort : DEFAULT_SORT,
    limit: (ENROLMENT_PAGE_SIZES as readonly number[]).includes(limit)
      ? (limit as EnrolmentPageSize)
      : DEFAULT_PAGE_SIZE,
  };
}

/** Writes the view into the address, keeping the page's other parameters (id, ...); defaults are left out. */
export function paramsWithView(params: URLSearchParams, view: EnrolmentView): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['fiscalCode', 'firstName', 'lastName', 'iseeAbove', 'confirmed', 'sort', 'limit'])
    next.delete(key);
  const { filters } = view;
  if (filters.fiscalCode.trim()) next.set('fiscalCode', filters.fiscalCode.trim().toUpperCase());
  if (filters.firstName.trim()) next.set('firstName', filters.firstName.trim());
  if (filters.lastName.trim()) next.set('lastName', filters.lastName.trim());
  if (filters.iseeAbove.trim()) next.set('iseeAbove', filters.iseeAbove.trim());
  if (filters.confirmed) next.set('confirmed', 'true');
  if (view.sort !== DEFAULT_SORT) next.set('sort', view.sort);
  if (view.limit !== DEFAULT_PAGE_SIZE) next.set('limit', String(view.limit));
  return next;
}

/** A header's click: the ranking toggles ranking/-ranking, the ISEE isee/-isee; another column starts ascending. */
export function toggleSort(current: EnrolmentSort, column: 'ranking' | 'isee'): EnrolmentSort {
  if (current === column) return `-${column}`;
  return column;
}

export function sortDirection(current: EnrolmentSort, column: 'ranking' | 'isee'): 'ascending' | 'descending' | 'none' {
  if (current === column) return 'ascending';
  if (current === `-${column}`) return 'descending';
  return 'none';
}

/** Megabytes rounded up to the hundredth: a file just over the limit never reads as the limit itself. */
const megabytes = (bytes: number) =>
  new Intl.NumberFormat('it-IT', { maximumFractionDigits: 2 }).format(Math.ceil((bytes / 1024 / 1024) * 100) / 100);

/**
 * The CSV chosen for import: none → 'Nessun file caricato'; anything but a CSV → 'Carica un file con un
 * formato supportato'; over the API's limit → that limit as a file size, beside the file's own. Browsers on
 * Windows with Excel report a .csv as application/vnd.ms-excel (or no type): a .csv file name is accepted
 * with those, and sent as text/csv.
 */
export function csvFileProblem(file: { name: string; type: string; size?: number } | null | undefined): string | null {
  if (!file) return NO_FILE;
  const isCsv =
    file.type === 'text/csv' ||
    (/\.csv$/i.test(file.name) && ['', 'application/vnd.ms-excel', 'text/plain'].includes(file.type));
  if (!isCsv) return fileMessages.unsupported;
  if (file.size !== undefined && file.size > MAX_IMPORT_FILE_BYTES) {
    return `${enrolmentMessages.fileTooLarge.replace(/\.$/, '')} (il file scelto è di ${megabytes(file.size)} MB).`;
  }
  return null;
}

/** 'Mostro N su M'. */
export const showingText = (shown: number, total: number) => `Mostro ${shown} su ${total}`;
