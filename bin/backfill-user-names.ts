/**
 * One-off after the deploy that brought the users' names key (README, "Deploy"): writes the names item of
 * every user stored before it, so searching by last and first name together finds them. Idempotent.
 * Usage: TABLE_NAME=<the data stack's table> npm run backfill:user-names (AWS credentials of the account).
 */
import { backfillUserNames } from '../functions/users/repository.ts';

const count = await backfillUserNames();
console.log(`Names items written for ${count} users in ${process.env.TABLE_NAME}.`);
