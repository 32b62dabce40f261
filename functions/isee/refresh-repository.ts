import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  refreshOutcomeLabel,
  REFRESH_LIST_SIZE,
  type ExpiryStatus,
  type ReminderChannelState,
  type RefreshOutcome,
  type RefreshRow,
} from '../domain/isee-refresh.ts';
import { toEuros } from '../domain/money.ts';
import type { Page } from '../domain/validation.ts';
import {
  batchGet,
  countUnder,
  documentClient,
  queryCount,
  queryPage,
  tableName,
  type StoredItem,
} from '../adapters/dynamo.ts';

/** The keys of these items (here, not in adapters/table.ts: only the ISEE function and the jobs use them). */
const keys = {
  inpsRefreshResults: (reportId: string) => `INPSREFRESH#${reportId}`,
  iseeExpiry: (year: number, userId: string) => ({ pk: `ISEEEXPIRY#${year}`, sk: `USER#${userId}` }),
  iseeExpiryOf: (year: number) => `ISEEEXPIRY#${year}`,
};

/**
 * What the ISEE refresh jobs and the expiry job keep (functions/isee/refresh.ts):
 * - one result per citizen and report (pk INPSREFRESH#<reportId>, sk USER#<userId>), on gsi1 by outcome
 *   (INPSREFRESH#<reportId>#<outcome>, "<last>#<first>#<userId>"): the report's counts and lists; a put is
 *   idempotent, so a slice run again leaves the same report;
 * - one row per active subscriber whose ISEE expires within a year or has expired (pk ISEEEXPIRY#<year>,
 *   sk USER#<userId>): the operators' list, and the reminder sent (once: a conditional write).
 */
export interface RefreshResult {
  reportId: string;
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  outcome: RefreshOutcome;
  valueCents: number | null;
  detail: string | null;
  at: string;
  /** The day (Europe/Rome) INPS was asked: the January job counts a day's queries against the PDND purpose's estimate. */
  askedOn?: string;
}

const sortName = (r: Pick<RefreshResult, 'lastName' | 'firstName' | 'userId'>) =>
  `${r.lastName.toLowerCase()}#${r.firstName.toLowerCase()}#${r.userId}`;
const resultKey = (reportId: string, userId: string) => ({
  pk: keys.inpsRefreshResults(reportId),
  sk: `USER#${userId}`,
});
const outcomePartition = (reportId: string, outcome: RefreshOutcome) =>
  `${keys.inpsRefreshResults(reportId)}#${outcome}`;

export async function putRefreshResult(result: RefreshResult): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...resultKey(result.reportId, result.userId),
        ...result,
        gsi1pk: outcomePartition(result.reportId, result.outcome),
        gsi1sk: sortName(result),
      },
    }),
  );
}

/** Of these citizens, those the report already has an answer for (an ERROR is asked again). */
export async function refreshedAlready(reportId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const found = await batchGet(
    userIds.map((id) => resultKey(reportId, id)),
    { consistent: true, projection: 'userId, outcome' },
  );
  return new Set(found.filter((item) => item.outcome !== 'ERROR').map((item) => item.userId as string));
}

const toRow = (item: StoredItem): RefreshRow => ({
  userId: item.userId,
  fiscalCode: item.fiscalCode,
  firstName: item.firstName,
  lastName: item.lastName,
  outcome: item.outcome,
  outcomeLabel: refreshOutcomeLabel[item.outcome as RefreshOutcome],
  value: item.valueCents === null || item.valueCents === undefined ? null : toEuros(item.valueCents),
  detail: item.detail ?? null,
});

/** How many of the report's citizens INPS was asked for on this day (a run started again the same day included). */
export const countAskedOn = (reportId: string, day: string) =>
  queryCount({
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'askedOn = :day',
    ExpressionAttributeValues: { ':pk': keys.inpsRefreshResults(reportId), ':day': day },
  });

export const countRefreshResults = (reportId: string, outcome: RefreshOutcome) =>
  countUnder('gsi1', 'gsi1pk', outcomePartition(reportId, outcome));

/** The first people of an outcome, by name. */
export async function listRefreshResults(reportId: string, outcome: RefreshOutcome): Promise<RefreshRow[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': outcomePartition(reportId, outcome) },
      Limit: REFRESH_LIST_SIZE,
    }),
  );
  return Items.map(toRow);
}

// ---------------------------------------------------------------------------------------------------

export interface ExpiryRecord {
  year: number;
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  email: string | null;
  status: ExpiryStatus;
  scadenza: string | null;
  checkedAt: string;
}

/** Writes (or rewrites) a subscriber's row, keeping the reminder already recorded on it. */
export async function putExpiry(record: ExpiryRecord): Promise<void> {
  const fields = {
    userId: record.userId,
    fiscalCode: record.fiscalCode,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    status: record.status,
    scadenza: record.scadenza,
    checkedAt: record.checkedAt,
    year: record.year,
  };
  const entries = Object.entries(fields);
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.iseeExpiry(record.year, record.userId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
    }),
  );
}

/**
 * Takes the reminder of a year for a citizen: true for the first caller only (a conditional write), so a
 * slice run twice, or two runs at once, never send it twice. The channels' outcomes follow (recordReminder).
 */
export async function claimReminder(year: number, userId: string, at: string): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.iseeExpiry(year, userId),
        UpdateExpression: 'SET remindedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(remindedAt)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

export async function recordReminder(
  year: number,
  userId: string,
  outcome: { io: ReminderChannelState; mail: ReminderChannelState },
): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.iseeExpiry(year, userId),
      UpdateExpression: 'SET io = :io, mail = :mail',
      ExpressionAttributeValues: { ':io': outcome.io, ':mail': outcome.mail },
    }),
  );
}

/** A subscriber's row as stored: what putExpiry wrote, and the reminder once claimed and sent. */
export interface StoredExpiry extends ExpiryRecord {
  remindedAt?: string;
  io?: ReminderChannelState;
  mail?: ReminderChannelState;
}

export async function getExpiry(year: number, userId: string): Promise<StoredExpiry | null> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName, Key: keys.iseeExpiry(year, userId), ConsistentRead: true }),
  );
  return (Item as StoredExpiry | undefined) ?? null;
}

export const listExpiry = (year: number, page: { limit?: number; cursor?: string }): Promise<Page<StoredExpiry>> =>
  queryPage(
    { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.iseeExpiryOf(year) } },
    page,
    (item) => item as StoredExpiry,
    20,
  );
