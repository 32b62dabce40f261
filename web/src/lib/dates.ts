/**
 * Dates as the portal shows them (design §3: stored ISO-8601 UTC, shown in Europe/Rome). Every screen
 * formats its dates here.
 */
import { italianDay } from '@domain/period';

const timeZone = 'Europe/Rome';
const dayFormat = new Intl.DateTimeFormat('it-IT', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' });
/** The year in full: dateStyle 'short' writes '25/11/26'. */
const dateTimeFormat = new Intl.DateTimeFormat('it-IT', {
  timeZone,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const longDayFormat = new Intl.DateTimeFormat('it-IT', { timeZone, day: 'numeric', month: 'long', year: 'numeric' });

/** dd/mm/yyyy in Europe/Rome; a plain yyyy-mm-dd (a due date, an expiry) is shown as that very day; `empty` when there is none. */
export function formatDay(value: string | Date | null | undefined, empty = '—'): string {
  if (!value) return empty;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return italianDay(value);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dayFormat.format(date);
}

/** An ISO instant as the office reads it: day and time in Europe/Rome ('25/11/2026, 14:05'). */
export const formatDateTime = (iso: string | Date) => dateTimeFormat.format(new Date(iso));

/** Day and time to the second ('25/11/2026, 14:05:09'): when a background run ended. */
export const formatTimestamp = (iso: string | Date) => new Date(iso).toLocaleString('it-IT', { timeZone });

/** '25 novembre 2026', as the citizen's cards read. */
export const formatLongDay = (iso: string | Date) => longDayFormat.format(new Date(iso));
