import * as z from 'zod/mini';
import { preprocess } from './validation.ts';
export { subscriptionFee } from './enrolment-fee.ts';
import { jobStatusSchema, resultJobStatusSchema } from './job-schemas.ts';
import { subscriptionStates } from './subscriptions.ts';
import { hasAtMostTwoDecimals, parseEuroToCents } from './money.ts';

/**
 * The enrolment messages, kept with their rules (as userMessages and iseeMessages are): every other
 * function's bundle carries messages.ts, and none of them needs these.
 */
export const enrolmentMessages = {
  required: 'Il campo non può essere vuoto!',
  changed: 'L’iscrizione è stata modificata da un altro operatore: ricarica la pagina e riprova.',
  exportRunning: 'È in corso un invio a MyPay per questo bando: le ore si potranno azzerare quando sarà terminato.',
  resetRunning: 'È già in corso l’azzeramento delle ore di questo bando: attendi che termini.',
  resetFailed: 'L’azzeramento delle ore non è riuscito: riprova.',
  alreadyEnrolled: 'L’utente è già iscritto a questo bando.',
  archivedCall: 'Il bando è archiviato: non è possibile modificarne le iscrizioni.',
  userNotFound: 'L’utente selezionato non è presente.',
  onlyValidatedDelete: 'Si può cancellare solo un’iscrizione approvata.',
  iseeAbove: 'Inserisci un valore ISEE valido, ad esempio 10.000,50.',
  confirmed: 'Il filtro “confermati” deve valere true o false.',
  sort: 'Ordinamento non valido: usa ranking, -ranking, isee o -isee.',
  pageSize: 'Il numero di righe per pagina deve essere 10, 25 o 50.',
  stateCode: 'Il codice di stato deve essere 0, 2, 3 o 4.',
  weeklyHour: 'Inserisci un numero di ore (o corse) maggiore di zero e fino a 168, con al massimo due decimali.',
  rankingScore: 'Il punteggio deve essere un numero intero.',
  noFile: 'Nessun file caricato',
  unsupportedFile: 'Carica un file con un formato supportato',
  fileTooLarge: 'Il file è troppo grande: la dimensione massima è 2 MB.',
  notCsv: 'Il file non è un CSV leggibile: {reason}',
  binaryFile:
    'Il file non è un CSV: contiene dati binari (ad esempio è un foglio Excel .xlsx o un PDF). In Excel usa «Salva con nome» e scegli il formato «CSV UTF-8».',
  missingColumns:
    'Le colonne del file non sono quelle del template. Attese: {expected}. Trovate: {found}. Mancano: {missing}.',
  noColumns: 'nessuna (il file è vuoto)',
  tooManyRows: 'Il file ha troppe righe: al massimo {max}.',
  rowFiscalCode: 'Riga {line}: il codice fiscale “{value}” non è valido.',
  rowUnknownCitizen:
    'Riga {line}: il codice fiscale {value} non appartiene a un cittadino registrato: crea prima l’utente.',
  rowDuplicate: 'Riga {line}: il codice fiscale {value} compare già alla riga {first}.',
  rowScore: 'Riga {line}: il punteggio “{value}” non è un numero intero.',
  rowHours:
    'Riga {line}: le ore settimanali “{value}” non sono un numero valido (maggiore di zero, fino a 168, al massimo due decimali).',
  rowIseeValue: 'Riga {line}: il valore ISEE “{value}” non è un importo valido.',
  rowIseeYear: 'Riga {line}: l’anno ISEE “{value}” non è valido.',
  rowIseeIncomplete: 'Riga {line}: per l’ISEE servono sia il valore sia l’anno.',
  rowFormula:
    'Riga {line}: il cognome o il nome “{value}” non può iniziare con =, +, -, @, una tabulazione o un a capo.',
  previewRequired: 'Manca l’anteprima da applicare: carica il file e premi «Anteprima».',
  previewNotFound: 'Anteprima non trovata: carica di nuovo il file e premi «Anteprima».',
  previewExpired: 'L’anteprima è scaduta: carica di nuovo il file e premi «Anteprima».',
  previewStale:
    'Le iscrizioni del bando sono cambiate dopo l’anteprima: carica di nuovo il file per vedere una nuova anteprima.',
  importRunning: 'È già in corso un’importazione per questo bando: attendi che termini.',
  importExportRunning:
    'È in corso un invio a MyPay per questo bando: l’importazione si potrà applicare quando sarà terminato.',
  importFailed: 'L’importazione non è riuscita: carica di nuovo il file per vedere cosa resta da applicare.',
} as const;

