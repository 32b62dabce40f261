/**
 * CSV and spreadsheet injection (OWASP "CSV Injection"): a text cell that begins with `=`, `+`, `-`, `@`, a
 * tab or a carriage return is run as a formula by Excel, LibreOffice and Google Sheets when the operator
 * opens the download. Every file an operator downloads writes such a text with a leading apostrophe (shown
 * as text, never run); numbers are written as numbers and never touched. Names, addresses, cities and
 * e-mails that begin so are refused at input (functions/domain/user-input.ts), and a row MyPay would receive
 * with one is held back (functions/domain/mypay-csv.ts), so only values stored before these rules reach here.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export const startsLikeFormula = (text: string): boolean => FORMULA_START.test(text);

/** The text as a spreadsheet shows it but never runs it. */
export const neutraliseCell = (text: string): string => (startsLikeFormula(text) ? `'${text}` : text);

export const formulaMessage = 'Il testo non può iniziare con =, +, -, @, una tabulazione o un a capo.';
