import type { PositionRecord, RecordedPayment } from './debt-positions.ts';
import type { Reconciliation } from './payments.ts';

/**
 * What a payment wrote on a position (domain settlePayment): the receipt it leaves on an export's write-back
 * fence, and what a repair puts back (payments/repository.ts). Cumulative: the position's payments so far,
 * so the receipt with more payments is the later one. No zod here: the repository imports it.
 */
export interface PaymentRecord {
  userId: string;
  iud: string;
  isPagato: boolean;
  importoTotalePagato: number;
  dataEsitoSingoloPagamento: string | null;
  iur: string | null;
  codIuv: string | null;
  nav: string | null;
  pagamenti: RecordedPayment[];
  riconciliazione: Reconciliation | null;
  updatedAt: string;
}

export const receiptOf = (paid: PositionRecord): PaymentRecord => ({
  userId: paid.userId,
  iud: paid.iud,
  isPagato: paid.isPagato,
  importoTotalePagato: paid.importoTotalePagato,
  dataEsitoSingoloPagamento: paid.dataEsitoSingoloPagamento ?? null,
  iur: paid.iur ?? null,
  codIuv: paid.codIuv ?? null,
  nav: paid.nav ?? null,
  pagamenti: paid.pagamenti ?? [],
  riconciliazione: paid.riconciliazione ?? null,
  updatedAt: paid.updatedAt,
});

/** MyPay's verdict on one exported position (the flow's write-back): accepted with its IUV and NAV, or rejected with the reason. */
export type ExportOutcome =
  | { kind: 'accepted'; iuv: string; nav: string; at: string; noticeZip?: string | null }
  | { kind: 'rejected'; reason: string; at: string };
