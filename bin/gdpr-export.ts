/**
 * A citizen's access request (GDPR art. 15): everything the portal's table holds about a fiscal code and every
 * audit entry about them or written by them (every shard of every day), in one JSON file (lib/gdpr-export.ts).
 * Usage: TABLE_NAME=<the data stack's table> npm run gdpr:export -- <fiscal code> [--from yyyy-mm-dd] [--to yyyy-mm-dd] [--out <file>]
 * (AWS credentials of the account). Prints the file's name and the documents to copy beside it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';

// The audit pages' cursors live only in this process: any key signs them.
process.env.CURSOR_SECRET ||= randomBytes(32).toString('base64url');
const { gdprExport } = await import('../lib/gdpr-export.ts');

const usage = 'Usage: npm run gdpr:export -- <fiscal code> [--from yyyy-mm-dd] [--to yyyy-mm-dd] [--out <file>]';
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
});
const [fiscalCode] = positionals;
const day = /^\d{4}-\d{2}-\d{2}$/;
if (!fiscalCode || [values.from, values.to].some((value) => value !== undefined && !day.test(value))) {
  console.error(usage);
  process.exit(2);
}
const result = await gdprExport(fiscalCode, { from: values.from, to: values.to });
const out = values.out ?? `gdpr-${result.fiscalCode}-${result.exportedAt.slice(0, 10)}.json`;
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
console.log(
  `${out}: ${result.found ? '' : 'nessun dato per questo codice fiscale; '}${result.history.length} voci di storico, ${result.actions.length} azioni del cittadino (${result.period.from} – ${result.period.to})`,
);
for (const key of result.documents) console.log(`documento: aws s3 cp s3://$DOCUMENTS_BUCKET/${key} .`);
