import { batchPut, queryAll } from '../adapters/dynamo.ts';
import { debtSummaryItem, reconcileMarkersOf, rowsOfYear, toStored, type StoredDebtSummary } from './repository.ts';

/**
 * The payment list's summaries of a whole call-year at once, for the month generation of an export
 * (functions/payment-list/month-refresh.ts): one Query of the call-year's partition instead of a read per
 * citizen, and BatchWriteItem instead of a conditional put per citizen (the refresh checks afterwards).
 */

/** Every stored summary of a call-year (consistent, paged to the end), by citizen id. */
export async function summariesOfYear(callId: string, anno: number): Promise<Map<string, StoredDebtSummary>> {
  const items = await queryAll({ ...rowsOfYear(callId, anno), ConsistentRead: true });
  return new Map(items.map((item) => [String(item.userId), toStored(item)]));
}

/**
 * Writes summaries without a condition, 25 a request (the caller checks for a concurrent writer afterwards),
 * with the 'Pagamento da riconciliare' markers of those that have a payment to reconcile.
 */
export const putDebtSummaries = (summaries: readonly StoredDebtSummary[]) =>
  batchPut([...summaries.map(debtSummaryItem), ...reconcileMarkersOf(summaries)]);
