import { describe, expect, it } from 'vitest';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { isMyPayFiscalCode } from '../../lib/local/mypay/fiscal-code.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';

/**
 * The MyPay simulator refuses a payer's fiscal code as MyPay4 does (`Utilities.isValidCFpf`, `CFUtilities`),
 * with a check of its own: what MyPay refuses, the simulator refuses, whatever the portal's own check says.
 */
const withCheck = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);

describe("the MyPay simulator's fiscal-code check", () => {
  it('accepts a right code, in capitals or not, and its homocodic forms', () => {
    expect(isMyPayFiscalCode('RSSMRA85C52H501N')).toBe(true);
    expect(isMyPayFiscalCode('rssmra85c52h501n')).toBe(true);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C52H5LM'))).toBe(true);
    expect(isMyPayFiscalCode(withCheck('RSSMRARVC52H501'))).toBe(true);
  });

  it('refuses a wrong check character, length or month letter', () => {
    expect(isMyPayFiscalCode('RSSMRA85C52H501A')).toBe(false);
    expect(isMyPayFiscalCode('RSSMRA85C52H501')).toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85F52H501'))).toBe(false);
  });

  it('refuses, with a right check character, what only MyPay checks: the day, the date, the place code', () => {
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C00H501')), 'day 00').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C32H501')), 'day 32').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C72H501')), 'day 72 (a woman born on the 32nd)').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85D31H501')), '31 April').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85B30H501')), '30 February').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85B28H501')), '28 February').toBe(true);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C52N501')), 'place letter N').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C52H000')), 'place number 000').toBe(false);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85C52Z127')), 'born abroad').toBe(true);
  });

  it("takes 29 February as MyPay4 does: in any year whose two digits are a multiple of 4 ('19' + ddmmyy)", () => {
    expect(isMyPayFiscalCode(withCheck('RSSMRA84B29H501'))).toBe(true);
    expect(isMyPayFiscalCode(withCheck('RSSMRA00B29H501'))).toBe(true);
    expect(isMyPayFiscalCode(withCheck('RSSMRA85B29H501'))).toBe(false);
  });

  it('accepts every code the tests and benchmarks make', () => {
    let seed = 11;
    const seeded = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 2000; i++) expect(isMyPayFiscalCode(randomFiscalCodeFrom(seeded))).toBe(true);
  });
});
