/**
 * The single DynamoDB table and its keys, shared by the CDK stack, the local runtime and the repositories.
 *
 * Key design (every list is a Query, never a Scan):
 * - an entity lives at  pk = "<TYPE>#<id>", sk = "<TYPE>"            → GetItem by id
 * - gsi1 lists a collection in display order: gsi1pk = "<COLLECTION>", gsi1sk = sort key
 *     bands by min value ("BANDS"), services by name ("SERVICES"), audit entries by day ("AUDIT#<yyyy-mm-dd>#<shard>")
 * - gsi2 answers "who points at me": gsi2pk = "<PARENT>#<id>#<CHILDREN>", gsi2sk = child key
 *     e.g. the calls of a service ("SERVICE#<id>#CALLS"), the calls using a band ("BAND#<id>#CALLS")
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    // Users search (README, "DynamoDB keys"): one sparse prefix index per searchable field.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
    { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
  ],
} as const;

export const keys = {
  band: (id: string) => ({ pk: `BAND#${id}`, sk: 'BAND' }),
  bandsCollection: 'BANDS',
  callsUsingBand: (bandId: string) => `BAND#${bandId}#CALLS`,
  service: (id: string) => ({ pk: `SERVICE#${id}`, sk: 'SERVICE' }),
  servicesCollection: 'SERVICES',
  callsOfService: (serviceId: string) => `SERVICE#${serviceId}#CALLS`,
  call: (id: string) => ({ pk: `CALL#${id}`, sk: 'CALL' }),
  callsCollection: 'CALLS',
  /** Present only while the call is OPEN: the public board and a service's open calls read these. */
  openCallMarker: (id: string) => ({ pk: `CALL#${id}`, sk: 'OPEN' }),
  openCallsCollection: 'OPEN_CALLS',
  openCallsOfService: (serviceId: string) => `SERVICE#${serviceId}#OPEN_CALLS`,
  callBandLink: (callId: string, bandId: string) => ({ pk: `CALL#${callId}`, sk: `BAND#${bandId}` }),
  /** One subscription per citizen and call, by construction: the key is the pair. */
  subscription: (callId: string, userId: string) => ({ pk: `CALL#${callId}`, sk: `SUBSCRIBER#${userId}` }),
  subscriptionsOfUser: (userId: string) => `USER#${userId}#SUBSCRIPTIONS`,
  subscriptionsOfCall: (callId: string) => `CALL#${callId}#SUBSCRIPTIONS`,
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  /**
   * A user's search item (functions/users/repository.ts searchItem): small, with what every filter needs, keyed for the
   * combined filters: gsi1 last+first interleaved (usersByNames), gsi2 'Da validare' by first name (usersLoadedByFirst,
   * sparse), gsi3 first name, gsi4 last name, gsi5 e-mail, gsi6 last name and e-mail interleaved (usersSearchBy*).
   */
  userNames: (id: string) => ({ pk: `USER#${id}`, sk: 'NAMES' }),
  userByFiscalCode: (fiscalCode: string) => ({ pk: `USERCF#${fiscalCode.toUpperCase()}`, sk: 'USERCF' }),
  /** A Cognito user (its `sub`) that signed in with the fiscal code, beside the fiscal-code lookup: the roles command's way to the person. */
  signIn: (fiscalCode: string, sub: string) => ({ pk: `USERCF#${fiscalCode.toUpperCase()}`, sk: `SIGNIN#${sub}` }),
  isee: (id: string) => ({ pk: `ISEE#${id}`, sk: 'ISEE' }),
  /** That an ISEE was used to compute a fee (written in batches by a month's generation): beside the ISEE, in its partition. */
  iseeFeeMarker: (id: string) => ({ pk: `ISEE#${id}`, sk: 'FEE' }),
  /** Users search: gsi1 by last name, gsi2 LOADED (sparse), gsi3 first name, gsi4 fiscal code, gsi5 e-mail, gsi6 phone. */
  usersByLastName: 'USERS',
  usersLoaded: 'USERS#LOADED',
  usersByFirstName: 'USERS#FIRSTNAME',
  usersByFiscalCode: 'USERS#FISCALCODE',
  usersByEmail: 'USERS#EMAIL',
  usersByPhone: 'USERS#PHONE',
  usersByNames: 'USERS#NAMES',
  usersLoadedByFirst: 'USERS#LOADED#FIRST',
  usersSearchByFirst: 'USERS#S#FIRST',
  usersSearchByLast: 'USERS#S#LAST',
  usersSearchByEmail: 'USERS#S#EMAIL',
  usersSearchByLastEmail: 'USERS#S#LASTEMAIL',
  /** The ISEE of a user, newest first (gsi2), and the ISEE waiting for an operator (gsi1, sparse). */
  iseesOfUser: (userId: string) => `USER#${userId}#ISEES`,
  iseesToVerify: 'ISEES#LOADED',
  /** Payment flows (the flows page, newest first on gsi1) and the one-export-per-call lock. */
  flow: (id: string) => ({ pk: `FLOW#${id}`, sk: 'FLOW' }),
  flowsCollection: 'FLOWS',
  exportLock: (callId: string) => ({ pk: `CALL#${callId}`, sk: 'EXPORT_LOCK' }),
  /** The council's MyPay configuration: one item. */
  configuration: { pk: 'CONFIGURATION#MYPAY', sk: 'CONFIGURATION' },
  /**
   * Debt positions: a call's month under one partition (pk "CALL#<id>#POSITIONS#<yyyy-mm>", sk "USER#<userId>"),
   * a citizen's positions on gsi1 ("USER#<userId>#POSITIONS", "<yyyy-mm>#<callId>"), one position by IUD on gsi2.
   */
  position: (callId: string, period: string, userId: string) => ({
    pk: `CALL#${callId}#POSITIONS#${period}`,
    sk: `USER#${userId}`,
  }),
  positionsOfMonth: (callId: string, period: string) => `CALL#${callId}#POSITIONS#${period}`,
  positionsOfUser: (userId: string) => `USER#${userId}#POSITIONS`,
  positionByIud: (iud: string) => `IUD#${iud}`,
  /**
   * The write-back fence of a call's month: open while the export's Collect batch-writes MyPay's verdicts
   * (BatchWriteItem, no condition); a payment recorded meanwhile leaves its receipt on it (payments/repository.ts).
   */
  writeBackFence: (callId: string, period: string) => ({ pk: `CALL#${callId}#WRITEBACK#${period}`, sk: 'WRITEBACK' }),
  /** A citizen's MyPay checkout session (idSession → position and citizen), so the return can be checked. */
  paymentSession: (idSession: string) => ({ pk: `PAYSESSION#${idSession}`, sk: 'PAYSESSION' }),
  /**
   * The payment list (functions/payments/debt-summaries-repository.ts): one summary per call, year and citizen
   * (pk "CALL#<callId>#DEBTS#<anno>", sk "USER#<userId>") and the call-year's totals (same pk, sk "TOTALS");
   * the summaries' orders on gsi1 (amount), gsi2 (surname+name), gsi5 (fiscal code), gsi6 (first word, amount)
   * under "DEBTS#<callId>#<anno>#<shard>", and, only while an e-mail is missing (sparse), gsi3 (name) and gsi4
   * (amount) under "…#<shard>#NOMAIL".
   */
  debtSummary: (callId: string, anno: number, userId: string) => ({
    pk: `CALL#${callId}#DEBTS#${anno}`,
    sk: `USER#${userId}`,
  }),
  debtTotals: (callId: string, anno: number) => ({ pk: `CALL#${callId}#DEBTS#${anno}`, sk: 'TOTALS' }),
  debtSummariesOf: (callId: string, anno: number) => `CALL#${callId}#DEBTS#${anno}`,
  /**
   * The list's orders, write-sharded by citizen (DEBT_LIST_SHARDS): a month's generation rewrites every row of
   * the call-year on each of these indexes at once (README "DynamoDB keys"); every reading merges the shards.
   */
  debtList: (callId: string, anno: number, shard: number) => `DEBTS#${callId}#${anno}#${shard}`,
  debtListNoMail: (callId: string, anno: number, shard: number) => `DEBTS#${callId}#${anno}#${shard}#NOMAIL`,
  /** The unsharded keys of rows written before the shards (the migration payment-list-shards-v1 moves them). */
  debtListUnsharded: (callId: string, anno: number) => `DEBTS#${callId}#${anno}`,
  debtListNoMailUnsharded: (callId: string, anno: number) => `DEBTS#${callId}#${anno}#NOMAIL`,
  /** Tickets: gsi1 the open ones (sparse, states 0–1), gsi2 a user's, gsi3/4/5 search by surname, fiscal code, category. */
  ticket: (id: string) => ({ pk: `TICKET#${id}`, sk: 'TICKET' }),
  ticketCounter: { pk: 'COUNTER#TICKETS', sk: 'COUNTER' },
  ticketsOpen: 'TICKETS#OPEN',
  ticketsOfUser: (userId: string) => `USER#${userId}#TICKETS`,
  ticketsBySurname: 'TICKETS#SURNAME',
  ticketsByFiscalCode: 'TICKETS#FISCALCODE',
  ticketsByCategory: 'TICKETS#CATEGORY',
  /** One counter per citizen and rate-limit window of the support form. */
  supportRate: (userId: string, window: string, key: string) => ({
    pk: `SUPPORTRATE#${userId}`,
    sk: `${window}#${key}`,
  }),
  /** A background job's record and lock: one item per kind and key (functions/jobs), holding the latest run. */
  job: (kind: string, key: string) => ({ pk: `JOB#${kind}#${key}`, sk: 'JOB' }),
  /** The last day 'Rendicontazione' reported for a call (functions/reporting/repository.ts). */
  reportedThrough: (callId: string) => ({ pk: `REPORTING#${callId}`, sk: 'REPORTED' }),
  /** A reporting due after a checkout whose outcome is unknown: one partition, by due time (functions/reporting/repository.ts). */
  reportingFollowUp: (dueAt: string, callId: string) => ({ pk: 'REPORTING#FOLLOW-UPS', sk: `${dueAt}#${callId}` }),
  /** An enrolment import's approved preview (functions/enrolment-csv/plan-repository.ts): its header, and its slices in order. */
  importPlan: (previewId: string) => ({ pk: `IMPORTPLAN#${previewId}`, sk: 'PLAN' }),
  importPlanSlice: (previewId: string, n: number) => ({
    pk: `IMPORTPLAN#${previewId}`,
    sk: `SLICE#${String(n).padStart(5, '0')}`,
  }),
  auditOf: (entity: string, id: string) => `AUDIT#${entity}#${id}`,
  /**
   * A day's audit entries on gsi1, write-sharded: "AUDIT#<yyyy-mm-dd>#<shard>" (AUDIT_DAY_SHARDS shards, by the
   * record's entity and id), sort key "<ISO time>#<uuid>". A month's generation audits 10,000 positions at once:
   * one partition would take them at DynamoDB's 1,000 writes a second (README "DynamoDB keys"); the day is read by
   * querying every shard and merging them in time order (functions/adapters/audit-log.ts auditOfDay).
   */
  auditDay: (isoDate: string, shard: number) => `AUDIT#${isoDate.slice(0, 10)}#${String(shard).padStart(2, '0')}`,
  /** The unsharded key of entries written before the shards (npm run backfill:audit-days moves them). */
  auditDayUnsharded: (isoDate: string) => `AUDIT#${isoDate.slice(0, 10)}`,
};

