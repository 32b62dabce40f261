/**
 * For emergencies: the data migration 'payment-list-gsi6-v1' (functions/migrations) run again by hand, whatever
 * the table records: the gsi6 key of the payment-list rows without one. Each deployment runs the migrations
 * itself (README, "Deploy"). Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:payment-list (AWS credentials of the account).
 */
import { runMigrationSteps } from '../functions/migrations/catalogue.ts';

const count = await runMigrationSteps('payment-list-gsi6-v1');
console.log(`gsi6 keys written for ${count} payment-list rows in ${process.env.TABLE_NAME}.`);
