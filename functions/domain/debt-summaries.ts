import * as z from 'zod/mini';
import { preprocess } from './validation.ts';
import {
  DEBT_DEFAULT_PAGE_SIZE,
  DEBT_EXPORT_PAGE_SIZE,
  DEBT_PAGE_SIZES,
  DEBT_TOTALS_START_YEAR,
  debtListMessages,
  debtSorts,
  debtTotalKeys,
  type DebtSummaryRow,
} from './debt-summary-rules.ts';

/** The payment list's API payloads; its rules are in debt-summary-rules.ts (no zod), re-exported here. */
export {
  debtListMessages,
  paymentListTexts,
  DEBT_TOTALS_START_YEAR,
  DEBT_PAGE_SIZES,
  DEBT_DEFAULT_PAGE_SIZE,
  DEBT_EXPORT_PAGE_SIZE,
  debtSorts,
  type DebtSort,
  DEBT_FILTER_COUNT_CAP,
  debtTotalKeys,
  type DebtTotals,
  zeroTotals,
  type DebtSummaryRow,
  type SummaryPosition,
  type SummaryPerson,
  type DebtSummary,
  summarize,
  summaryPersonOf,
  sameSummary,
  totalsDelta,
  addTotals,
  isZeroDelta,
  normaliseName,
  nameKey,
  readNameFilter,
  compareRows,
  paymentsWorkbookName,
  MISSING_ISEE_NAMES,
} from './debt-summary-rules.ts';

const int = z.number().check(z.int());
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const yearSchema = preprocess(
  emptyToUndefined,
  z.optional(
    z.coerce
      .number({ error: debtListMessages.year })
      .check(
        z.int(debtListMessages.year),
        z.gte(DEBT_TOTALS_START_YEAR, debtListMessages.year),
        z.lte(2100, debtListMessages.year),
      ),
  ),
);

/** GET /api/calls/{id}/payment-totals: the call (path) and the year (default: the current one in Rome). */
export const debtTotalsQuerySchema = z.object({ anno: yearSchema });
export type DebtTotalsQuery = z.output<typeof debtTotalsQuerySchema>;

/**
 * The Payment filter (name, chkNoSendMail, announcementId = the call in the path, anno), the order and
 * the page. `name` is a prefix: of "cognome nome" (normalised) or, when it holds a digit, of the fiscal code.
 */
export const debtListQuerySchema = z.object({
  name: preprocess(
    emptyToUndefined,
    z.optional(z.string({ error: debtListMessages.name }).check(z.trim(), z.maxLength(100, debtListMessages.name))),
  ),
  chkNoSendMail: z.pipe(
    preprocess(emptyToUndefined, z.optional(z.enum(['true', 'false'], { error: debtListMessages.chkNoSendMail }))),
    z.transform((v) => v === 'true'),
  ),
  /** Only the citizens with a payment to reconcile (issue 21). */
  chkDaRiconciliare: z.pipe(
    preprocess(emptyToUndefined, z.optional(z.enum(['true', 'false'], { error: debtListMessages.chkDaRiconciliare }))),
    z.transform((v) => v === 'true'),
  ),
  anno: yearSchema,
  sort: preprocess(emptyToUndefined, z._default(z.enum(debtSorts, { error: debtListMessages.sort }), 'nome')),
  limit: preprocess(
    emptyToUndefined,
    z._default(
      z.coerce
        .number({ error: debtListMessages.pageSize })
        .check(
          z.refine(
            (n) => (DEBT_PAGE_SIZES as readonly number[]).includes(n) || n === DEBT_EXPORT_PAGE_SIZE,
            debtListMessages.pageSize,
          ),
        ),
      DEBT_DEFAULT_PAGE_SIZE,
    ),
  ),
  // A merged reading's cursor holds every shard's (and word's) place: up to 24 sort keys, about 1,900 characters.
  cursor: z.optional(z.string().check(z.maxLength(4000))),
});
export type DebtListQuery = z.output<typeof debtListQuerySchema>;

/** operator-admin §3 "Debt summary row". */
export const debtSummaryRowSchema = z.object({
  userId: z.string(),
  cognome: z.string(),
  nome: z.string(),
  codiceFiscale: z.string(),
  telefono: z.nullable(z.string()),
  email: z.nullable(z.string()),
  /** Cents. */
  importoTotale: int,
  paymentIds: z.array(z.string()),
  /** Positions with a payment to reconcile ('Pagamento da riconciliare'). */
  daRiconciliare: int,
}) satisfies z.ZodMiniType<DebtSummaryRow>;

export const debtTotalsSchema = z.object(
  Object.fromEntries(debtTotalKeys.map((key) => [key, int])) as Record<(typeof debtTotalKeys)[number], typeof int>,
);

export const debtTotalsResponseSchema = z.extend(debtTotalsSchema, { callId: z.string(), anno: int, dal: z.string() });
export type DebtTotalsResponse = z.output<typeof debtTotalsResponseSchema>;

export const debtListResponseSchema = z.object({
  items: z.array(debtSummaryRowSchema),
  nextCursor: z.nullable(z.string()),
  /** 'Record trovati'. */
  count: int,
  /** True when a text filter matched more than DEBT_FILTER_COUNT_CAP rows: count and sum are lower bounds. */
  countCapped: z.boolean(),
  /** The sum of the matching rows' importoTotale, cents. */
  sum: int,
  callName: z.string(),
  anno: int,
});
export type DebtListResponse = z.output<typeof debtListResponseSchema>;

/** The subscribers a month's generation left without a position: 'ISEE scaduto o mancante' (design §4). */
export const missingIseeResponseSchema = z.object({
  anno: int,
  months: z.array(
    z.object({
      mese: int,
      count: int,
      people: z.array(z.object({ fiscalCode: z.string(), cognome: z.string(), nome: z.string() })),
      generatedAt: z.string(),
    }),
  ),
});
export type MissingIseeResponse = z.output<typeof missingIseeResponseSchema>;
