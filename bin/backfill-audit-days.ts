/**
 * One-off after the deploy that spread the audit entries of a day over shards (gsi1 "AUDIT#<day>#<shard>",
 * README "DynamoDB keys"): moves the entries stored before it, day by day from the portal's start (2025-01-01,
 * or --from yyyy-mm-dd) to today. One Query per day, no Scan. Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:audit-days [-- --from 2025-01-01] (AWS credentials).
 */
import { backfillAuditDays } from '../functions/adapters/audit-log.ts';
import { DEBT_TOTALS_START_YEAR } from '../functions/domain/debt-summaries.ts';

const fromArg = process.argv.indexOf('--from');
const from = fromArg > 0 ? process.argv[fromArg + 1] : `${DEBT_TOTALS_START_YEAR}-01-01`;
if (!from || !/^\d{4}-\d{2}-\d{2}$/.test(from)) throw new Error('--from takes a date yyyy-mm-dd');
const moved = await backfillAuditDays(from);
console.log(`${moved} audit entries moved to their day's shard in ${process.env.TABLE_NAME}.`);
