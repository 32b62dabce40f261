/**
 * One-off after the deploy that brought the enrolment table's search items (README, "Deploy"): writes the
 * search item of every subscription (what the surname and first-name filters read). Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:enrolment-search (AWS credentials of the account).
 */
import { backfillEnrolmentSearch } from '../functions/subscriptions/repository.ts';

const count = await backfillEnrolmentSearch();
console.log(`Search items written for ${count} subscriptions in ${process.env.TABLE_NAME}.`);
