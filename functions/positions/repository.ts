import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MISSING_ISEE_NAMES } from '../domain/debt-summary-rules.ts';
import { receiptOf, type PaymentRecord } from '../domain/payment-record.ts';
import {
  isBatchable,
  patchOf,
  publicPosition,
  restorePayment,
  type Guard,
  type GuardClause,
  type PositionRecord,
  type PositionsChanged,
  type Transition,
} from '../domain/positions/index.ts';

export { receiptOf, type PaymentRecord };
import type { Position } from '../domain/payments.ts';
import { periodKey, type Period } from '../domain/period.ts';
import type { IoStatus } from '../domain/position-rules.ts';
import type { Page } from '../domain/validation.ts';
import { mapAtMost } from '../domain/at-most.ts';
import {
  batchPut,
  documentClient,
  queryAll,
  queryPage,
  tableName,
  unlessConditionFails,
  type StoredItem,
} from '../adapters/dynamo.ts';
import { keys } from '../adapters/table.ts';
import { paymentRecordExpiry, retentionYears } from '../domain/retention.ts';

/**
 * The one writer of debt positions (functions/domain/positions): every write of a position item is a
 * transition of the domain applied here, as one write whose condition is the transition's guard
 * (conditionOf), or in batches of 25 when the export's lock stands for the guard (applyTransitions). The
 * export's write-back fence (openWriteBack … closeWriteBack, recordPayment, repairPayment) is part of it.
 * Its writes come from makePositionWriter only, which tells the "positions changed" port what each wrote.
 *
 * Debt positions. One item per call, month and citizen: pk "CALL#<callId>#POSITIONS#<yyyy-mm>",
 * sk "USER#<userId>" (so a month can never hold two positions of one citizen, whatever the timing);
 * gsi1 = "USER#<userId>#POSITIONS" / "<yyyy-mm>#<callId>" (the citizen's payments, by month);
 * gsi2 = "IUD#<iud>" / "POSITION" (the export writes MyPay's answer back by IUD).
 */
export const POSITIONS_PAGE_SIZE = 50;

/** The item's keys and its expiry (DynamoDB's TTL): not the position's fields. */
const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'expiresAt'];

export function toPositionRecord(item: StoredItem): PositionRecord {
  const record = { ...item };
  for (const key of KEY_ATTRIBUTES) delete record[key];
  return record as PositionRecord;
}

/** What the API shows of a position (the internal fields stay in the table). */
export const toPosition = (item: StoredItem): Position => publicPosition(toPositionRecord(item));

const period = (position: Pick<PositionRecord, 'mese' | 'anno'>) => periodKey(position);

export function itemOf(position: PositionRecord) {
  return {
    ...keys.position(position.callId, period(position), position.userId),
    gsi1pk: keys.positionsOfUser(position.userId),
    gsi1sk: `${period(position)}#${position.callId}`,
    gsi2pk: keys.positionByIud(position.iud),
    gsi2sk: 'POSITION',
    ...position,
    // An accounting record: DynamoDB's TTL deletes it only after its retention from the end of its year (functions/domain/retention.ts).
    expiresAt: paymentRecordExpiry(position.anno, retentionYears('paymentRecords')),
  };
}

