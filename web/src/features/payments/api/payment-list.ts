import {
  DEBT_EXPORT_PAGE_SIZE,
  type DebtListResponse,
  type DebtSort,
  type DebtSummaryRow,
  type DebtTotalsResponse,
  type MissingIseeResponse,
} from '@domain/debt-summaries';
import { api, query } from '@/lib/api';

export type { DebtListResponse, DebtSort, DebtSummaryRow, DebtTotalsResponse };
export type PaymentPageSize = 10 | 25 | 50;

/** The Payment filter of the page (operator-admin §3): the call is the page's ?id=. */
export interface PaymentFilters {
  name: string;
  chkNoSendMail: boolean;
  /** Only the citizens with a payment to reconcile ('Pagamento da riconciliare'). */
  chkDaRiconciliare: boolean;
  anno: number;
}

/** GET /api/calls/{id}/payment-list: one page of the call-year's rows, 'Record trovati' and the sum. */
export const getPaymentList = (
  callId: string,
  filters: PaymentFilters,
  sort: DebtSort,
  limit: number,
  cursor: string | null,
): Promise<DebtListResponse> =>
  api.get<DebtListResponse>(
    `/api/calls/${encodeURIComponent(callId)}/payment-list${query({
      name: filters.name.trim() || undefined,
      chkNoSendMail: filters.chkNoSendMail ? 'true' : undefined,
      chkDaRiconciliare: filters.chkDaRiconciliare ? 'true' : undefined,
      anno: filters.anno,
      sort,
      limit,
      cursor,
    })}`,
  );

/** GET /api/calls/{id}/payment-totals: the statistics box (cents). */
export const getPaymentTotals = (callId: string, anno: number): Promise<DebtTotalsResponse> =>
  api.get<DebtTotalsResponse>(`/api/calls/${encodeURIComponent(callId)}/payment-totals${query({ anno })}`);

/**
 * Every row of the filter, for 'Scarica Excel': pages of the export size followed to the end.
 * `onProgress` gets the rows read so far.
 */
export async function getAllPayments(
  callId: string,
  filters: PaymentFilters,
  sort: DebtSort,
  onProgress?: (rows: number) => void,
): Promise<DebtSummaryRow[]> {
  const rows: DebtSummaryRow[] = [];
  let cursor: string | null = null;
  do {
    const page: DebtListResponse = await getPaymentList(callId, filters, sort, DEBT_EXPORT_PAGE_SIZE, cursor);
    rows.push(...page.items);
    onProgress?.(rows.length);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/** GET /api/calls/{id}/payment-list/missing-isee: per month, who has no position because their ISEE expired or is missing. */
export const getMissingIsee = (callId: string, anno: number): Promise<MissingIseeResponse> =>
  api.get<MissingIseeResponse>(`/api/calls/${encodeURIComponent(callId)}/payment-list/missing-isee${query({ anno })}`);
