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

/**
 * Which flagGeneraIuv a row carrying an IUV MyPay already holds must say, and whether MyPay takes it
 * (MyPay4 Utilities.validaIUV, called by ImportFlussoTaskService.validaElabora, line ~1117):
 * - with flagGeneraIuv=true any IUV of 17 digits passes (MyPay generates a new one only for an 'I' row
 *   without codIuv, ImportFlussoTaskService ~1612, so an 'M' or 'A' row keeps it);
 * - with flagGeneraIuv=false a 17-digit IUV must start with the entity's application code AND its digits
 *   3–4 must not be "00".
 * MyPay's own generator (IuvService.generateIUVSmall, lines 75 and 110) writes the segregation code then
 * IUV_SISTEMA_INFORMATIVO_ID "00": every IUV MyPay made fails the second rule, and the first too where the
 * application code differs from the segregation code. So an IUV of MyPay's own pattern goes back with
 * flagGeneraIuv=true, as MyPay's own export of its positions writes it (ExportFlussoScadutiTaskService,
 * `dovuto.isFlgGeneraIuv()`); only an IUV made elsewhere goes with false, and must follow the rule.
 */
export const MYPAY_LOCAL_SYSTEM_ID = '00';

/** An IUV of 17 digits as MyPay's generator makes them: any 2-digit code, then "00" (IuvService.java:110). */
export const isMyPayGeneratedIuv = (iuv: string) => DIGITS(17).test(iuv) && iuv.slice(2, 4) === MYPAY_LOCAL_SYSTEM_ID;

/**
 * Why MyPay4 would refuse this IUV sent with flagGeneraIuv=false (Utilities.validaIUV), or null when it takes it.
 * `applicationCode`: the entity's application code on MyPay (a deployment setting, MYPAY_APPLICATION_CODE).
 */
export function entityIuvProblem(iuv: string, applicationCode: string | null | undefined): string | null {
  if (iuv.length === 15) return iuv.startsWith('00') ? fillIuv(iuvMessages.fifteen, iuv, '') : null;
  if (iuv.length === 25)
    return iuv.endsWith('0000') && iuv.slice(6, 8) !== '99' ? fillIuv(iuvMessages.shape, iuv, '') : null;
  if (iuv.length !== 17) return fillIuv(iuvMessages.shape, iuv, '');
  if (!applicationCode) return fillIuv(iuvMessages.noApplicationCode, iuv, '');
  if (!iuv.startsWith(applicationCode)) return fillIuv(iuvMessages.applicationCode, iuv, applicationCode);
  if (iuv.slice(2, 4) === MYPAY_LOCAL_SYSTEM_ID) return fillIuv(iuvMessages.localSystem, iuv, applicationCode);
  return null;
}

export const iuvMessages = {
  applicationCode:
    'lo IUV {iuv} non inizia con il codice applicativo {code} dell’ente: MyPay non lo accetta come IUV dell’ente',
  localSystem:
    'lo IUV {iuv} ha 00 alla terza e quarta cifra, riservate agli IUV generati da MyPay: MyPay non lo accetta come IUV dell’ente',
  noApplicationCode:
    'lo IUV {iuv} non è stato generato da MyPay e il codice applicativo dell’ente non è configurato (MYPAY_APPLICATION_CODE)',
  fifteen: 'lo IUV {iuv} di 15 cifre non può iniziare con 00',
  shape: 'lo IUV {iuv} non ha una lunghezza accettata da MyPay (15, 17 o 25 caratteri)',
} as const;

const fillIuv = (template: string, iuv: string, code: string) => template.replace('{iuv}', iuv).replace('{code}', code);