/** A DynamoDB condition: its expression (undefined: none) with its names and values. */
export interface Condition {
  expression: string | undefined;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** One clause of a guard as a condition; `n` keeps each clause's placeholders apart. */
function clauseCondition(clause: GuardClause, n: number): Condition | null {
  const v = (name: string) => `:g${n}${name}`;
  switch (clause.kind) {
    case 'absent':
      return { expression: 'attribute_not_exists(pk)', names: {}, values: {} };
    case 'present':
      return { expression: 'attribute_exists(pk)', names: {}, values: {} };
    case 'version':
      return {
        expression: `#version = ${v('version')}`,
        names: { '#version': 'version' },
        values: { [v('version')]: clause.version },
      };
    case 'open':
      return {
        expression: `isPagato = ${v('false')} AND annullato = ${v('false')}`,
        names: {},
        values: { [v('false')]: false },
      };
    case 'not-held':
      return {
        expression: `(attribute_not_exists(checkoutUntil) OR checkoutUntil = ${v('null')} OR checkoutUntil < ${v('now')})`,
        names: {},
        values: { [v('null')]: null, [v('now')]: clause.at },
      };
    case 'to-reconcile':
      return { expression: `attribute_type(riconciliazione, ${v('map')})`, names: {}, values: { [v('map')]: 'M' } };
    case 'held-by':
      return { expression: `checkoutSession = ${v('session')}`, names: {}, values: { [v('session')]: clause.session } };
    case 'iud':
      return { expression: `iud = ${v('iud')}`, names: {}, values: { [v('iud')]: clause.iud } };
    case 'without-outcome': {
      const { outcome } = clause;
      return outcome.kind === 'accepted'
        ? {
            expression: `NOT (statoExport = ${v('state')} AND codIuv = ${v('iuv')})`,
            names: {},
            values: { [v('state')]: 'ESPORTATA', [v('iuv')]: outcome.iuv },
          }
        : {
            expression: `NOT (statoExport = ${v('state')} AND lastExportError = ${v('reason')})`,
            names: {},
            values: { [v('state')]: 'ERRORE', [v('reason')]: outcome.reason },
          };
    }
    case 'export-lock':
      return null;
  }
}

/** A transition's guard as the ConditionExpression of its write (domain guards.ts: the same rule guardHolds checks). */
export function conditionOf(guard: Guard): Condition {
  const parts = guard.map(clauseCondition).filter((part): part is Condition => part !== null);
  return {
    expression: parts.length ? parts.map((part) => part.expression).join(' AND ') : undefined,
    names: Object.assign({}, ...parts.map((part) => part.names)),
    values: Object.assign({}, ...parts.map((part) => part.values)),
  };
}

/** The names and values of a condition, left out when empty (DynamoDB refuses empty maps). */
const conditionParameters = (
  condition: Condition,
  names: Record<string, string> = {},
  values: Record<string, unknown> = {},
) => {
  const allNames = { ...names, ...condition.names };
  const allValues = { ...values, ...condition.values };
  return {
    ...(condition.expression ? { ConditionExpression: condition.expression } : {}),
    ...(Object.keys(allNames).length ? { ExpressionAttributeNames: allNames } : {}),
    ...(Object.keys(allValues).length ? { ExpressionAttributeValues: allValues } : {}),
  };
};

/**
 * Applies one transition as one conditional write: 'replace' puts the whole record, 'patch' sets the fields
 * that changed (removes those gone) and moves the version on by one when the transition did. False (nothing
 * written) when the stored position fails the guard.
 */
async function writeTransition(transition: Transition): Promise<boolean> {
  const condition = conditionOf(transition.guard);
  if (transition.write === 'replace' || !transition.before) {
    const written = await unlessConditionFails(
      documentClient.send(
        new PutCommand({ TableName: tableName, Item: itemOf(transition.after), ...conditionParameters(condition) }),
      ),
    );
    return written !== null;
  }
  const { after } = transition;
  const { set, remove: removed, movesVersion: moves } = patchOf({ ...transition, before: transition.before });
  const { clause, names, values } = assignments(set);
  const setClause = [clause, moves ? '#version = #version + :one' : ''].filter(Boolean).join(', ');
  const removeNames = Object.fromEntries(removed.map((name, i) => [`#r${i}`, name]));
  if (!setClause && !removed.length) return true;
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.position(after.callId, period(after), after.userId),
        UpdateExpression: `${setClause ? `SET ${setClause}` : ''}${removed.length ? ` REMOVE ${Object.keys(removeNames).join(', ')}` : ''}`,
        ...conditionParameters(
          condition,
          { ...names, ...removeNames, ...(moves ? { '#version': 'version' } : {}) },
          { ...values, ...(moves ? { ':one': 1 } : {}) },
        ),
      }),
    ),
  );
  return written !== null;
}

/** Conditional writes in flight at once. */
const WRITES_AT_ONCE = 50;

/**
 * Applies a month's transitions: those the export's lock guards in batches of 25 (BatchWriteItem: no
 * condition), each other one with its own condition. The transitions written, in their order.
 */
async function writeTransitions(
  transitions: readonly Transition[],
  onWritten?: (count: number) => Promise<unknown>,
): Promise<Transition[]> {
  const batched = transitions.filter((t) => isBatchable(t.guard));
  await batchPut(batched.map((t) => itemOf(t.after)));
  if (batched.length) await onWritten?.(batched.length);
  const written = new Set<Transition>(batched);
  await mapAtMost(
    transitions.filter((t) => !isBatchable(t.guard)),
    WRITES_AT_ONCE,
    async (t) => {
      if (await writeTransition(t)) written.add(t);
      await onWritten?.(1);
    },
  );
  return transitions.filter((t) => written.has(t));
}

/** writeTransition, then the port told of the position it changed. */
async function applyTransition(changed: PositionsChanged, transition: Transition): Promise<boolean> {
  if (!(await writeTransition(transition))) return false;
  await changed.positionsChanged([transition]);
  return true;
}

