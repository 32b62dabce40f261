import * as z from 'zod/mini';
import { iseeExpiry, type FeeIsee } from './fee.ts';
import { validatedIsee } from './latest-isee.ts';
import { italianDay } from './period.ts';
import { jobStatusSchema } from './job-schemas.ts';
import { pageOf } from './validation.ts';
import { unfinishedRun, type JobRecord } from './jobs.ts';

/**
 * Keeping ISEE current across the new year (issue 24): a call's 'Aggiorna ISEE da INPS' and the January job
 * ask INPS for each subscriber's attestation; the expiry job lists the ISEE expiring and expired among active
 * subscribers and, from the configured day of December, reminds those expiring on 31 December (IO and
 * e-mail, once). Pure rules and the API's shapes; the work is functions/isee/refresh.ts, run as background
 * jobs (functions/jobs).
 */

/** The background jobs (functions/entry/job-task.ts): a call's refresh (key: call id), the January refresh and the expiry list (key: year). */
export const CALL_REFRESH_JOB = 'isee-refresh-call';
export const NEW_YEAR_JOB = 'isee-new-year';
export const EXPIRY_JOB = 'isee-expiry';

/**
 * A refresh's report and starting point: a run that ended without finishing (failed, cut at a timeout, ended by
 * the jobs' machine at its two-hour limit, or dead) is resumed — its report, so whoever it has an answer for is
 * not asked INPS again, and its cursor —; otherwise a new report.
 */
export function refreshStart(
  previous: JobRecord | null,
  now: Date,
  newReportId: () => string,
): { reportId: string; resumeCursor?: string } {
  const unfinished = unfinishedRun(previous, now);
  const reportId = unfinished?.input.reportId;
  if (typeof reportId !== 'string') return { reportId: newReportId() };
  return unfinished!.cursor ? { reportId, resumeCursor: unfinished!.cursor } : { reportId };
}

/** What a refresh found for one subscriber. */
export const refreshOutcomes = ['NEW', 'REVIEW', 'UNCHANGED', 'NONE', 'ERROR'] as const;
export type RefreshOutcome = (typeof refreshOutcomes)[number];
export const refreshOutcomeLabel: Record<RefreshOutcome, string> = {
  NEW: 'Nuovo valore da INPS',
  REVIEW: 'Con omissioni o difformità: da verificare',
  UNCHANGED: 'Invariato',
  NONE: 'Nessun ISEE valido presso INPS',
  ERROR: 'INPS non ha risposto: da riprovare',
};

/** The fetch's outcome (functions/isee/inps-use-cases.ts) as the refresh report counts it. */
const FETCH_OUTCOMES: Record<'VALIDATED' | 'REVIEW' | 'UNCHANGED' | 'NOT_FOUND', RefreshOutcome> = {
  VALIDATED: 'NEW',
  REVIEW: 'REVIEW',
  UNCHANGED: 'UNCHANGED',
  NOT_FOUND: 'NONE',
};
export const refreshOutcomeOf = (fetch: keyof typeof FETCH_OUTCOMES): RefreshOutcome => FETCH_OUTCOMES[fetch];

export const refreshRowSchema = z.object({
  userId: z.string(),
  fiscalCode: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  outcome: z.enum(refreshOutcomes),
  outcomeLabel: z.string(),
  /** The ISEE in force after the refresh, in euro (null: none). */
  value: z.nullable(z.number()),
  detail: z.nullable(z.string()),
});
export type RefreshRow = z.output<typeof refreshRowSchema>;

/** How many to show of each list in the report (the counts are complete). */
export const REFRESH_LIST_SIZE = 50;

/** The status of a refresh job and its report: counts per outcome and the people with a new value, none, omissions or an error. */
export const refreshStatusSchema = z.extend(jobStatusSchema, {
  isUpdating: z.boolean(),
  counts: z.object(
    Object.fromEntries(refreshOutcomes.map((o) => [o, z.number().check(z.int())])) as Record<
      RefreshOutcome,
      z.ZodMiniNumber
    >,
  ),
  lists: z.object({
    NEW: z.array(refreshRowSchema),
    REVIEW: z.array(refreshRowSchema),
    NONE: z.array(refreshRowSchema),
    ERROR: z.array(refreshRowSchema),
  }),
});
export type RefreshStatus = z.output<typeof refreshStatusSchema>;

// ---------------------------------------------------------------------------------------------------
// Expiry and reminders
// ---------------------------------------------------------------------------------------------------

