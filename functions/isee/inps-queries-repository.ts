import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inpsQueryReasonLabel, inpsResultLabel, type InpsQuery, type InpsQueryReason } from '../domain/inps.ts';
import type { Page } from '../domain/validation.ts';
import { documentClient, queryPage, tableName, type StoredItem } from '../adapters/dynamo.ts';

/** The keys of these items (here, not in adapters/table.ts: only the ISEE function and the jobs use them). */
const keys = {
  inpsQuery: (userId: string, at: string, id: string) => ({ pk: `INPSQUERY#${userId}`, sk: `${at}#${id}` }),
  inpsQueriesOfUser: (userId: string) => `INPSQUERY#${userId}`,
  inpsQueriesOfDay: (isoDate: string) => `INPSQUERIES#${isoDate.slice(0, 10)}`,
};

/**
 * The accountability record of every query to INPS (reference.md: purpose, voucher jti, fiscal code, benefit
 * code, application number, INPS's IdRichiesta and Esito, who asked and when), under the citizen it is about
 * (pk INPSQUERY#<userId>, sk <at>#<id>), and on gsi1 by day, purpose and outcome (INPSQUERIES#<day>,
 * <purposeId>#<esito>#<at>#<id>): PDND's tracing counts a day's calls per purpose and status.
 */
export interface StoredInpsQuery {
  id: string;
  userId: string;
  at: string;
  operation: string;
  reason: InpsQueryReason;
  purposeId: string;
  voucherJti: string | null;
  fiscalCode: string;
  benefitCode: string;
  applicationNumber: string;
  applicationState: string;
  idRichiesta: string | null;
  /** INPS's Esito, or NESSUNA_RISPOSTA (no answer came) / NON_INVIATA (no voucher: the request never left). */
  esito: string;
  who: { sub: string; role: string; fullName: string };
  callId?: string | null;
  runId?: string | null;
}

export const INPS_QUERY_PAGE_SIZE = 10;

export async function recordQuery(query: StoredInpsQuery): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.inpsQuery(query.userId, query.at, query.id),
        ...query,
        gsi1pk: keys.inpsQueriesOfDay(query.at),
        gsi1sk: `${query.purposeId}#${query.esito}#${query.at}#${query.id}`,
      },
    }),
  );
}

export const toInpsQuery = (item: StoredItem): InpsQuery => ({
  id: item.id,
  at: item.at,
  operation: item.operation,
  reason: item.reason,
  reasonLabel: inpsQueryReasonLabel[item.reason as InpsQueryReason] ?? item.reason,
  purposeId: item.purposeId,
  voucherJti: item.voucherJti ?? null,
  fiscalCode: item.fiscalCode,
  benefitCode: item.benefitCode,
  applicationNumber: item.applicationNumber,
  applicationState: item.applicationState,
  idRichiesta: item.idRichiesta ?? null,
  esito: item.esito,
  resultLabel: inpsResultLabel(item.esito),
  who: { role: item.who?.role ?? '', fullName: item.who?.fullName ?? '' },
});

/** A citizen's queries, newest first. */
export const listQueriesOfUser = (
  userId: string,
  page: { limit?: number; cursor?: string },
): Promise<Page<InpsQuery>> =>
  queryPage(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.inpsQueriesOfUser(userId) },
      ScanIndexForward: false,
    },
    page,
    toInpsQuery,
    INPS_QUERY_PAGE_SIZE,
  );