/** writeTransitions, then the port told of the positions they changed, at once. */
async function applyTransitions(
  changed: PositionsChanged,
  transitions: readonly Transition[],
  onWritten?: (count: number) => Promise<unknown>,
): Promise<Transition[]> {
  const written = await writeTransitions(transitions, onWritten);
  if (written.length) await changed.positionsChanged(written);
  return written;
}

/** Every position of a call's month (one partition, paged through to the end). */
export async function listPositionsOfMonth(callId: string, month: Period): Promise<PositionRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.positionsOfMonth(callId, periodKey(month)) },
    ConsistentRead: true,
  });
  return items.map(toPositionRecord);
}

/**
 * Whether a call's month holds a position that is neither paid nor cancelled ('Sincronizza' recalculates
 * those months): a COUNT over the month's partition, read until the first one is found.
 */
export async function hasOpenPositions(callId: string, month: Period): Promise<boolean> {
  const open = conditionOf([{ kind: 'open' }]);
  let start: Record<string, unknown> | undefined;
  do {
    const result = await documentClient.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: open.expression,
        ExpressionAttributeValues: { ':pk': keys.positionsOfMonth(callId, periodKey(month)), ...open.values },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    if ((result.Count ?? 0) > 0) return true;
    start = result.LastEvaluatedKey;
  } while (start);
  return false;
}

/** One page of a call's month, by citizen id. */
export const listPositions = (
  callId: string,
  month: Period,
  page: { limit?: number; cursor?: string },
): Promise<Page<Position>> =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.positionsOfMonth(callId, periodKey(month)) },
    },
    page,
    toPosition,
    POSITIONS_PAGE_SIZE,
  );

/**
 * One position by its id (the IUD), read consistently from the table (gsi2 only says where it is); null
 * when no position has that IUD.
 */
export async function getPositionByIud(iud: string): Promise<PositionRecord | null> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.positionByIud(iud) },
      Limit: 1,
    }),
  );
  const located = Items[0];
  if (!located) return null;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: { pk: located.pk, sk: located.sk }, ConsistentRead: true }),
  );
  return Item ? toPositionRecord(Item) : null;
}

/** One page of a citizen's positions (gsi1), newest month first; only those of one call when `callId` is given. */
export const listPositionsOfUser = (
  userId: string,
  filter: { callId?: string },
  page: { limit?: number; cursor?: string },
): Promise<Page<PositionRecord>> =>
  queryPage(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ...(filter.callId
        ? {
            FilterExpression: 'callId = :callId',
            ExpressionAttributeValues: { ':pk': keys.positionsOfUser(userId), ':callId': filter.callId },
          }
        : { ExpressionAttributeValues: { ':pk': keys.positionsOfUser(userId) } }),
      ScanIndexForward: false,
    },
    page,
    toPositionRecord,
    POSITIONS_PAGE_SIZE,
  );

/**
 * A fence older than this belongs to a Collect that stopped (one slice runs at most TASK_TIMEOUT_SECONDS,
 * 5 minutes): a payment does not rely on it, it checks its own write (the restarted Collect repairs too).
 */
export const FENCE_STALE_MS = 10 * 60_000;

/** `#n0 = :v0, #n1 = :v1…` of an UpdateExpression's SET, with its names and values (attribute names are never inlined). */
function assignments(set: Record<string, unknown>) {
  const names = Object.keys(set);
  return {
    clause: names.map((_, i) => `#n${i} = :v${i}`).join(', '),
    names: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
    values: Object.fromEntries(names.map((name, i) => [`:v${i}`, set[name]])),
  };
}

type MonthKey = { callId: string; mese: number; anno: number };
const fenceKey = (month: MonthKey) => keys.writeBackFence(month.callId, periodKey(month));

/** Opens (or takes over, keeping its receipts) the write-back fence of the month. */
export async function openWriteBack(month: MonthKey, flowId: string, at: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: fenceKey(month),
      UpdateExpression:
        'SET flowId = :flow, openedAt = :at, receipts = if_not_exists(receipts, :none), receiptCount = if_not_exists(receiptCount, :zero)',
      ExpressionAttributeValues: { ':flow': flowId, ':at': at, ':none': [], ':zero': 0 },
    }),
  );
}

/** The receipts of the payments recorded while the fence was open, and how many (closeWriteBack's condition). */
export async function writeBackReceipts(month: MonthKey): Promise<{ receipts: PaymentRecord[]; count: number }> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: fenceKey(month), ConsistentRead: true }),
  );
  return { receipts: (Item?.receipts as PaymentRecord[] | undefined) ?? [], count: Number(Item?.receiptCount ?? 0) };
}

