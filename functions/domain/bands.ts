import * as z from 'zod/mini';
import { messages } from './messages.ts';
import { hasAtMostTwoDecimals } from './money.ts';
import { requiredText } from './validation.ts';

// The bands' rules, without zod (band-rules.ts), for the importers of this module.
export { bandLabel, hourlyQuota } from './band-rules.ts';

/** The largest amount a band accepts, in euro: far above any real ISEE, low enough to catch typos. */
const MAX_AMOUNT = 10_000_000;

const amount = z
  .number({
    error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : messages.band.amount),
  })
  .check(
    z.gte(0, messages.band.negative),
    z.lte(MAX_AMOUNT, messages.band.amount),
    z.refine(hasAtMostTwoDecimals, messages.band.amount),
  );

/** The band a form or an API client sends, amounts in euro. */
export const bandInputSchema = z
  .object({
    name: requiredText(100),
    min: amount,
    max: amount,
    percent: z.optional(
      z.nullable(
        z
          .number({ error: messages.band.percent })
          .check(
            z.gte(0, messages.band.percent),
            z.lte(100, messages.band.percent),
            z.refine(hasAtMostTwoDecimals, messages.band.percent),
          ),
      ),
    ),
    fixedCost: amount,
  })
  .check(z.refine((band) => band.min <= band.max, { message: messages.band.minAboveMax, path: ['max'] }));

export type BandInput = z.output<typeof bandInputSchema>;

export const bandSchema = z.object({
  id: z.string(),
  name: z.string(),
  min: z.number(),
  max: z.number(),
  percent: z.nullable(z.number()),
  fixedCost: z.number(),
  /** percent/100 × fixedCost when the band has a percentage, else fixedCost. */
  hourlyQuota: z.number(),
});
export type Band = z.output<typeof bandSchema>;
