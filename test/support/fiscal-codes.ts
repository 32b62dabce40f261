import { FISCAL_CODE_MONTH_LETTERS, fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';

/** The first letter of a place code: A–I, L, M for an Italian town, Z for a foreign country. */
const PLACE_LETTERS = 'ABCDEFGHILMZ';

/**
 * A fiscal code with a right check character and the shape IO, MyPay and the Agenzia delle Entrate accept (a
 * month letter of A B C D E H L M P R S T, a day of birth 01–31, or 41–71 for women, a place code of a letter
 * A–I, L, M or Z and a number other than 000), from the given source of randomness (a seeded one in the
 * benchmarks, so their data is the same every run).
 */
export function randomFiscalCodeFrom(random: () => number = Math.random): string {
  const letter = () => String.fromCharCode(65 + Math.floor(random() * 26));
  const digit = () => String(Math.floor(random() * 10));
  const month = FISCAL_CODE_MONTH_LETTERS[Math.floor(random() * FISCAL_CODE_MONTH_LETTERS.length)];
  const day = 1 + Math.floor(random() * 28) + (random() < 0.5 ? 40 : 0);
  const place = `${PLACE_LETTERS[Math.floor(random() * PLACE_LETTERS.length)]}${String(1 + Math.floor(random() * 999)).padStart(3, '0')}`;
  const first15 = `${letter()}${letter()}${letter()}${letter()}${letter()}${letter()}${digit()}${digit()}${month}${String(day).padStart(2, '0')}${place}`;
  return first15 + fiscalCodeCheckCharacter(first15);
}
