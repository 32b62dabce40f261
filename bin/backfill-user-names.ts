/**
 * For emergencies: the data migration 'users-search-item-v1' (functions/migrations) run again by hand, whatever
 * the table records: the search item of every user. Each deployment runs the migrations itself (README,
 * "Deploy"); this is for a table someone changed outside the portal. Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:user-names (AWS credentials of the account).
 */
import { runMigrationSteps } from '../functions/entry/migration-catalogue.ts';

const count = await runMigrationSteps('users-search-item-v1');
console.log(`Search items written for ${count} users in ${process.env.TABLE_NAME}.`);
