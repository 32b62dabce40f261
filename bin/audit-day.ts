/**
 * Every audit entry of a day (UTC), oldest first, as JSON lines: who changed which record, when, before and
 * after. The day's shards are read and merged in time order (functions/adapters/audit-log.ts auditOfDay).
 * Usage: TABLE_NAME=<the data stack's table> npm run audit:day -- 2026-03-01 (AWS credentials of the account).
 */
import { randomBytes } from 'node:crypto';

// The pages' cursors live only in this process: any key signs them.
process.env.CURSOR_SECRET ||= randomBytes(32).toString('base64url');
const { auditOfDay } = await import('../functions/adapters/audit-log.ts');

const day = process.argv[2];
if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error('Usage: npm run audit:day -- yyyy-mm-dd');
let cursor: string | undefined;
do {
  const page = await auditOfDay(day, { limit: 500, cursor });
  for (const entry of page.items) console.log(JSON.stringify(entry));
  cursor = page.nextCursor ?? undefined;
} while (cursor);
