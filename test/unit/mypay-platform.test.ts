import { describe, expect, it } from 'vitest';
import { MyPayUnavailable } from '../../functions/adapters/mypay.ts';
import { makeMyPayPlatform } from '../../functions/adapters/mypay/platform.ts';
import type { MyPay, MyPayPaidRow, MyPayPaymentOutcome } from '../../functions/adapters/ports/mypay.ts';
import {
  PLATFORM_CAPABILITIES,
  type PayableNotice,
  type PlatformExport,
} from '../../functions/domain/payment-platform.ts';

/**
 * MyPay behind the payment-platform port (functions/adapters/mypay/platform.ts): the same calls 'Paga', its return
 * and 'Rendicontazione' make today, read as the port's. MyPay's own calls are covered against the simulator
 * (test/integration/mypay.test.ts); here a MyPay that answers as the adapter does, recording what it was asked.
 */
const paid = { iud: 'P20260001', iuv: '01000000001234519', amountCents: 4350, paidOn: '2026-03-05', iur: 'IUR-0001' };
function fakeMyPay(outcome: MyPayPaymentOutcome = { status: 'PAID', payments: [paid] }) {
  const asked: unknown[][] = [];
  const mypay: Pick<MyPay, 'openPositionCheckout' | 'paymentOutcome' | 'reportPaid'> = {
    openPositionCheckout: async (iuv, returnUrl, deadline) => (
      asked.push(['open', iuv, returnUrl, deadline]),
      iuv === '01000000009999927' ? null : { idSession: 'sessione-7', url: 'https://mypay.test/landing?s=7' }
    ),
    paymentOutcome: async (idSession, deadline) => (asked.push(['outcome', idSession, deadline]), outcome),
    reportPaid: async (from, to) => (
      asked.push(['report', from, to]),
      [{ ...paid, fiscalCode: 'RSSMRA80A01H501U', causale: 'Servizio pasti marzo' } satisfies MyPayPaidRow]
    ),
  };
  return { mypay, asked };
}
const exportPart: PlatformExport = {
  submit: async () => ({ ticket: 'T1', results: null }),
  progress: async () => ({ state: 'pending', platformState: 'IMPORT_IN_ELAB' }),
};
const notice = (iuv: string): PayableNotice => ({
  iud: 'P20260001',
  iuv,
  noticeNumber: `3${iuv}`,
  amountCents: 4350,
  description: 'Servizio pasti marzo',
});

describe('MyPay as the payment platform', () => {
  it('says what MyPay has and has not: import files, one notice a checkout, IUVs it assigns, no publication state', () => {
    const platform = makeMyPayPlatform(fakeMyPay().mypay, { export: exportPart });
    expect(platform.name).toBe('mypay');
    expect(platform.capabilities).toEqual(PLATFORM_CAPABILITIES.mypay);
    expect(platform.capabilities).toMatchObject({
      importFiles: true,
      publication: false,
      cartSize: 1,
      platformAssignsIuv: true,
    });
    expect(platform.export).toBe(exportPart);
  });

  it("'Paga' opens MyPay's checkout of the one notice by its IUV, back to the portal's page, within the caller's deadline; nothing payable is null", async () => {
    const { mypay, asked } = fakeMyPay();
    const platform = makeMyPayPlatform(mypay, { export: exportPart });
    const deadline = Date.now() + 5000;
    const opened = await platform.checkout.open(
      {
        notices: [notice('01000000001234519')],
        returnUrl: 'https://portale.test/pagamenti/esito',
        correlationId: 'c-1',
      },
      { deadline },
    );
    expect(opened).toEqual({ sessionId: 'sessione-7', url: 'https://mypay.test/landing?s=7' });
    expect(asked).toEqual([['open', '01000000001234519', 'https://portale.test/pagamenti/esito', deadline]]);
    expect(
      await platform.checkout.open({
        notices: [notice('01000000009999927')],
        returnUrl: 'https://portale.test/pagamenti/esito',
        correlationId: 'c-2',
      }),
    ).toBeNull();
  });

  it('refuses a checkout of several notices (MyPay pays one position at a time) without asking MyPay', async () => {
    const { mypay, asked } = fakeMyPay();
    const platform = makeMyPayPlatform(mypay, { export: exportPart });
    await expect(
      platform.checkout.open({
        notices: [notice('01000000001234519'), notice('01000000001234620')],
        returnUrl: 'https://portale.test/x',
        correlationId: 'c',
      }),
    ).rejects.toThrow('MyPay: un avviso per pagamento, non 2');
    expect(asked).toEqual([]);
  });

  it("the return's outcome is MyPay's by its session, each payment with MyPay's IUR as the receipt id", async () => {
    const { mypay, asked } = fakeMyPay();
    const platform = makeMyPayPlatform(mypay, { export: exportPart });
    expect(
      await platform.checkout.outcome({ sessionId: 'sessione-7', notices: [notice(paid.iuv)] }, { deadline: 123 }),
    ).toEqual({
      status: 'PAID',
      payments: [{ iud: 'P20260001', iuv: paid.iuv, amountCents: 4350, paidOn: '2026-03-05', receiptId: 'IUR-0001' }],
    });
    expect(asked).toEqual([['outcome', 'sessione-7', 123]]);
    const unknown = makeMyPayPlatform(fakeMyPay({ status: 'UNKNOWN', payments: [] }).mypay, { export: exportPart });
    expect(await unknown.checkout.outcome({ sessionId: 'sessione-8', notices: [] })).toEqual({
      status: 'UNKNOWN',
      payments: [],
    });
  });

  it("the reporting is MyPay's export of what was paid between the two days, and MyPay's errors keep their names", async () => {
    const { mypay, asked } = fakeMyPay();
    const platform = makeMyPayPlatform(mypay, { export: exportPart });
    expect(await platform.reporting.paidBetween('2026-03-01', '2026-03-31')).toEqual([
      { iud: 'P20260001', iuv: paid.iuv, amountCents: 4350, paidOn: '2026-03-05', receiptId: 'IUR-0001' },
    ]);
    expect(asked).toEqual([['report', '2026-03-01', '2026-03-31']]);
    const down = makeMyPayPlatform(
      {
        ...mypay,
        reportPaid: async () => {
          throw new MyPayUnavailable('paaSILPrenotaExportFlusso: HTTP 503', 'paaSILPrenotaExportFlusso');
        },
      },
      { export: exportPart },
    );
    await expect(down.reporting.paidBetween('2026-03-01', '2026-03-31')).rejects.toMatchObject({
      name: 'MyPayUnavailable',
    });
  });
});
