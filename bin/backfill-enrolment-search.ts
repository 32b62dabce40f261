/**
 * For emergencies: the data migration 'enrolment-search-item-v1' (functions/migrations) run again by hand,
 * whatever the table records: the search item of every subscription. Each deployment runs the migrations
 * itself (README, "Deploy"). Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:enrolment-search (AWS credentials of the account).
 */
import { runMigrationSteps } from '../functions/entry/migration-catalogue.ts';

const count = await runMigrationSteps('enrolment-search-item-v1');
console.log(`Search items written for ${count} subscriptions in ${process.env.TABLE_NAME}.`);
