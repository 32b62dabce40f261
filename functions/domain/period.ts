/** A month of a year (1–12), as the debt positions and the fees count them. Apart from payments.ts (zod schemas) so light bundles can use it. */
export interface Period {
  mese: number;
  anno: number;
}

let romeMonth: Intl.DateTimeFormat | undefined;

/** The current month and year in Europe/Rome (part 2 §9: "CSV month and year default to the current ones"). */
export function currentPeriod(now: Date): Period {
  // One formatter for the process: making one costs ~0.1 ms, and the enrolment table asks once per row.
  romeMonth ??= new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', year: 'numeric', month: 'numeric' });
  const parts = romeMonth.formatToParts(now);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return { mese: get('month'), anno: get('year') };
}

let romeDayFormat: Intl.DateTimeFormat | undefined;

/** Today's date in Europe/Rome, yyyy-mm-dd. */
export function romeDay(now: Date): string {
  romeDayFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return romeDayFormat.format(now);
}
/** The current year in Europe/Rome: on 1 January at 00:30 in Rome it is already the new year (UTC is not). */
export const romeYear = (now: Date): number => currentPeriod(now).anno;

/** "2026-03". */
export const periodKey = ({ mese, anno }: Period) => `${anno}-${String(mese).padStart(2, '0')}`;

/** A day as the portal writes it: yyyy-mm-dd (or an ISO instant's date part) → dd/mm/yyyy; '—' when there is none. */
export const italianDay = (day: string | null | undefined): string => {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})/.exec(day) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '—';
};