/**
 * Enrolment management (issue 7): the operator's side of a call's subscriptions. Shared by the API
 * (functions/subscriptions) and the web (call detail), so a rule is written once.
 */

/** 'Mostro N su M': the table shows 10, 25 or 50 rows (part 2 §2.11), 10 by default. */
export const ENROLMENT_PAGE_SIZES = [10, 25, 50] as const;
export const ENROLMENT_DEFAULT_PAGE_SIZE = 10;
export const enrolmentSorts = ['ranking', '-ranking', 'isee', '-isee'] as const;
export type EnrolmentSort = (typeof enrolmentSorts)[number];

/** The one CSV format (design §4): template, import and export. */
export const ENROLMENT_CSV_COLUMNS = [
  'codiceFiscale',
  'cognome',
  'nome',
  'punteggio',
  'oreSettimanali',
  'valoreIsee',
  'annoIsee',
] as const;
/** The content types a browser sends for a .csv file: text/csv, and Windows' Excel association. */
export const ENROLMENT_CSV_CONTENT_TYPES = ['text/csv', 'application/vnd.ms-excel'] as const;
/** Rows an import may carry (a call of 5,000 subscriptions, with room to spare). */
export const MAX_IMPORT_ROWS = 10_000;
/** Largest import file: 10,000 rows of ~120 bytes, with room to spare ('la dimensione massima è 2 MB'). */
export const MAX_IMPORT_FILE_BYTES = 2 * 1024 * 1024;
/** The same file in base64, as the request carries it (4 characters for every 3 bytes). */
export const MAX_IMPORT_BODY_BYTES = Math.ceil(MAX_IMPORT_FILE_BYTES / 3) * 4;

/** Scores are integers within ±999,999,999 (so they sort as fixed-width text). */
export const MAX_RANKING_SCORE = 999_999_999;
/** A week has 168 hours; rides are counted the same way. */
export const MAX_WEEKLY_HOURS = 168;

