/**
 * A person's fiscal code as MyPay4 checks it (`Utilities.isValidCFpf`: 16 characters and
 * `CFUtilities.UCheckDigit.controllaCorrettezza`, the Agenzia delle Entrate's formal check), written for the
 * simulator on its own and not taken from the portal's check: the simulator answers what MyPay answers.
 * Besides the shape and the check character MyPay4 checks the day of birth (1–31, or 41–71), the date (with
 * its own leap-year arithmetic, below), the first letter of the place code (A–I, L, M, Z) and a place number
 * other than 000.
 */
const HOMOCODIC = 'LMNPQRSTUV';
const MONTHS = ' ABCDEHLMPRST';
const PLACE_LETTERS = 'ABCDEFGHILMZ';
// Values of the characters in odd positions (1st, 3rd, …), letters and digits in tables of their own.
const ODD_LETTERS = 'BAKPLCQDREVOSFTGUHMINJWZYX';
const ODD_DIGITS = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];

const isDigit = (char: string) => char >= '0' && char <= '9';
const isLetter = (char: string) => char >= 'A' && char <= 'Z';
const digitOrHomocodic = (char: string) => isDigit(char) || HOMOCODIC.includes(char);
/** Two characters read as a number, a homocodic letter standing for its digit. */
const twoDigits = (code: string, at: number) =>
  Number([code[at], code[at + 1]].map((char) => (isDigit(char) ? char : String(HOMOCODIC.indexOf(char)))).join(''));

/**
 * `controllaData` on 'ddmmyy'. MyPay4 reads the year as '19' followed by the whole 'ddmmyy', so its leap-year
 * test (divisible by 4, and not by 400 unless by 1000) comes to: the two year digits divisible by 4.
 */
function isMyPayDate(day: number, month: number, yy: number): boolean {
  if (month === 2) return day <= (yy % 4 === 0 ? 29 : 28);
  return day <= ([4, 6, 9, 11].includes(month) ? 30 : 31);
}

function checkCharacterHolds(code: string): boolean {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const char = code[i];
    if (i % 2 === 0) sum += isDigit(char) ? ODD_DIGITS[Number(char)] : ODD_LETTERS.indexOf(char);
    else sum += isDigit(char) ? Number(char) : char.charCodeAt(0) - 65;
  }
  return isLetter(code[15]) && sum % 26 === code.charCodeAt(15) - 65;
}

/** MyPay4's check of a natural person's fiscal code (tipoIdentificativoUnivoco F). */
export function isMyPayFiscalCode(value: string): boolean {
  const code = value.toUpperCase();
  if (code.length !== 16) return false;
  if (![...code.slice(0, 6)].every(isLetter)) return false;
  if (![code[6], code[7], code[9], code[10]].every(digitOrHomocodic)) return false;
  const month = MONTHS.indexOf(code[8]);
  if (month < 1) return false;
  const dayCode = twoDigits(code, 9);
  const day = dayCode > 31 ? dayCode - 40 : dayCode;
  if (day < 1 || day > 31 || !isMyPayDate(day, month, twoDigits(code, 6))) return false;
  if (!PLACE_LETTERS.includes(code[11])) return false;
  const place = code.slice(12, 15);
  if (![...place].every(digitOrHomocodic)) return false;
  if ([...place].every(isDigit) && Number(place) === 0) return false;
  return checkCharacterHolds(code);
}
