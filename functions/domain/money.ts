/** Money is stored as integer cents and exchanged with the web as euro amounts with at most two decimals. */
export const toCents = (euros: number): number => Math.round(euros * 100);
export const toEuros = (cents: number): number => cents / 100;

const euroFormat = new Intl.NumberFormat('it-IT', {
  style: 'currency',
  currency: 'EUR',
  useGrouping: 'always',
} as Intl.NumberFormatOptions);
/** The one way the portal shows money: Italian format, thousands dot always ('1.075,07 €', also for four digits), euro sign. */
export const formatEuro = (euros: number): string => euroFormat.format(euros);
/** The same, from the integer cents the API stores and sends. */
export const formatEuroCents = (cents: number): string => formatEuro(toEuros(cents));
/** Cents in euro, or null when there is no amount (an attestation's missing figure). */
export const toEurosOrNull = (cents: number | null | undefined): number | null =>
  cents === null || cents === undefined ? null : toEuros(cents);

const twoDecimals = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const amountFormat = new Intl.NumberFormat('it-IT', {
  ...twoDecimals,
  useGrouping: 'always',
} as Intl.NumberFormatOptions);
/** Cents without the euro sign, as the pagoPA notice prints them: 123456789 → "1.234.567,89". */
export const formatAmountCents = (cents: number): string => amountFormat.format(toEuros(cents));
const fieldFormat = new Intl.NumberFormat('it-IT', { ...twoDecimals, useGrouping: false });
/** The text an amount field shows for an amount in euro: 12345.6 → "12345,60" (no thousands dot). */
export const amountFieldText = (euros: number): string => fieldFormat.format(euros);

/** "12,5" for 12.5; "" for null. No thousands separator: Excel reads it back as the same number. */
export const decimalComma = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : String(Number(value.toFixed(2))).replace('.', ',');

/** Cents as MyPay and INPS write amounts: 1234 → "12.34" (a dot, always two decimals). */
export const centsToDecimal = (cents: number): string =>
  `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** Such an amount back to cents: "12.34" → 1234, exactly (no floating point). */
export function decimalToCents(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`Not an amount: "${text}"`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** True when the number has at most two decimals (12.5 yes, 12.345 no), tolerant of binary fractions. */
export const hasAtMostTwoDecimals = (value: number): boolean => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/**
 * Turns what a person types in an Italian amount field into a number:
 * thousands dots dropped, the comma becomes the decimal point ("1.234,5" → 1234.5).
 * Returns NaN when the text is not an amount.
 */
export function parseItalianAmount(text: string): number {
  const cleaned = text.trim().replace(/^\+/, '').replace(/\./g, '').replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/**
 * An amount typed the Italian way, leniently ("10000", "10000,50", "10.000,50 €", also "10000.50"), in euros,
 * or NaN. A single dot followed by one or two digits is a decimal point; any other dot groups thousands.
 */
export function parseEuroText(text: string): number {
  const trimmed = text.trim().replace(/\s|€/g, '');
  if (/^\+?\d+\.\d{1,2}$/.test(trimmed)) return Number(trimmed.replace('+', ''));
  if (/^\+?\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(trimmed) || /^\+?\d+(,\d{1,2})?$/.test(trimmed))
    return parseItalianAmount(trimmed);
  return Number.NaN;
}

/** The same in cents (an enrolment CSV's ISEE value), or NaN. */
export const parseEuroToCents = (text: string): number => {
  const euros = parseEuroText(text);
  return Number.isNaN(euros) ? Number.NaN : toCents(euros);
};
