import type { summaryPersonOf } from '../../domain/debt-summary-rules.ts';
import type { Period } from '../../domain/payments.ts';

/** A month's positions as the payment list refreshes them at once (functions/payment-list/month-refresh.ts). */
export interface MonthRefreshInput {
  callId: string;
  period: Period;
  /** The citizens whose position of the month was written. */
  userIds: readonly string[];
  /** Their user records (name, fiscal code, phone, e-mail on the row). */
  people: ReadonlyMap<string, Parameters<typeof summaryPersonOf>[0]>;
}

/**
 * What 'Sincronizza' asks of the payment list (functions/payment-list/use-cases.ts): its totals recomputed
 * from the rows. The rows follow the positions by themselves (functions/payment-list/projection.ts).
 */
export interface PaymentListSummaries {
  reconcileDebtTotals(callId: string, anno: number): Promise<unknown>;
}
