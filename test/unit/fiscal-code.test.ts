import { describe, expect, it } from 'vitest';
import { parseEnrolmentCsv } from '../../functions/domain/enrolment-csv.ts';
import { fiscalCodeCheckCharacter, isValidFiscalCode } from '../../functions/domain/fiscal-code.ts';
import { positionsByFiscalCodeQuerySchema } from '../../functions/domain/position-payment.ts';
import { newUserSchema, userUpdateSchema } from '../../functions/domain/user-input.ts';
import { randomFiscalCode } from '../support/isee.ts';
import { randomFiscalCodeFrom } from '../support/fiscal-codes.ts';
import { newUserBody } from '../support/user-body.ts';

/**
 * The month letter (the 9th character) of a fiscal code is one of A B C D E H L M P R S T: the Agenzia delle
 * Entrate's rule, and the pattern IO applies to every fiscal code it receives (pagopa/io-ts-commons
 * src/strings.ts, `FiscalCode`). A code with another letter there and a right check character used to pass
 * the portal's checks and then be refused by IO.
 */
const withCheck = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);
const MONTHS = 'ABCDEHLMPRST';
const OTHERS = 'FGIJKNOQUVWXYZ';

describe('fiscal code: the month letter', () => {
  it('accepts the twelve month letters and refuses the fourteen others, even with a right check character', () => {
    for (const month of MONTHS) expect(isValidFiscalCode(withCheck(`RSSMRA85${month}52H501`)), month).toBe(true);
    for (const month of OTHERS) expect(isValidFiscalCode(withCheck(`RSSMRA85${month}52H501`)), month).toBe(false);
  });

  it('keeps the check character and homocodic substitutions', () => {
    expect(isValidFiscalCode('RSSMRA85C52H501N')).toBe(true);
    expect(isValidFiscalCode('RSSMRA85C52H501A')).toBe(false);
    // Homocodic: digits replaced from the right by L M N P Q R S T U V (1 → M, 5 → R, 0 → L).
    expect(isValidFiscalCode(withCheck('RSSMRA85C52H5LM'))).toBe(true);
    expect(isValidFiscalCode(withCheck('RSSMRARVC52H501'))).toBe(true);
  });

  it('every place a fiscal code is entered refuses a wrong month letter with its Italian message', () => {
    const wrongMonth = withCheck('RSSMRA85F52H501');
    const user = newUserBody({ firstName: 'Maria', lastName: 'Rossi' });
    const refused = newUserSchema.safeParse({ ...user, fiscalCode: wrongMonth });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.find((i) => i.path[0] === 'fiscalCode')?.message).toBe('Il codice fiscale è errato!');
    expect(newUserSchema.safeParse({ ...user, fiscalCode: 'RSSMRA85C52H501N' }).success).toBe(true);
    expect(userUpdateSchema.safeParse({ ...user, fiscalCode: wrongMonth }).success).toBe(false);
    expect(userUpdateSchema.safeParse({ ...user, fiscalCode: 'RSSMRA85C52H501N' }).success).toBe(true);
    expect(positionsByFiscalCodeQuerySchema.safeParse({ fiscalCode: wrongMonth }).success).toBe(false);
    expect(positionsByFiscalCodeQuerySchema.safeParse({ fiscalCode: 'rssmra85c52h501n' }).success).toBe(true);

    const csv = parseEnrolmentCsv(
      `codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\n${wrongMonth};Rossi;Maria;;;;\nRSSMRA85C52H501N;Rossi;Maria;;;;`,
      new Date('2026-05-10T10:00:00Z'),
    );
    expect(csv.rows.map((r) => r.fiscalCode)).toEqual(['RSSMRA85C52H501N']);
    expect(csv.rejected).toHaveLength(1);
    expect(csv.rejected[0]!.reason).toContain('codice fiscale');
  });

  it('the test and benchmark generators make only codes IO accepts', () => {
    let seed = 7;
    const seeded = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 2000; i++) {
      expect(isValidFiscalCode(randomFiscalCodeFrom(seeded))).toBe(true);
      expect(isValidFiscalCode(randomFiscalCode())).toBe(true);
    }
  });
});