/** Closes the fence; false (still open) when a receipt arrived since `count` was read. */
export async function closeWriteBack(month: MonthKey, count: number): Promise<boolean> {
  const deleted = await unlessConditionFails(
    documentClient.send(
      new DeleteCommand({
        TableName: tableName,
        Key: fenceKey(month),
        ConditionExpression: 'attribute_not_exists(pk) OR receiptCount = :count',
        ExpressionAttributeValues: { ':count': count },
      }),
    ),
  );
  return deleted !== null;
}

/** Leaves the payment's receipt on the month's open fence; false when no fence is open (or it is stale). */
async function leaveReceipt(month: MonthKey, receipt: PaymentRecord, now: number): Promise<boolean> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: fenceKey(month), ConsistentRead: true }),
  );
  if (!Item || now - Date.parse(String(Item.openedAt)) > FENCE_STALE_MS) return false;
  const written = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fenceKey(month),
        UpdateExpression: 'SET receipts = list_append(receipts, :receipt), receiptCount = receiptCount + :one',
        ConditionExpression: 'attribute_exists(pk) AND openedAt = :openedAt',
        ExpressionAttributeValues: { ':receipt': [receipt], ':one': 1, ':openedAt': Item.openedAt },
      }),
    ),
  );
  return written !== null;
}

/**
 * Puts a payment back on its position if a write-back batch overwrote it (domain restorePayment): nothing
 * when the position holds as many payments already (this one or a later one), or is gone. A conditional
 * write on the version read; read again when it loses a race. 'repaired' when it wrote, 'paid' when the
 * position had it already.
 */
async function repairPayment(
  changed: PositionsChanged,
  month: MonthKey,
  receipt: PaymentRecord,
): Promise<'repaired' | 'paid' | 'none'> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.position(month.callId, periodKey(month), receipt.userId),
        ConsistentRead: true,
      }),
    );
    if (!Item || Item.iud !== receipt.iud) return 'none';
    const restore = restorePayment(toPositionRecord(Item), receipt);
    if (!restore) return 'paid';
    if (await applyTransition(changed, restore)) return 'repaired';
  }
  return 'none';
}

/**
 * The one write of a payment (domain transition settle, for the citizen's return and the reporting alike):
 * the position's next version with the payments recorded, on its guard (the version read only: a payment is
 * recorded on a paid or cancelled position too, nothing MyPay collected is dropped). False (nothing
 * written) when another writer moved the version: the caller reads again.
 *
 * An export's Collect may be batch-writing this month (applyTransitions) from a read taken before this
 * payment: then the payment leaves its receipt on the open fence and Collect puts it back. With no fence
 * open (none yet: Collect will read this payment; or it has just closed), the payment checks that it is
 * still on the position and puts itself back if a batch overwrote it.
 */
async function recordPayment(changed: PositionsChanged, settle: Transition): Promise<boolean> {
  if (!(await applyTransition(changed, settle))) return false;
  const position = settle.after;
  const receipt = receiptOf(position);
  // A repair is a write like the payment's: it too may meet an open fence (the next slice of Collect).
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await leaveReceipt(position, receipt, Date.now())) break;
    if ((await repairPayment(changed, position, receipt)) !== 'repaired') break;
  }
  return true;
}

/**
 * Sets fields of a position and moves its version on (so that a month regeneration that read it before cannot
 * put the old fields back), if `condition` holds: the stored position after the write (the port told of it),
 * null when it did not.
 */
