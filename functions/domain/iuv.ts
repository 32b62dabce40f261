/**
 * pagoPA IUV and notice number (NAV, "numero avviso"), as reference.md describes them.
 *
 * With aux digit 3 (the council's own IUVs, the one MyPay assigns here):
 *   NAV = "3" + segregation code (2 digits) + IUV base (13 digits) + check digits (2)   — 18 digits
 *   IUV = the last 17 digits of the NAV
 *   check digits = ("3" + segregation code + IUV base) mod 93, zero-padded to 2
 * Example: segregation 01, base 0000000012345 → IUV 01000000001234519, NAV 301000000001234519.
 * The portal only reads and checks them: MyPay assigns the IUVs (locally lib/local/mypay-iuv.ts, from
 * MyPay's own generator).
 *
 * Pure: no I/O. BigInt because 16 digits exceed Number's exact range.
 */
export const NAV_PATTERN = /^[0123][0-9]{17}$/;
const DIGITS = (length: number) => new RegExp(`^[0-9]{${length}}$`);

/** The two check digits of the 16 digits that precede them (aux digit + the rest). */
export function checkDigits(first16: string): string {
  if (!DIGITS(16).test(first16)) throw new RangeError(`Expected 16 digits, got "${first16}"`);
  return String(BigInt(first16) % 93n).padStart(2, '0');
}

/** The NAV of a 17-digit IUV with aux digit 3. */
export const navOfIuv = (iuv: string): string => `3${iuv}`;

/** A 17-digit IUV with aux digit 3 whose check digits are right. */
export function isValidIuv(iuv: string): boolean {
  return DIGITS(17).test(iuv) && checkDigits(`3${iuv.slice(0, 15)}`) === iuv.slice(15);
}

/**
 * A notice number as IO and pagoPA accept it: ^[0123][0-9]{17}$ and, for aux digits 0, 2 and 3, check
 * digits = first 16 digits mod 93 (aux 0: + application code + 13-digit base; aux 2: + 15-digit base;
 * aux 3: + segregation code + 13-digit base). Aux digit 1 has no check digits (a 17-digit IUV).
 */
export function isValidNav(nav: string): boolean {
  if (!NAV_PATTERN.test(nav)) return false;
  if (nav[0] === '1') return true;
  return checkDigits(nav.slice(0, 16)) === nav.slice(16);
}