/**
 * Where an active subscriber's ISEE stands at the end of `year`: IN_SCADENZA (validated, expiring on or after
 * today but within the year: a DSU lasts until 31 December), SCADUTO (validated, expired before today),
 * IN_VERIFICA (the newest waits for the operators: none counts meanwhile), MANCANTE (no validated ISEE);
 * null when it is valid beyond the year (nothing to do).
 */
export const expiryStatuses = ['IN_SCADENZA', 'SCADUTO', 'IN_VERIFICA', 'MANCANTE'] as const;
export type ExpiryStatus = (typeof expiryStatuses)[number];
export const expiryStatusLabel: Record<ExpiryStatus, string> = {
  IN_SCADENZA: 'In scadenza',
  SCADUTO: 'Scaduto',
  IN_VERIFICA: 'Da verificare',
  MANCANTE: 'Mancante',
};

export function expiryStatus(isee: FeeIsee | null | undefined, today: string): ExpiryStatus | null {
  if (isee?.state === 'LOADED') return 'IN_VERIFICA';
  const validated = validatedIsee(isee);
  if (!validated) return 'MANCANTE';
  const expiry = iseeExpiry(validated);
  if (expiry < today) return 'SCADUTO';
  return expiry <= `${today.slice(0, 4)}-12-31` ? 'IN_SCADENZA' : null;
}

/** The reminders go from `from` (MM-DD, the deployment's ISEE_REMINDER_FROM, default 12-01) to the year's end. */
export const DEFAULT_REMINDER_FROM = '12-01';
export const REMINDER_FROM = /^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;
export const remindersDue = (today: string, from: string): boolean =>
  today >= `${today.slice(0, 4)}-${REMINDER_FROM.test(from) ? from : DEFAULT_REMINDER_FROM}`;

/** Only an ISEE expiring on 31 December of the current year is reminded (once): the others are listed. */
export const shouldRemind = (status: ExpiryStatus | null, isee: FeeIsee | null | undefined, today: string) =>
  status === 'IN_SCADENZA' && !!isee && iseeExpiry(isee) === `${today.slice(0, 4)}-12-31`;

/** The reminder, for IO (subject 10–120, markdown 80–10000) and for the e-mail. */
export function reminderContent(expiry: string, portalUrl: string) {
  const day = italianDay(expiry);
  const link = `${portalUrl.replace(/\/+$/, '')}/caricamento_ISEE`;
  const subject = `Il tuo ISEE scade il ${day}`;
  const lines = [
    `Il tuo ISEE scade il ${day}.`,
    'Dal 1° gennaio le quote dei servizi sociali a cui sei iscritto si calcolano solo con un ISEE valido: senza, il Comune non può calcolare la quota del mese.',
    `Quando avrai presentato la nuova DSU (sul sito dell’INPS, a un CAF o al Comune), recupera il nuovo ISEE da INPS dal portale: ${link}`,
  ];
  return {
    subject,
    markdown: lines.join('\n\n'),
    text: `${lines.join('\n\n')}\n\nComune — Portale dei servizi sociali\n`,
  };
}

/** How a reminder went, per channel: SENT, or why not (no IO profile or sender blocked, no e-mail, a failure). */
export const reminderChannelStates = ['SENT', 'NO_CHANNEL', 'FAILED'] as const;
export type ReminderChannelState = (typeof reminderChannelStates)[number];

export const expiryRowSchema = z.object({
  userId: z.string(),
  fiscalCode: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(expiryStatuses),
  statusLabel: z.string(),
  /** The expiry of the ISEE listed (null: none). */
  scadenza: z.nullable(z.string()),
  remindedAt: z.nullable(z.string()),
  io: z.nullable(z.enum(reminderChannelStates)),
  email: z.nullable(z.enum(reminderChannelStates)),
  /** The citizen has an ISEE valid for next January now (fetched or validated since the list was made). */
  renewed: z.boolean(),
  checkedAt: z.string(),
});
export type ExpiryRow = z.output<typeof expiryRowSchema>;

export const expiryListSchema = z.extend(pageOf(expiryRowSchema), {
  year: z.number().check(z.int()),
  remindersFrom: z.string(),
  job: z.extend(jobStatusSchema, { isUpdating: z.boolean() }),
  newYearJob: refreshStatusSchema,
});
export type ExpiryList = z.output<typeof expiryListSchema>;