async function updatePosition(
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  set: Record<string, unknown>,
  { condition, values: conditionValues }: { condition: Condition; values: Record<string, unknown> },
): Promise<PositionRecord | null> {
  const { clause, names, values } = assignments(set);
  const result = await unlessConditionFails(
    documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.position(position.callId, period(position), position.userId),
        UpdateExpression: `SET ${clause}, #version = #version + :one`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: { ...names, '#version': 'version', ...condition.names },
        ExpressionAttributeValues: { ...values, ':one': 1, ...condition.values, ...conditionValues },
        // The item as it was (the port is told before and after): after is it with the write applied.
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  if (!result?.Attributes) return null;
  const before = toPositionRecord(result.Attributes);
  const after: PositionRecord = { ...before, ...set, version: before.version + 1 };
  await changed.positionsChanged([{ before, after }]);
  return after;
}

/** A notice write: on a position still there and open (null otherwise), and `extraCondition`. */
const noticeGuard = conditionOf([{ kind: 'present' }, { kind: 'open' }]);
const updateNoticeFields = (
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  set: Record<string, unknown>,
  extraCondition = '',
  extraValues: Record<string, unknown> = {},
) =>
  updatePosition(changed, position, set, {
    condition: { ...noticeGuard, expression: `${noticeGuard.expression}${extraCondition}` },
    values: extraValues,
  });

/**
 * The notice e-mail went: isEmailSent and its date (a second send moves the date). The version moves too, so
 * a month regeneration that read the position before cannot put the old flags back.
 */
const recordNoticeEmail = (
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  at: string,
) => updateNoticeFields(changed, position, { isEmailSent: true, dataIsEmailSent: at, updatedAt: at });

/**
 * What became of an IO notice: the message id (or '-1' when no message was created) and its status. With
 * `keepDelivered`, a message IO delivered before (PROCESSED, or an id recorded before statuses were) is kept:
 * a refused or rejected resend does not hide that the citizen has the notice in IO (null then).
 */
const recordIoMessage = (
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  outcome: { ioId: string; ioStatus: IoStatus },
  at: string,
  keepDelivered = false,
) =>
  updateNoticeFields(
    changed,
    position,
    { ioId: outcome.ioId, ioStatus: outcome.ioStatus, dataIoSent: at, updatedAt: at },
    keepDelivered
      ? ' AND NOT (ioStatus = :processed OR (attribute_not_exists(ioStatus) AND attribute_type(ioId, :string) AND ioId <> :notDelivered))'
      : '',
    keepDelivered ? { ':processed': 'PROCESSED', ':string': 'S', ':notDelivered': '-1' } : {},
  );

/** The IO fields as they were before a send IO refused outright (it created no message). */
const restoreIoMessage = (
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  fields: { ioId: string | null; ioStatus: IoStatus | null; dataIoSent: string | null },
  at: string,
) => updateNoticeFields(changed, position, { ...fields, updatedAt: at });

/**
 * Who a month's generation left without a position for 'ISEE scaduto o mancante' (the payment list shows
 * them): one item per call and month under the call-year (pk "CALL#<callId>#NOISEE#<anno>", sk "<mm>").
 */
export const missingIseeKeys = {
  month: (callId: string, anno: number, mese: number) => ({
    pk: `CALL#${callId}#NOISEE#${anno}`,
    sk: String(mese).padStart(2, '0'),
  }),
  year: (callId: string, anno: number) => `CALL#${callId}#NOISEE#${anno}`,
};

/**
 * Who the month's generation left without a position for 'ISEE scaduto o mancante': rewritten at every
 * generation of the month (removed when nobody is left out), the first MISSING_ISEE_NAMES names kept.
 */
export async function putMissingIsee(
  callId: string,
  period: Period,
  people: readonly { fiscalCode: string; cognome: string; nome: string }[],
  at: string,
): Promise<void> {
  const key = missingIseeKeys.month(callId, period.anno, period.mese);
  if (!people.length) {
    await documentClient.send(new DeleteCommand({ TableName: tableName, Key: key }));
    return;
  }
  const names = people
    .slice(0, MISSING_ISEE_NAMES)
    .map(({ fiscalCode, cognome, nome }) => ({ fiscalCode, cognome, nome }));
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...key, mese: period.mese, anno: period.anno, count: people.length, people: names, generatedAt: at },
    }),
  );
}

/** IO's later status of the message `ioId` (null when the position now holds another message, or is paid or cancelled). */
const recordIoStatus = (
  changed: PositionsChanged,
  position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'userId'>,
  ioId: string,
  ioStatus: IoStatus,
  at: string,
) => updateNoticeFields(changed, position, { ioStatus, updatedAt: at }, ' AND ioId = :ioId', { ':ioId': ioId });

/**
 * The writes of positions, each telling `changed` which positions it changed once it succeeded: in every
 * function that writes positions, the payment list's projection (functions/entry/wired-payment-list.ts).
 */
export function makePositionWriter(changed: PositionsChanged) {
  const told =
    <A extends unknown[], R>(write: (changed: PositionsChanged, ...args: A) => R) =>
    (...args: A) =>
      write(changed, ...args);
  return {
    applyTransition: told(applyTransition),
    applyTransitions: told(applyTransitions),
    recordPayment: told(recordPayment),
    repairPayment: told(repairPayment),
    recordNoticeEmail: told(recordNoticeEmail),
    recordIoMessage: told(recordIoMessage),
    restoreIoMessage: told(restoreIoMessage),
    recordIoStatus: told(recordIoStatus),
  };
}

export type PositionWriter = ReturnType<typeof makePositionWriter>;
