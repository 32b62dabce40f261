/**
 * One-off after a deploy that changed the users' search item (README, "Deploy"): writes the search item of
 * every user (the names, e-mail, phone, fiscal code and state the combined filters read). Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:user-names (AWS credentials of the account).
 */
import { backfillUserNames } from '../functions/users/repository.ts';

const count = await backfillUserNames();
console.log(`Search items written for ${count} users in ${process.env.TABLE_NAME}.`);
