import { withoutEmpty, type StoredItem } from '../adapters/dynamo.ts';
import { keys, numericSortKey } from '../adapters/table.ts';
import type { EnrolmentIsee, SubscriptionRecord } from '../domain/subscription-record.ts';
import { normaliseSearchText } from '../domain/user-rules.ts';

/**
 * A subscription is ONE item at pk "CALL#<callId>", sk "SUBSCRIBER#<userId>": a second request of the same
 * citizen for the same call is a failed conditional write, whatever the timing.
 * gsi1 = "USER#<userId>#SUBSCRIPTIONS" / insert time (the citizen's list, newest first);
 * gsi2 = "CALL#<callId>#SUBSCRIPTIONS" / "<FISCALCODE>#<userId>" (the call's subscribers: count, refused delete,
 * fiscal-code prefix of the enrolment table); gsi3–gsi6: the enrolment table's orders (below).
 */
export const toRecord = (item: StoredItem): SubscriptionRecord => ({
  id: item.id,
  state: item.state,
  announcementId: item.announcementId,
  announcement: item.announcement,
  rankingScore: item.rankingScore ?? null,
  weeklyHour: item.weeklyHour ?? null,
  cost: item.cost ?? null,
  dataInsert: item.dataInsert,
  dataUpdate: item.dataUpdate,
  userId: item.userId,
  fiscalCode: item.fiscalCode,
  firstName: item.firstName,
  lastName: item.lastName,
  files: item.files ?? [],
  isee: item.isee ?? null,
});

// ---------------------------------------------------------------------------------------------------
// Enrolment management (issue 7): the operator's table of a call's subscriptions.
//
// What the table filters and sorts on is denormalised onto the subscription item, and each order or
// prefix has its own index, under a partition per call (the generic GSIs are shared with the users
// search: their partition values never collide, so no new index is needed):
// - gsi2 = "CALL#<c>#SUBSCRIPTIONS" / "<FISCALCODE>#<userId>"  (fiscal-code prefix; the count and the approved
//   ones are read from the call's own partition, strongly consistent)
// - gsi3 = "CALL#<c>#ENROL#RANK"  / rankKey: "S#<score + 10^9, 10 digits>#<userId>", "U#<userId>" unscored
// - gsi4 = "CALL#<c>#ENROL#ISEE"  / iseeKey: "S#<cents, 12 digits>#<userId>", "U#<userId>" without ISEE
// - gsi5 = "CALL#<c>#ENROLSEARCH#LAST"  / "<lastname>#<firstname>#<userId>" (normalised: lower case, no accents)
// - gsi6 = "CALL#<c>#ENROLSEARCH#FIRST" / "<firstname>#<lastname>#<userId>"
//   These two key a small search item per subscription (pk "CALL#<c>", sk "ENROLSEARCH#<userId>"), not the
//   subscription: a name prefix must read every match to order it, and a common one ("Ros…") matches
//   hundreds. The search item holds only what the filters and orders read (250 bytes against the
//   subscription's 1,240): dynalite reads 700 of them in less than half the time (p50 44 → 19 ms, measured).
//   The page's rows are then read whole. It is written after the subscription, only when what it holds
//   changed, and never over a newer version (its dataUpdate): a crash between the two writes leaves it a
//   version behind until the subscription's next write.
// Scored (or with-ISEE) rows are one key range and the others another: "unscored last" in both
// directions is two ranges read one after the other (the cursor says which), never a sort in memory.
//
// `total` is kept cheap by a counter item per call (pk "CALL#<c>", sk "ENROLMENT_COUNTS"): every write of
// a subscription ADDs the difference of what the item counts for before and after (all, per state, and
// per 200 € ISEE bucket, all and VALIDATED only). A COUNT over 5,000 items reads them all (≈260 RCU and
// ≈0.5 s on dynalite, measured): the counter is one GetItem. "ISEE above X" adds the buckets above X's
// and counts X's own bucket (≈1/300 of the range). dynalite has no transactions, so the counter write
// follows the subscription's conditional write: a crash between the two leaves it off by one, and the
// next full read of the call (export, import) rewrites it from the items (recountEnrolments).
// ---------------------------------------------------------------------------------------------------

