/**
 * One-off after a deploy that changed the payment list's index keys (gsi6, a surname's rows in amount order;
 * then the list's shards "DEBTS#<callId>#<anno>#<shard>", README "DynamoDB keys"): rewrites the keys of the rows
 * stored before it, each conditional on its version. Idempotent; until it has run those rows are missing from
 * the list.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:payment-list (AWS credentials of the account).
 */
import { DEBT_TOTALS_START_YEAR } from '../functions/domain/debt-summaries.ts';
import { backfillDebtListKeys } from '../functions/payment-list/repository.ts';

const count = await backfillDebtListKeys(DEBT_TOTALS_START_YEAR, new Date().getUTCFullYear() + 1);
console.log(`Index keys rewritten for ${count} payment-list rows in ${process.env.TABLE_NAME}.`);
