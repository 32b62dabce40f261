/**
 * The months the tests bill, computed from today's date in Europe/Rome so that a test holds on any day of any
 * year. A month's due day is its last day: the current month's is never past, so MyPay accepts it where the
 * payment type requires a due date and GPD keeps it (functions/domain/gpd.ts gives a month billed after its due
 * day a later one); it is also the month the operator's pages open on and the one 'Sincronizza' always
 * regenerates. A month already past is the one for late positions. Computed here with Intl, not with the
 * portal's own helpers, so a test does not take its expected values from the code it checks. (A run that crosses
 * midnight at the end of a month still sees its month end under it.)
 */
export interface TestMonth {
  mese: number;
  anno: number;
  /** Only the month and year, as the API takes them: { mese: 11, anno: 2026 }. */
  period: { mese: number; anno: number };
  /** '2026-11', as positions are stored by month. */
  key: string;
  /** 'Novembre 2026', as position titles and the citizen's rows name the month. */
  label: string;
  /** How many days it has (a month's fee counts them: design §4). */
  days: number;
  /** The due day, the month's last: '2026-11-30'. */
  dueDay: string;
  /** The due day as the pages print it: '30/11/2026'. */
  dueDayItalian: string;
  /** The due day's last second in Rome as a UTC instant, as IO's due_date carries it: '2026-11-30T22:59:59.000Z'. */
  dueDayEnd: string;
}

// Made once: an Intl formatter costs far more to make than to use.
const romeMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', year: 'numeric', month: 'numeric' });
const romeOffset = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', timeZoneName: 'longOffset' });
const italianMonth = new Intl.DateTimeFormat('it-IT', { month: 'long', timeZone: 'UTC' });

const romeParts = (now: Date) => {
  const parts = romeMonth
    .formatToParts(now)
    .reduce<Record<string, number>>((all, part) => ({ ...all, [part.type]: Number(part.value) }), {});
  return { mese: parts.month!, anno: parts.year! };
};

/** The month `offset` months from Rome's current one (-1: the month before), with its names and due day. */
export function monthFromNow(offset = 0, now = new Date()): TestMonth {
  const { mese: currentMonth, anno: currentYear } = romeParts(now);
  const index = currentYear * 12 + currentMonth - 1 + offset;
  const anno = Math.floor(index / 12);
  const mese = (index % 12) + 1;
  const mm = String(mese).padStart(2, '0');
  const lastDay = String(new Date(Date.UTC(anno, mese, 0)).getUTCDate()).padStart(2, '0');
  const name = italianMonth.format(new Date(Date.UTC(anno, mese - 1, 15)));
  // Rome's offset from UTC on the due day ('GMT+01:00' in winter, 'GMT+02:00' in summer).
  const utcOffset = romeOffset
    .formatToParts(new Date(`${anno}-${mm}-${lastDay}T12:00:00Z`))
    .find((part) => part.type === 'timeZoneName')!
    .value.replace('GMT', '');
  return {
    mese,
    anno,
    period: { mese, anno },
    key: `${anno}-${mm}`,
    days: Number(lastDay),
    label: `${name[0]!.toUpperCase()}${name.slice(1)} ${anno}`,
    dueDay: `${anno}-${mm}-${lastDay}`,
    dueDayItalian: `${lastDay}/${mm}/${anno}`,
    dueDayEnd: new Date(`${anno}-${mm}-${lastDay}T23:59:59${utcOffset}`).toISOString(),
  };
}

/** The month the tests bill: the current one in Europe/Rome, whose due day is still ahead (or today). */
export const billedMonth = (now = new Date()): TestMonth => monthFromNow(0, now);

/** A month whose due day has passed: `back` months before the current one (late positions, GPD_LATE_DUE_DAYS). */
export const pastMonth = (back = 1, now = new Date()): TestMonth => monthFromNow(-back, now);

/** Today's year in Europe/Rome, for the ISEEs and calls the billed months need. */
export const currentYear = (now = new Date()): number => romeParts(now).anno;

/** A validated ISEE's year and expiry that cover every month of the current year and of the year before. */
export const iseeDates = (now = new Date()) => {
  const year = currentYear(now);
  return { year, date: `${year}-01-20T10:00:00.000Z`, scadenza: `${year}-12-31` };
};

/** Euro cents as the pages print an amount without its sign: 6171 → '61,71' (the tests' amounts are below 1.000 €). */
export const euroDigits = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');
