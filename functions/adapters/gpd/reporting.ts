import { gpdIupd, iudOfIupd, portalStateOfGpd } from '../../domain/gpd.ts';
import type { PaymentPlatform, PlatformPayment, PlatformReporting } from '../../domain/payment-platform.ts';
import { romeDay } from '../../domain/period.ts';
import type { GpdClient, GpdPosition } from './client.ts';

/**
 * GPD's reporting behind the port (reporting.paidBetween), on its own so that the reporting job, which needs only
 * this, does not carry the export and the checkout (functions/adapters/gpd/platform.ts composes them).
 */

/** A GPD LocalDateTime (UTC, no offset) or a date-time with an offset, as the Rome day the portal shows. */
export const dayOf = (dateTime: string) =>
  romeDay(new Date(/[zZ]|[+-]\d\d:\d\d$/.test(dateTime) ? dateTime : `${dateTime.slice(0, 19)}Z`));

export const paymentsOf = (iud: string, position: GpdPosition): PlatformPayment[] =>
  position.paymentOption
    .filter((o) => o.status === 'PO_PAID' || o.status === 'PO_REPORTED' || o.status === 'PO_PARTIALLY_REPORTED')
    .map((o) => ({
      iud,
      iuv: o.iuv,
      amountCents: o.amount,
      // GPD's LocalDateTime is UTC: the day is Rome's, as every day the portal shows.
      paidOn: dayOf(o.paymentDate ?? position.paymentDate ?? ''),
      receiptId: o.idReceipt ?? '',
      ...(o.pspCompany ? { psp: o.pspCompany } : {}),
    }));

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** pagoPA GPD's payments of a range of days: its receipts and the positions paid then. */
export const gpdReporting = (client: Pick<GpdClient, 'receipts' | 'listPositions'>): PlatformReporting => ({
  /**
   * The council's payments between the two Rome days, read by payment-date windows of ≤ 30 days (UTC days, one
   * more each side): the receipts of those days (the list names the IUV only: pagopa-api issues 1024, 1077) and
   * the positions paid then (their `iupd`, hence the IUD, and the receipt's fields on the option: amount,
   * idReceipt, pspCompany). A position reading PAID whose receipt has not arrived yet waits for it; one paid
   * outside pagoPA (paymentoptions/paids, no receipt ever) is recorded from the position.
   */
  async paidBetween(from, to, options = {}) {
    const found: PlatformPayment[] = [];
    for (let start = addDays(from, -1); start <= addDays(to, 1); start = addDays(start, 30)) {
      const end = [addDays(start, 29), addDays(to, 1)].sort()[0]!;
      const receipted = new Set((await client.receipts(start, end, options)).map((r) => r.iuv));
      const arrived = (p: PlatformPayment) => receipted.has(p.iuv) || !p.receiptId;
      for (const status of ['PAID', 'REPORTED'] as const) {
        for (const position of await client.listPositions(
          { paymentDateFrom: start, paymentDateTo: end, status },
          options,
        )) {
          const own = iudOfIupd(position.iupd);
          if (own)
            found.push(
              ...paymentsOf(own.iud, position).filter((p) => arrived(p) && p.paidOn >= from && p.paidOn <= to),
            );
        }
      }
    }
    return found;
  },
});

/**
 * GPD's state of one position as the portal's (the port's positionState): for 'Sincronizza' (domain/platform-sync.ts),
 * here beside the reporting so the jobs' function, which bundles this file already, needs nothing more.
 */
export const gpdPositionState =
  (client: Pick<GpdClient, 'getPosition'>): PaymentPlatform['positionState'] =>
  async ({ iud, revision }) => {
    const held = await client.getPosition(gpdIupd(iud, revision ?? 0));
    if (!held) return null;
    return { iud, ...portalStateOfGpd(held.status), platformState: held.status, payments: paymentsOf(iud, held) };
  };
