/**
 * A citizen's access request (GDPR art. 15; docs/operations.md): everything the table holds about one fiscal
 * code, and what was done with it, in one object (npm run gdpr:export writes it to one file).
 *
 * - the fiscal-code lookup and the sign-ins (USERCF#<cf>), the user record and its search item (USER#<id>);
 * - what hangs off the user: subscriptions (gsi1), debt positions (gsi1), ISEE (gsi2), support tickets (gsi2),
 *   and the payment-list row of every call and year the positions fall in;
 * - the history of each of those records (AUDIT#<entity>#<id>, one Query each);
 * - every audit entry the citizen wrote on any other record, day by day over the period asked: every shard of
 *   each day (auditOfDay reads the 16 shards, and the unsharded partition of entries older than the shards);
 * - the documents' keys in the documents bucket (ISEE attestations, request files), to copy beside the file.
 *
 * Reads only; run with the account's credentials and TABLE_NAME (and CURSOR_SECRET any, like audit:day).
 */
import { auditOfDay } from '../functions/adapters/audit-log.ts';
import { queryAll, type StoredItem } from '../functions/adapters/dynamo.ts';
import { keys } from '../functions/adapters/table.ts';
import { mapAtMost } from '../functions/domain/at-most.ts';
import { isValidFiscalCode } from '../functions/domain/fiscal-code.ts';

/** The portal's first day: no audit entry is older. */
export const PORTAL_FIRST_DAY = '2025-01-01';

export interface GdprExportOptions {
  /** The period of the citizen's own actions (yyyy-mm-dd, UTC), both ends included: default the portal's whole life. */
  from?: string;
  to?: string;
  /** When the export is made (the file says it). */
  now?: Date;
}

const partition = (pk: string) =>
  queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
const onIndex = (index: 'gsi1' | 'gsi2', pk: string) =>
  queryAll({ IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ':pk': pk } });
/** An item without the table's own keys: what the portal holds, not how it is stored. */
const fields = (item: StoredItem) =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !/^(pk|sk|gsi\dpk|gsi\dsk)$/.test(name)));

function days(from: string, to: string): string[] {
  const all: string[] = [];
  for (
    const day = new Date(`${from}T00:00:00Z`);
    day.toISOString().slice(0, 10) <= to;
    day.setUTCDate(day.getUTCDate() + 1)
  )
    all.push(day.toISOString().slice(0, 10));
  return all;
}

/** Every audit entry written by `fiscalCode` in a day: all of the day's shards, page by page. */
async function actionsOfDay(day: string, fiscalCode: string) {
  const found: Awaited<ReturnType<typeof auditOfDay>>['items'] = [];
  let cursor: string | undefined;
  do {
    const page = await auditOfDay(day, { limit: 500, cursor });
    found.push(
      ...page.items.filter(
        (entry) => (entry.who as { fiscalCode?: string } | undefined)?.fiscalCode?.toUpperCase() === fiscalCode,
      ),
    );
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

/** Keys of the documents bucket named by the gathered records (ISEE attestations, request and call files). */
function documentKeys(records: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string' && /^(isee|subscriptions)\/[^/]+\//.test(value)) found.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(records);
  return [...found].sort();
}

export async function gdprExport(fiscalCodeInput: string, options: GdprExportOptions = {}) {
  const fiscalCode = fiscalCodeInput.trim().toUpperCase();
  if (!isValidFiscalCode(fiscalCode)) throw new Error(`Codice fiscale non valido: ${fiscalCodeInput}`);
  const now = options.now ?? new Date();
  const from = options.from ?? PORTAL_FIRST_DAY;
  const to = options.to ?? now.toISOString().slice(0, 10);
  const lookup = await partition(keys.userByFiscalCode(fiscalCode).pk);
  const userId = lookup.find((item) => item.sk === keys.userByFiscalCode(fiscalCode).sk)?.userId as string | undefined;

  const [user, subscriptions, positions, isees, tickets] = userId
    ? await Promise.all([
        partition(keys.user(userId).pk),
        onIndex('gsi1', keys.subscriptionsOfUser(userId)),
        onIndex('gsi1', keys.positionsOfUser(userId)),
        onIndex('gsi2', keys.iseesOfUser(userId)),
        onIndex('gsi2', keys.ticketsOfUser(userId)),
      ])
    : [[], [], [], [], []];

  // The payment-list row of each call and year the citizen's positions fall in.
  const callYears = [...new Set(positions.map((p) => `${p.callId}#${p.anno}`))];
  const paymentList = userId
    ? (
        await mapAtMost(callYears, 8, async (key) => {
          const [callId, anno] = key.split('#');
          return (await partition(keys.debtSummariesOf(callId!, Number(anno)))).filter(
            (item) => item.sk === `USER#${userId}` || item.sk === `RECONCILE#${userId}`,
          );
        })
      ).flat()
    : [];

  // The history of each record: its own audit partition.
  const recordIds: [string, string][] = [
    ...(userId ? [['user', userId] as [string, string]] : []),
    ...subscriptions.map((s) => ['subscription', String(s.id)] as [string, string]),
    ...positions.map((p) => ['position', String(p.iud)] as [string, string]),
    ...isees.map((i) => ['isee', String(i.id)] as [string, string]),
    ...tickets.map((t) => ['ticket', String(t.id)] as [string, string]),
  ];
  const history = (
    await mapAtMost(recordIds, 8, async ([entity, id]) => (await partition(keys.auditOf(entity, id))).map(fields))
  ).flat();

  // What the citizen did anywhere, every shard of every day of the period.
  const actions = (await mapAtMost(days(from, to), 8, (day) => actionsOfDay(day, fiscalCode))).flat();

  const records = {
    fiscalCodeLookup: lookup.map(fields),
    user: user.map(fields),
    subscriptions: subscriptions.map(fields),
    positions: positions.map(fields),
    paymentList: paymentList.map(fields),
    isees: isees.map(fields),
    tickets: tickets.map(fields),
  };
  return {
    fiscalCode,
    exportedAt: now.toISOString(),
    period: { from, to },
    found: Boolean(userId) || actions.length > 0,
    records,
    history,
    actions,
    documents: documentKeys(records),
  };
}
