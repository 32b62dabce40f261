/**
 * Pure keystroke filters for restricted inputs. Each `accept…` function receives the text the field
 * would hold after a keystroke (or a paste) and returns the text to keep, or null to ignore the
 * keystroke: the field then keeps its previous value (spec: "other input is ignored").
 */

/** Digits, then optionally a comma followed by at most two decimals: '12', '12,', '12,5', '12,50'. */
const AMOUNT_PATTERN = /^\d*(,\d{0,2})?$/;

/** Amount typed the Italian way: digits with an optional comma and up to two decimals. */
export function acceptAmountInput(next: string): string | null {
  return AMOUNT_PATTERN.test(next) ? next : null;
}

/** Up to three integer digits, an optional decimal comma, at most two decimals. */
const PERCENT_PATTERN = /^\d{0,3}(,\d{0,2})?$/;

/**
 * A percentage from 0 to 100 with at most two decimals. A dot is taken as the decimal comma, so
 * '12.5' and '12,5' both give '12,5'.
 */
export function acceptPercentInput(next: string): string | null {
  const text = next.replace('.', ',');
  if (!PERCENT_PATTERN.test(text)) return null;
  const value = parsePercentInput(text);
  if (value === null) return text; // an emptied field: no percentage
  return Number.isNaN(value) || value > 100 ? null : text;
}

/** '' → null (no percentage); '12,5' → 12.5; '12,' → 12; ',' or anything else → NaN. */
export function parsePercentInput(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const normalised = trimmed.replace(',', '.');
  return /^\d+(\.\d{0,2})?$/.test(normalised) ? Number(normalised) : Number.NaN;
}

/** The text an amount field shows for a stored amount: 12 → '12', 12.5 → '12,50'. No thousands dots. */
export function formatAmountInput(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace('.', ',');
}

/** The text a percent field shows: 50 → '50', 12.5 → '12,5', null → ''. */
export function formatPercentInput(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return String(Math.round(value * 100) / 100).replace('.', ',');
}

/** The text a number input shows for a stored number (the browser localises its display). */
export function formatNumberInput(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return String(value);
}

/**
 * Keys a non-negative number input ignores: the sign and the exponent, which a browser's
 * `type="number"` would otherwise let through ('-5', '1e3').
 */
export function isBlockedNumberKey(key: string, allowNegative = false): boolean {
  if (key === 'e' || key === 'E' || key === '+') return true;
  return !allowNegative && key === '-';
}

/** A number input's value as a number: '' → undefined (empty field), otherwise Number(text) (NaN if bad). */
export function parseNumberInput(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return Number(trimmed.replace(',', '.'));
}
