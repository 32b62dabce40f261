/**
 * Italian fiscal codes (codice fiscale): shape and check character, as the Agenzia delle Entrate defines
 * them. The ninth character is the month of birth, one of the twelve letters A B C D E H L M P R S T
 * (January … December): IO checks exactly this shape (io-ts-commons `FiscalCode`,
 * `^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$`) and refuses any
 * other. Homocodic codes replace digits with the letters L M N P Q R S T U V (0–9).
 */
export const FISCAL_CODE_MONTH_LETTERS = 'ABCDEHLMPRST';
export const fiscalCodePattern =
  /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

// Values of the characters in odd positions (1st, 3rd, ...): digits and letters share one table.
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const indexOf = (char: string) => (char >= '0' && char <= '9' ? char.charCodeAt(0) - 48 : char.charCodeAt(0) - 65);

export function fiscalCodeCheckCharacter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const value = indexOf(first15[i]);
    sum += i % 2 === 0 ? ODD[value] : value;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** A legal person's fiscal code (an entity's, the council's own): 11 digits. */
export const entityFiscalCodePattern = /^[0-9]{11}$/;

/** A person's fiscal code by its shape or, lacking one, an entity's: whom a payment notice may be addressed to. */
export const isPersonOrEntityFiscalCode = (code: string): boolean =>
  fiscalCodePattern.test(code) || entityFiscalCodePattern.test(code);

export function isValidFiscalCode(code: string): boolean {
  return fiscalCodePattern.test(code) && fiscalCodeCheckCharacter(code.slice(0, 15)) === code[15];
}