/** A decimal typed with a comma or a point ("12,5", "12.5") or sent as a number; NaN when it is not one. */
export function parseDecimal(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const prefixFilter = preprocess(emptyToUndefined, z.optional(z.string().check(z.trim(), z.maxLength(100))));

export const enrolmentListQuerySchema = z.object({
  fiscalCode: prefixFilter,
  firstName: prefixFilter,
  lastName: prefixFilter,
  /** Euro, Italian format; becomes cents. */
  iseeAbove: preprocess(
    emptyToUndefined,
    z.pipe(
      z.optional(z.string()),
      z.transform((text, ctx) => {
        if (text === undefined) return undefined;
        const cents = parseEuroToCents(text);
        if (Number.isNaN(cents)) {
          ctx.issues.push({ code: 'custom', message: enrolmentMessages.iseeAbove, input: text });
          return z.NEVER;
        }
        return cents;
      }),
    ),
  ),
  confirmed: z.pipe(
    preprocess(emptyToUndefined, z.optional(z.enum(['true', 'false'], { error: enrolmentMessages.confirmed }))),
    z.transform((v) => v === 'true'),
  ),
  sort: preprocess(emptyToUndefined, z._default(z.enum(enrolmentSorts, { error: enrolmentMessages.sort }), 'ranking')),
  limit: preprocess(
    emptyToUndefined,
    z._default(
      z.coerce
        .number({ error: enrolmentMessages.pageSize })
        .check(z.refine((n) => (ENROLMENT_PAGE_SIZES as readonly number[]).includes(n), enrolmentMessages.pageSize)),
      ENROLMENT_DEFAULT_PAGE_SIZE,
    ),
  ),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});
export type EnrolmentListQuery = z.output<typeof enrolmentListQuerySchema>;

export const feeKinds = ['DUE', 'EXEMPT', 'NO_ISEE', 'NO_BAND'] as const;

export const enrolmentRowSchema = z.object({
  /** "<callId>.<userId>" */
  id: z.string(),
  userId: z.string(),
  state: z.enum(subscriptionStates),
  rankingScore: z.nullable(z.number().check(z.int())),
  weeklyHour: z.nullable(z.number()),
  fiscalCode: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The user's latest ISEE whatever its state; year 1900 reads 'Errore ISEE'. */
  isee: z.nullable(
    z.object({ valueCents: z.number().check(z.int()), year: z.number().check(z.int()), state: z.string() }),
  ),
  /** The current month's fee (Europe/Rome); null while no hours are set. */
  fee: z.nullable(z.object({ kind: z.enum(feeKinds), amountCents: z.number().check(z.int()) })),
  /** Red border: VALIDATED or ADDED and the latest ISEE's year is not the call's (or there is none). */
  iseeYearMismatch: z.boolean(),
  /** VALIDATED and latest ISEE above 3000 €. */
  singlePaymentAllowed: z.boolean(),
  /** The version the web sends back with a change. */
  dataUpdate: z.string(),
});
export type EnrolmentRow = z.output<typeof enrolmentRowSchema>;

export const enrolmentPageSchema = z.object({
  items: z.array(enrolmentRowSchema),
  nextCursor: z.nullable(z.string()),
  total: z.number().check(z.int()),
});
export type EnrolmentPage = z.output<typeof enrolmentPageSchema>;

export const enrolUserSchema = z.object({
  userId: z
    .string({ error: enrolmentMessages.required })
    .check(z.trim(), z.minLength(1, enrolmentMessages.required), z.maxLength(64)),
});
export type EnrolUserInput = z.output<typeof enrolUserSchema>;

/** Weekly hours (or rides): > 0, ≤ 168, at most two decimals; "12,5" is accepted as 12.5. */
export const weeklyHourSchema = preprocess(
  (value) => (value === '' || value === null || value === undefined ? undefined : parseDecimal(value)),
  // zod's number refuses NaN (text that is not a number) as a wrong type: that is the hours message, not 'required'.
  z
    .number({
      error: (issue) => (issue.input === undefined ? enrolmentMessages.required : enrolmentMessages.weeklyHour),
    })
    .check(
      z.refine((n) => n > 0 && n <= MAX_WEEKLY_HOURS, enrolmentMessages.weeklyHour),
      z.refine(hasAtMostTwoDecimals, enrolmentMessages.weeklyHour),
    ),
);

const dataUpdateSchema = z.optional(z.string().check(z.maxLength(40)));

/** Operator update codes (part 2 §4): 0 back to pending, 2 approve / reactivate / edit hours, 3 refuse, 4 suspend. */
export const enrolmentStateCodes = [0, 2, 3, 4] as const;

export const updateEnrolmentSchema = z.object({
  state: z.union([z.literal(0), z.literal(2), z.literal(3), z.literal(4)], { error: enrolmentMessages.stateCode }),
  weeklyHour: z.optional(weeklyHourSchema),
  dataUpdate: dataUpdateSchema,
});
export type UpdateEnrolmentInput = z.output<typeof updateEnrolmentSchema>;

/** A ranking score: required ('Il campo non può essere vuoto!'), an integer ("5" is accepted as 5). */
export const rankingScoreSchema = preprocess(
  (value) => {
    if (value === '' || value === null || value === undefined) return undefined;
    if (typeof value === 'string') return /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    return value;
  },
  z
    .number({
      error: (issue) => (issue.input === undefined ? enrolmentMessages.required : enrolmentMessages.rankingScore),
    })
    .check(z.refine((n) => Number.isInteger(n) && Math.abs(n) <= MAX_RANKING_SCORE, enrolmentMessages.rankingScore)),
);

export const rankEnrolmentSchema = z.object({ rankingScore: rankingScoreSchema, dataUpdate: dataUpdateSchema });
export type RankEnrolmentInput = z.output<typeof rankEnrolmentSchema>;

export const resetHoursResponseSchema = z.object({ reset: z.number().check(z.int()) });

/** 'Reset ore' as a background job (domain/jobs.ts RESET_HOURS_JOB): its status, and how many were reset once done. */
export const resetHoursStatusSchema = resultJobStatusSchema(resetHoursResponseSchema);
export type ResetHoursStatus = z.output<typeof resetHoursStatusSchema>;

/** A CSV file handed to the browser to save. */
export const csvFileSchema = z.object({ fileName: z.string(), content: z.string() });
export type CsvFile = z.output<typeof csvFileSchema>;

export const importEnrolmentsSchema = z.object({
  fileContentBase64: z
    .string({ error: enrolmentMessages.noFile })
    .check(z.maxLength(MAX_IMPORT_BODY_BYTES, enrolmentMessages.fileTooLarge)),
  contentType: z.string({ error: enrolmentMessages.unsupportedFile }).check(z.maxLength(200)),
  updateIsees: z._default(z.boolean(), false),
  removeOldSubscriptions: z._default(z.boolean(), false),
});
export type ImportEnrolmentsInput = z.output<typeof importEnrolmentsSchema>;

export const importRowSchema = z.object({
  fiscalCode: z.string(),
  lastName: z.string(),
  firstName: z.string(),
  rankingScore: z.nullable(z.number().check(z.int())),
  weeklyHour: z.nullable(z.number()),
  iseeValueCents: z.nullable(z.number().check(z.int())),
  iseeYear: z.nullable(z.number().check(z.int())),
  /** What the row changes, in Italian ('punteggio 3 → 5', 'nuovo ISEE 12.000,00 € (2026)'). */
  changes: z.array(z.string()),
});
export type ImportRow = z.output<typeof importRowSchema>;

export const importPreviewSchema = z.object({
  add: z.array(importRowSchema),
  update: z.array(importRowSchema),
  remove: z.array(importRowSchema),
  unchanged: z.number().check(z.int()),
  rejected: z.array(
    z.object({ line: z.number().check(z.int()), fiscalCode: z.nullable(z.string()), reason: z.string() }),
  ),
  /** Rows of registered citizens whose names in the file differ from the registry's (the registry's are kept). */
  differentNames: z.array(
    z.object({ line: z.number().check(z.int()), fiscalCode: z.string(), inFile: z.string(), registered: z.string() }),
  ),
  applied: z.boolean(),
  /** The stored plan of this preview: 'Applica' sends it back (POST …/import/apply), and exactly that is applied. */
  previewId: z.nullable(z.string()),
});
export type ImportPreview = z.output<typeof importPreviewSchema>;

/** 'Applica': the preview the operator saw, by its id. */
export const applyImportSchema = z.object({
  previewId: z
    .string({ error: enrolmentMessages.previewRequired })
    .check(
      z.trim(),
      z.minLength(1, enrolmentMessages.previewRequired),
      z.maxLength(100, enrolmentMessages.previewNotFound),
    ),
});
export type ApplyImportInput = z.output<typeof applyImportSchema>;

/** The import's background run (functions/jobs, kind 'enrolment-import'; done/total: rows, planned changes, applied so far and in all): asked on mount and every IMPORT_POLL_MS while it runs. */
export const importStatusSchema = z.extend(jobStatusSchema, {
  isRunning: z.boolean(),
  /** What the applied preview holds. */
  summary: z.nullable(
    z.object({
      add: z.number().check(z.int()),
      update: z.number().check(z.int()),
      remove: z.number().check(z.int()),
      rejected: z.number().check(z.int()),
    }),
  ),
});
export type ImportStatus = z.output<typeof importStatusSchema>;
export const IMPORT_POLL_MS = 1000;
