/**
 * For emergencies: the data migration 'audit-day-shards-v1' (functions/migrations) run again by hand, whatever
 * the table records: the audit entries of each day written before its shards (gsi1 "AUDIT#<day>#<shard>",
 * README "DynamoDB keys") moved to their shard, day by day from 2025-01-01 to today. Each deployment runs the
 * migrations itself (README, "Deploy"). One Query per day, no Scan. Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:audit-days (AWS credentials of the account).
 */
import { runMigrationSteps } from '../functions/entry/migration-catalogue.ts';

const moved = await runMigrationSteps('audit-day-shards-v1');
console.log(`${moved} audit entries moved to their day's shard in ${process.env.TABLE_NAME}.`);