/**
 * Keys of the payment side of issue 21, apart from `keys` (one object every function bundles) so that only
 * the functions that use them carry them:
 * - a live checkout of a call's position, by month (sk "<yyyy-mm>#<iud>", with `until`): 'Sincronizza', a
 *   month's generation and an export look here before they start (one Query), so they can refuse with 409
 *   while a citizen pays; the position's own `checkoutUntil` is what every write's condition checks;
 * - a payment-list row with a payment to reconcile (sparse, same partition as the rows): the 'Pagamento da
 *   riconciliare' filter.
 */
export const paymentKeys = {
  checkoutMarker: (callId: string, period: string, iud: string) => ({
    pk: `CHECKOUTS#${callId}`,
    sk: `${period}#${iud}`,
  }),
  checkoutsOfCall: (callId: string) => `CHECKOUTS#${callId}`,
  debtToReconcile: (callId: string, anno: number, userId: string) => ({
    pk: `CALL#${callId}#DEBTS#${anno}`,
    sk: `RECONCILE#${userId}`,
  }),
  /** The council's IUV sequence at GPD (functions/positions/iuv-sequence.ts): the last number given, per segregation code. */
  iuvSequence: (segregationCode: string) => ({ pk: 'COUNTER#GPD_IUV', sk: `SEGREGATION#${segregationCode}` }),
};
/** How many partitions of each index a call-year's payment list is spread over (by citizen): 4 × 1,000 writes a second. */
export const DEBT_LIST_SHARDS = 4;

/** How many gsi1 partitions a day's audit entries are spread over: 16 × 1,000 writes a second. */
export const AUDIT_DAY_SHARDS = 16;

/** The shard of a key, 0 … shards - 1: the same key always in the same shard, keys spread evenly (FNV-1a). */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/** Sort keys that order numbers as text: 12 digits cover up to 9.999.999.999,99 € in cents. */
export const numericSortKey = (cents: number) => String(cents).padStart(12, '0');
