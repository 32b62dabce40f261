/**
 * One-off after the deploy that brought the payment list's gsi6 key (a surname's rows in amount order,
 * README "The payment list"): keys the rows stored before it. Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:payment-list (AWS credentials of the account).
 */
import { DEBT_TOTALS_START_YEAR } from '../functions/domain/debt-summaries.ts';
import { backfillDebtGroupKeys } from '../functions/payment-list/repository.ts';

const count = await backfillDebtGroupKeys(DEBT_TOTALS_START_YEAR, new Date().getUTCFullYear() + 1);
console.log(`gsi6 keys written for ${count} payment-list rows in ${process.env.TABLE_NAME}.`);
