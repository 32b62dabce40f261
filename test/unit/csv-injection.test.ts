import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { enrolmentCsv, parseEnrolmentCsv } from '../../functions/domain/enrolment-csv.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';
import { newUserSchema, profileUpdateSchema, userUpdateSchema } from '../../functions/domain/user-input.ts';
import { writePaymentsWorkbook } from '../../web/src/features/payments/utils/payments-workbook.ts';
import { newUserBody } from '../support/user-body.ts';

/**
 * OWASP "CSV Injection": what an operator downloads never carries a text cell a spreadsheet would run, and
 * names, addresses, cities and e-mails that would be one are refused where they are typed.
 */
const code = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);
const ANNA = code('BRNNNA88M41F839');
const LUCA = code('FRRLCU75E15F205');
const HOSTILE = [
  '=HYPERLINK("http://evil.example","x")',
  '+SUM(1,1)',
  '@SUM(1,1)',
  "-1+1+cmd|' /C calc'!A0",
  '=2+5+cmd@example.it',
  '\tcmd',
  '\rcmd',
];
const FORMULA_MESSAGE = 'Il testo non può iniziare con =, +, -, @, una tabulazione o un a capo.';

/** Every cell of a CSV line, quotes removed, as a spreadsheet reads them. */
const cellsOf = (line: string) =>
  (line.match(/("([^"]|"")*"|[^;]*)(;|$)/g) ?? [])
    .map((cell) => cell.replace(/;$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'))
    .filter((_, i, all) => i < all.length - 1 || all[i] !== '');

describe('the subscriptions export and the template', () => {
  it('writes every hostile text as text (a leading apostrophe), numbers as numbers', () => {
    const rows = HOSTILE.map((text, i) => [ANNA, text, 'Anna', -3 - i, '2,5', '', ''] as (string | number)[]);
    const lines = enrolmentCsv(rows)
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(1, -1);
    lines.forEach((line, i) => {
      const cells = cellsOf(line);
      expect(cells[1]).toBe(`'${HOSTILE[i]}`);
      expect(cells[3]).toBe(String(-3 - i)); // a negative score stays a number
    });
    expect(enrolmentCsv([])).toBe('\uFEFFcodiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\r\n');
  });
});

describe('the enrolment CSV import', () => {
  it('rejects a row whose surname or name would run as a formula, with its line, and keeps the others', () => {
    const parsed = parseEnrolmentCsv(
      `codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\r\n${ANNA};+SUM(1,1);Anna;;;;\r\n${LUCA};Ferrari;@cmd;;;;\r\n${code('RSSMRA80A01H501')};Rossi;Mario;;;;\r\n`,
      new Date('2026-05-10T10:00:00Z'),
    );
    expect(parsed.rows.map((row) => row.lastName)).toEqual(['Rossi']);
    expect(parsed.rejected).toEqual([
      {
        line: 2,
        fiscalCode: ANNA,
        reason:
          'Riga 2: il cognome o il nome “+SUM(1,1)” non può iniziare con =, +, -, @, una tabulazione o un a capo.',
      },
      {
        line: 3,
        fiscalCode: LUCA,
        reason: 'Riga 3: il cognome o il nome “@cmd” non può iniziare con =, +, -, @, una tabulazione o un a capo.',
      },
    ]);
  });
});

describe('names, addresses, cities and e-mails typed in the forms (shared zod schemas)', () => {
  const user = newUserBody({ firstName: 'Anna', lastName: 'Bruno', fiscalCode: ANNA, email: 'anna@example.it' });
  const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

  it.each(['firstName', 'lastName', 'address', 'city', 'email', 'emailPec'])(
    'refuses a %s that begins like a formula, with the Italian message',
    (field) => {
      for (const value of ['=HYPERLINK("x")', '+SUM(1,1)', '-1+1', '@SUM(1,1)', ' =cmd']) {
        const hostile = field.startsWith('email') ? `${value.trim()}@example.it` : value;
        for (const schema of [newUserSchema, userUpdateSchema])
          expect(errorsOf(schema.safeParse({ ...user, [field]: hostile }))[field]).toBe(FORMULA_MESSAGE);
      }
      expect(newUserSchema.safeParse(user).success).toBe(true);
    },
  );

  it('the citizen’s profile refuses them too', () => {
    const profile = {
      email: 'anna@example.it',
      birthDate: '1988-08-01',
      address: 'Via Roma',
      addressNumber: '12',
      cap: '00100',
      city: 'Roma',
      country: 'RM',
      nation: 'IT',
    };
    expect(profileUpdateSchema.safeParse(profile).success).toBe(true);
    expect(
      errorsOf(
        profileUpdateSchema.safeParse({
          ...profile,
          address: '=HYPERLINK("x")',
          city: '@SUM(1)',
          email: '=2+5+cmd@example.it',
        }),
      ),
    ).toEqual({
      address: FORMULA_MESSAGE,
      city: FORMULA_MESSAGE,
      email: FORMULA_MESSAGE,
    });
  });
});

describe('the Excel payment list', () => {
  it('writes stored hostile texts as text, amounts and the year as numbers', async () => {
    const row = {
      cognome: '=HYPERLINK("x")',
      nome: '+SUM(1,1)',
      codiceFiscale: ANNA,
      telefono: '+393331234567',
      email: '@cmd@example.it',
      importoTotale: 12_345,
      paymentIds: ['-1+1'],
    };
    const buffer = await writePaymentsWorkbook(ExcelJS, [row as never], {
      callName: '-Bando',
      anno: 2026,
      extractedAt: new Date('2026-05-10T10:00:00Z'),
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer);
    const cells = workbook.getWorksheet('Pagamenti')!.getRow(2).values as unknown[];
    expect(cells.slice(1)).toEqual([
      `'=HYPERLINK("x")`,
      "'+SUM(1,1)",
      ANNA,
      "'+393331234567",
      "'@cmd@example.it",
      123.45,
      1,
      "'-1+1",
      "'-Bando",
      2026,
      expect.any(Date),
    ]);
  });
});