export const ISEE_BUCKET_CENTS = 20_000;
const RANK_OFFSET = 1_000_000_000;
const COUNTS_SK = 'ENROLMENT_COUNTS';
export const enrolKeys = {
  rank: (callId: string) => `CALL#${callId}#ENROL#RANK`,
  isee: (callId: string) => `CALL#${callId}#ENROL#ISEE`,
  last: (callId: string) => `CALL#${callId}#ENROLSEARCH#LAST`,
  first: (callId: string) => `CALL#${callId}#ENROLSEARCH#FIRST`,
  search: (callId: string, userId: string) => ({ pk: `CALL#${callId}`, sk: `ENROLSEARCH#${userId}` }),
  counts: (callId: string) => ({ pk: `CALL#${callId}`, sk: COUNTS_SK }),
};

export const rankKey = (score: number | null, userId: string) =>
  score === null ? `U#${userId}` : `S#${String(score + RANK_OFFSET).padStart(10, '0')}#${userId}`;
export const iseeKey = (isee: EnrolmentIsee | null | undefined, userId: string) =>
  isee ? `S#${numericSortKey(isee.valueCents)}#${userId}` : `U#${userId}`;
export const normaliseFiscalCode = (text: string | null | undefined) =>
  (text ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The whole item of a subscription: its fields and every key and filter attribute derived from them. */
export function subscriptionItem(record: SubscriptionRecord): Record<string, unknown> {
  const { announcementId: callId, userId } = record;
  const nLast = normaliseSearchText(record.lastName);
  const nFirst = normaliseSearchText(record.firstName);
  const nFiscal = normaliseFiscalCode(record.fiscalCode);
  const item: Record<string, unknown> = {
    ...keys.subscription(callId, userId),
    gsi1pk: keys.subscriptionsOfUser(userId),
    gsi1sk: `${record.dataInsert}#${callId}`,
    gsi2pk: keys.subscriptionsOfCall(callId),
    gsi2sk: `${nFiscal}#${userId}`,
    gsi3pk: enrolKeys.rank(callId),
    gsi3sk: rankKey(record.rankingScore, userId),
    gsi4pk: enrolKeys.isee(callId),
    gsi4sk: iseeKey(record.isee, userId),
    nLast,
    nFirst,
    nFiscal,
    ...(record.isee ? { iseeCents: record.isee.valueCents } : {}),
    ...record,
  };
  return withoutEmpty(item);
}

/** The search item of a subscription (see above): what the name filters and the orders read. */
export function enrolmentSearchItem(record: SubscriptionRecord): Record<string, unknown> {
  const { announcementId: callId, userId } = record;
  const nLast = normaliseSearchText(record.lastName);
  const nFirst = normaliseSearchText(record.firstName);
  const item: Record<string, unknown> = {
    ...enrolKeys.search(callId, userId),
    gsi5pk: enrolKeys.last(callId),
    gsi5sk: `${nLast}#${nFirst}#${userId}`,
    gsi6pk: enrolKeys.first(callId),
    gsi6sk: `${nFirst}#${nLast}#${userId}`,
    userId,
    state: record.state,
    nLast,
    nFirst,
    rankingScore: record.rankingScore,
    iseeCents: record.isee?.valueCents,
    dataUpdate: record.dataUpdate,
  };
  return withoutEmpty(item);
}

export const searchedChanged = (before: SubscriptionRecord | null, after: SubscriptionRecord) =>
  !before ||
  before.state !== after.state ||
  before.rankingScore !== after.rankingScore ||
  (before.isee?.valueCents ?? null) !== (after.isee?.valueCents ?? null) ||
  before.firstName !== after.firstName ||
  before.lastName !== after.lastName;

/** The counters an item counts for (see above). */
export function countKeys(record: Pick<SubscriptionRecord, 'state' | 'isee'> | null): string[] {
  if (!record) return [];
  const counted = ['c_all', `c_${record.state}`];
  if (record.isee) {
    const bucket = Math.floor(record.isee.valueCents / ISEE_BUCKET_CENTS);
    counted.push(`b_${bucket}`);
    if (record.state === 'VALIDATED') counted.push(`v_${bucket}`);
  }
  return counted;
}

/** What to ADD to each counter when items go from `before` to `after`. */
export function countDeltas(
  changes: {
    before: Pick<SubscriptionRecord, 'state' | 'isee'> | null;
    after: Pick<SubscriptionRecord, 'state' | 'isee'> | null;
  }[],
) {
  const deltas: Record<string, number> = {};
  for (const { before, after } of changes) {
    for (const key of countKeys(before)) deltas[key] = (deltas[key] ?? 0) - 1;
    for (const key of countKeys(after)) deltas[key] = (deltas[key] ?? 0) + 1;
  }
  for (const key of Object.keys(deltas)) if (deltas[key] === 0) delete deltas[key];
  return deltas;
}
