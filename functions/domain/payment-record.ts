import type { Position } from './payments.ts';

/**
 * What a payment wrote on a position (domain applyPayment): the receipt it leaves on an export's write-back
 * fence, and what a repair puts back (payments/repository.ts). No zod here: the repository imports it.
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
  updatedAt: string;
}

export const receiptOf = (paid: Position & { iur?: string | null }): PaymentRecord => ({
  userId: paid.userId,
  iud: paid.iud,
  isPagato: paid.isPagato,
  importoTotalePagato: paid.importoTotalePagato,
  dataEsitoSingoloPagamento: paid.dataEsitoSingoloPagamento ?? null,
  iur: paid.iur ?? null,
  codIuv: paid.codIuv ?? null,
  nav: paid.nav ?? null,
  updatedAt: paid.updatedAt,
});
