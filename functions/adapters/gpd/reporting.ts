import { mapAtMost } from '../../domain/at-most.ts';
import { gpdFirstDueDay, iudOfIupd, iupdOfPosition, portalStateOfGpd } from '../../domain/gpd.ts';
import type {
  PaymentPlatform,
  PlatformPayment,
  PlatformPositionState,
  PlatformReporting,
} from '../../domain/payment-platform.ts';
import { romeDay } from '../../domain/period.ts';
import { LIST_PAGE_SIZE, type GpdClient, type GpdPosition } from './client.ts';

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

/** GPD's state of a position as the portal's (the port's PlatformPositionState). */
const stateOf = (iud: string, held: GpdPosition): PlatformPositionState => ({
  iud,
  ...portalStateOfGpd(held.status),
  platformState: held.status,
  payments: paymentsOf(iud, held),
});

/** How many positions are read one by one at once (the client's pacer spaces them to GPD's limit). */
const READS_AT_ONCE = 10;

/**
 * Due-date windows GPD's list accepts (at most 30 days from the first day to the last, DebtPositionValidation.
 * checkDatesInterval) covering every day given, with a day's margin each side (GPD's date is the UTC end of a Rome
 * day: domain/gpd.ts gpdDueDate).
 */
export function dueDateWindows(days: readonly string[]): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  for (const day of [...new Set(days)].sort()) {
    const last = windows.at(-1);
    if (last && addDays(day, 1) <= addDays(last.from, 30)) last.to = [last.to, addDays(day, 1)].sort()[1]!;
    else windows.push({ from: addDays(day, -1), to: addDays(day, 1) });
  }
  return windows;
}

/** A page of GPD's list, ordered by iupd (client.ts positionPage). */
type ListPage = { positions: GpdPosition[]; page: number; totalPages: number };

/**
 * The runs of iupds that sit together in GPD's list ordered by iupd: a call's call-first iupds (gpdCallIupdPrefix)
 * in one run; the iupds derived from IUDs alone (positions reserved before) interleave the calls, in one run of their
 * own. Each run sorted.
 */
export function iupdRuns(iupds: readonly string[]): { iupds: string[]; interleaved: boolean }[] {
  const runs = new Map<string, Set<string>>();
  for (const iupd of iupds) {
    const key = /^PSS-C[0-9A-F]{10}-/.exec(iupd)?.[0] ?? '';
    runs.set(key, (runs.get(key) ?? new Set()).add(iupd));
  }
  return [...runs].map(([key, run]) => ({ iupds: [...run].sort(), interleaved: key === '' }));
}

/**
 * GPD's states of the positions 'Sincronizza' reads (the port's positionStates, domain/platform-sync.ts), from GPD's
 * list by due date, not one GET each: a month's 10,000 positions in about 200 calls (pages of 50) where they took
 * 10,000, paced at GPD's 10 a second. The list is read in the windows of the due days GPD was given when it first took
 * them (gpdFirstDueDay), ordered by iupd. The window also lists the council's other positions due then (other calls,
 * other offices); GPD filters by nothing else, so each run of the call's iupds (iupdRuns) is found by halving the
 * pages (about log2 of them) and read from there to its last iupd: a call's positions reserved with call-first iupds
 * cost their own pages, not the other calls'. When reading a run would take more calls than its positions, or the
 * pages left outnumber the ones not found yet, those are read one by one by iupd instead; so is any position the list
 * did not show (an update after the month's end moved its due date on, or GPD's pages moved while read).
 * Here beside the reporting so the jobs' function, which bundles this file already, needs nothing more.
 */
export const gpdPositionStates =
  (client: Pick<GpdClient, 'getPosition' | 'positionPage'>): PaymentPlatform['positionStates'] =>
  async (positions) => {
    const wanted = new Map(positions.map((p) => [iupdOfPosition(p), p.iud]));
    const found = new Map<string, PlatformPositionState>();
    const take = (held: GpdPosition) => {
      const iud = wanted.get(held.iupd);
      if (iud !== undefined) found.set(iud, stateOf(iud, held));
    };
    const seen = (iupd: string) => found.has(wanted.get(iupd)!);

    for (const window of dueDateWindows(positions.map(gpdFirstDueDay))) {
      const pages = new Map<number, ListPage>();
      const pageAt = async (n: number) => {
        let page = pages.get(n);
        if (!page) {
          page = await client.positionPage({ dueDateFrom: window.from, dueDateTo: window.to }, n);
          page.positions.forEach(take);
          pages.set(n, page);
        }
        return page;
      };
      const inWindow = positions.filter((p) => {
        const day = gpdFirstDueDay(p);
        return day >= window.from && day <= window.to;
      });
      for (const { iupds: run, interleaved } of iupdRuns(inWindow.map(iupdOfPosition))) {
        const missing = () => run.filter((iupd) => !seen(iupd)).length;
        const total = (await pageAt(0)).totalPages;
        // By count: finding the run costs about log2 of the pages, then its own pages; reading by iupd, a call each.
        if (total === 0 || missing() < Math.ceil(Math.log2(total)) + Math.ceil(run.length / LIST_PAGE_SIZE)) continue;
        const lastOf = (page: ListPage) => page.positions.at(-1)?.iupd;
        // The first page whose last iupd reaches the run's first (an empty page: GPD's list shrank meanwhile).
        let [low, high] = [0, total - 1];
        while (low < high) {
          const middle = Math.floor((low + high) / 2);
          const last = lastOf(await pageAt(middle));
          if (last !== undefined && last < run[0]!) low = middle + 1;
          else high = middle;
        }
        for (let n = low; n < total && missing() > 0; n += 1) {
          // Interleaved iupds may sit on any page left: once those outnumber the ones missing, GET these instead.
          if (interleaved && total - n > missing()) break;
          const last = lastOf(await pageAt(n));
          if (last === undefined || last >= run.at(-1)!) break;
        }
      }
    }
    const unseen = [...wanted].filter(([, iud]) => !found.has(iud));
    await mapAtMost(unseen, READS_AT_ONCE, async ([iupd]) => {
      const held = await client.getPosition(iupd);
      if (held) take(held);
    });
    return found;
  };
