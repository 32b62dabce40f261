import {
  PLATFORM_CAPABILITIES,
  type PaymentPlatform,
  type PlatformCheckout,
  type PlatformExport,
  type PlatformPayment,
  type PlatformReporting,
} from '../../domain/payment-platform.ts';
import type { MyPay, MyPayPaidItem } from '../ports/mypay.ts';

/**
 * MyPay behind the payment-platform port (functions/domain/payment-platform.ts), over today's MyPay calls
 * (functions/adapters/mypay.ts): 'Paga' is paaSILVerificaAvviso for one notice (MyPay pays one position per
 * checkout), its outcome paaSILChiediPagati by MyPay's session, the reporting MyPay's export of what was paid.
 * Errors stay MyPay's (`MyPayUnavailable`, `MyPayFault`), as the port names them.
 *
 * The export is given by the caller: on MyPay it is the import of a CSV in a ZIP with its result files, built
 * from what the flow's steps hold (the payer's address, the call's configuration), which the port's positions
 * do not carry.
 */
const payment = (item: MyPayPaidItem): PlatformPayment => ({
  iud: item.iud,
  iuv: item.iuv,
  amountCents: item.amountCents,
  paidOn: item.paidOn,
  receiptId: item.iur,
});

/**
 * 'Paga' on MyPay: one notice, by its IUV. The return address goes to MyPay as given: MyPay's landing adds its own
 * session (idSession) when it sends the citizen back, and that session is the checkout's correlation.
 */
export const myPayCheckout = (mypay: Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome'>): PlatformCheckout => ({
  async open({ notices, returnUrl }, options = {}) {
    if (notices.length !== 1) throw new RangeError(`MyPay: un avviso per pagamento, non ${notices.length}`);
    const session = await mypay.openPositionCheckout(notices[0]!.iuv, returnUrl, options.deadline);
    return session && { sessionId: session.idSession, url: session.url };
  },
  async outcome({ sessionId }, options = {}) {
    const outcome = await mypay.paymentOutcome(sessionId, options.deadline);
    return { status: outcome.status, payments: outcome.payments.map(payment) };
  },
});

/** The reporting on MyPay: its export of what was paid on those days. */
export const myPayReporting = (mypay: Pick<MyPay, 'reportPaid'>): PlatformReporting => ({
  paidBetween: async (from, to) => (await mypay.reportPaid(from, to)).map(payment),
});

export function makeMyPayPlatform(
  mypay: Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome' | 'reportPaid'>,
  parts: { export: PlatformExport },
): PaymentPlatform {
  return {
    name: 'mypay',
    capabilities: PLATFORM_CAPABILITIES.mypay,
    export: parts.export,
    checkout: myPayCheckout(mypay),
    reporting: myPayReporting(mypay),

    /** MyPay has no reading of positions: their state comes from the reporting ('Rendicontazione'). */
    async positionStates() {
      throw new Error(
        'MyPay non offre la lettura di una singola posizione: lo stato dei pagamenti viene dalla rendicontazione',
      );
    },
  };
}
