import { settle, type PositionRecord, type Transition } from '../domain/positions/index.ts';
import type { Reconciliation } from '../domain/payments.ts';
import type { PaymentReceipt } from '../domain/payment-rules.ts';
import type { Actor } from '../domain/roles.ts';
import type { AuditEntry } from '../adapters/ports/audit.ts';
import type { Clock } from '../adapters/ports/clock.ts';
import { noMetrics, type BusinessMetrics } from '../adapters/ports/metrics.ts';

/**
 * Settling what MyPay says was paid (issue 21): ONE use case for the citizen's return from the checkout
 * (paaSILChiediPagati) and for the reporting (MyPay's export of what was paid). Each receipt goes through the
 * domain rule settlePayment and the one conditional write recordPayment: whatever MyPay collected is recorded,
 * a second copy of a receipt changes nothing, and a payment that does not match what was due is kept and
 * marked for reconciliation. A lost race reads the position again.
 */
export interface SettlementDeps {
  positions: {
    getPositionByIud(iud: string): Promise<PositionRecord | null>;
    /**
     * positions/repository.ts recordPayment: the transition settle on its guard (the version only), the
     * export's fence included; the citizen's row of the payment list follows (the writer's projection).
     */
    recordPayment(settle: Transition): Promise<boolean>;
    /** The call-level marker of a checkout the payment ends (payments/checkouts.ts). */
    deleteCheckoutMarker(position: Pick<PositionRecord, 'callId' | 'mese' | 'anno' | 'iud'>): Promise<void>;
  };
  audit: { recordMany(entries: readonly AuditEntry[], at: Date): Promise<void> };
  clock: Clock;
  /** PaymentsRecorded and PaymentsToReconcile by channel (functions/domain/business-metrics.ts). */
  metrics?: BusinessMetrics;
}

export type Settled =
  /** Recorded now (`reconciliation` when an operator must look at it). */
  | { kind: 'recorded'; position: PositionRecord; reconciliation: Reconciliation | null }
  /** Recorded before (a reload, the reporting after the return): nothing written. */
  | { kind: 'already-recorded'; position: PositionRecord }
  /** No position of the portal has that IUD. */
  | { kind: 'unknown' }
  /** A position of another call (the reporting of one call leaves it to that call's reporting). */
  | { kind: 'other-call' };

const ATTEMPTS = 5;
const AT_ONCE = 25;

export function makePaymentSettlement({ positions, audit, clock, metrics = noMetrics }: SettlementDeps) {
  async function settleOne(
    receipt: PaymentReceipt,
    at: string,
    callId: string | undefined,
  ): Promise<Settled & { before?: PositionRecord }> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const position = await positions.getPositionByIud(receipt.iud);
      if (!position) return { kind: 'unknown' };
      if (callId && position.callId !== callId) return { kind: 'other-call' };
      const { transition, effect } = settle(position, receipt, at);
      if (effect.kind === 'mismatch') return { kind: 'unknown' };
      if (effect.kind === 'already-recorded' || !transition) return { kind: 'already-recorded', position };
      if (await positions.recordPayment(transition)) {
        if (position.checkoutSession) await positions.deleteCheckoutMarker(position);
        return { kind: 'recorded', position: effect.after, reconciliation: effect.reconciliation, before: position };
      }
    }
    // Five writers in a row won over this one: say so (the reporting and the return can be run again).
    throw new Error(`Pagamento ${receipt.iud} non registrato dopo ${ATTEMPTS} tentativi`);
  }

  return {
    /**
     * Records MyPay's receipts (of one call only, when `callId` is given), each once; one audit entry per
     * payment recorded, written together at the end.
     */
    async settle(
      receipts: readonly PaymentReceipt[],
      actor: Actor,
      options: { callId?: string; channel: 'checkout' | 'reporting' },
    ): Promise<Settled[]> {
      const now = clock.now();
      const at = now.toISOString();
      const results: (Settled & { before?: PositionRecord })[] = [];
      for (let i = 0; i < receipts.length; i += AT_ONCE)
        results.push(
          ...(await Promise.all(receipts.slice(i, i + AT_ONCE).map((r) => settleOne(r, at, options.callId)))),
        );
      const entries: AuditEntry[] = results.flatMap((r) =>
        r.kind === 'recorded'
          ? [
              {
                actor,
                entity: 'position',
                id: r.position.iud,
                action: 'update' as const,
                before: r.before!,
                after: r.position,
              },
            ]
          : [],
      );
      if (entries.length) await audit.recordMany(entries, now);
      const channel = { channel: options.channel };
      metrics.count('PaymentsRecorded', entries.length, channel);
      metrics.count(
        'PaymentsToReconcile',
        results.filter((r) => r.kind === 'recorded' && r.reconciliation).length,
        channel,
      );
      return results.map(({ before: _before, ...settled }) => settled as Settled);
    },
  };
}

export type PaymentSettlement = ReturnType<typeof makePaymentSettlement>;
