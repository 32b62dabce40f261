import { amountFieldText, formatEuro, parseItalianAmount } from '@domain/money';

/** Citizen value (part 2 §5): an optional plus, digits (thousands dots allowed), a comma and at most two decimals. */
const CITIZEN_VALUE = /^\+?[\d.]*(,\d{0,2})?$/;
export const acceptCitizenValue = (next: string): string | null => (CITIZEN_VALUE.test(next) ? next : null);

/** Before sending: dots dropped, the comma becomes the decimal point; '' → undefined (required), bad → NaN. */
export const valueFromText = (text: string): number | undefined =>
  text.trim() === '' ? undefined : parseItalianAmount(text);
export const yearFromText = (text: string): number | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = parseItalianAmount(trimmed);
  return Number.isFinite(value) ? value : Number.NaN;
};

/** The current date-time for a datetime-local input (local time, minutes). */
export function nowForInput(now = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** An ISEE figure as the pages show it, '—' when there is none. */
export const euroOrDash = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : formatEuro(value);

/** The text an amount field shows for an amount: 12345.6 → '12345,60'. */
export const valueToText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : amountFieldText(value);

/** 'Rimozione ISEE': the question names the ISEE (year, value in euro, protocol when there is one). */
export function deleteIseeQuestion(isee: { year: number; value: number; protocollo: string | null }): string {
  const protocol = isee.protocollo ? ` (protocollo ${isee.protocollo})` : '';
  return `Confermi di voler rimuovere l'ISEE ${isee.year} di ${formatEuro(isee.value)}${protocol}?`;
}
