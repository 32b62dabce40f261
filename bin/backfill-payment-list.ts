/**
 * For emergencies: the data migration 'payment-list-shards-v1' (functions/migrations) run again by hand,
 * whatever the table records: every payment-list row's index keys as they are now (gsi6, the list's shards
 * "DEBTS#<callId>#<anno>#<shard>"). Each deployment runs the migrations itself (README, "Deploy"). Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:payment-list (AWS credentials of the account).
 */
import { runMigrationSteps } from '../functions/entry/migration-catalogue.ts';

const count = await runMigrationSteps('payment-list-shards-v1');
console.log(`Index keys rewritten for ${count} payment-list rows in ${process.env.TABLE_NAME}.`);
