import { describe, expect, it } from 'vitest';
import { csvFileName, decodeCsv, enrolmentCsv, isCsvContentType, parseEnrolmentCsv, planImport, type ImportUser } from '../../functions/domain/enrolment-csv.ts';
import { parseEuroToCents } from '../../functions/domain/enrolment.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';

const code = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);
const ANNA = code('BRNNNA88M41F839');
const LUCA = code('FRRLCU75E15F205');
const now = new Date('2026-05-10T10:00:00Z');
const HEADER = 'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee';

const parse = (text: string) => parseEnrolmentCsv(text, now);

describe('reading the enrolment CSV as offices produce it', () => {
  it('decodes UTF-8 with a BOM, and Windows-1252 (not valid UTF-8) with its accented letters', () => {
    const withBom = decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(`${HEADER}\r\n${ANNA};Niccolò;Anna;;;;`)]));
    expect(withBom.startsWith('codiceFiscale')).toBe(true);
    expect(parse(withBom).rows[0].lastName).toBe('Niccolò');
    // "Niccolò" in Windows-1252: ò is the single byte 0xF2.
    const latin = Buffer.concat([Buffer.from(`${HEADER}\r\n${ANNA};Niccol`), Buffer.from([0xf2]), Buffer.from(';Anna;;;;')]);
    expect(parse(decodeCsv(latin)).rows[0].lastName).toBe('Niccolò');
  });

  it('reads quoted fields, decimal commas, thousands dots, blank lines, any header case and the comma separator', () => {
    const semicolon = parse(`CODICEFISCALE;Cognome;NOME;Punteggio;OreSettimanali;ValoreIsee;AnnoIsee\r\n\r\n${ANNA};"Bruno; detta ""Nina""";Anna;4;"12,5";"12.000,50";2026\r\n   \r\n`);
    expect(semicolon.rejected).toEqual([]);
    expect(semicolon.rows).toEqual([
      { line: 3, fiscalCode: ANNA, lastName: 'Bruno; detta "Nina"', firstName: 'Anna', rankingScore: 4, weeklyHour: 12.5, iseeValueCents: 1_200_050, iseeYear: 2026 },
    ]);
    const comma = parse(`codiceFiscale,cognome,nome,punteggio,oreSettimanali,valoreIsee,annoIsee\n${LUCA},Ferrari,Luca,,"7,25","8000,00",2026\n`);
    expect(comma.rows[0]).toMatchObject({ fiscalCode: LUCA, weeklyHour: 7.25, iseeValueCents: 800_000 });
  });

  it('refuses a file with a quote left open (it would swallow the rest of the file), naming its line', () => {
    const text = `${HEADER}\r\n${ANNA};Bruno;Anna;4;;;\r\n${LUCA};"Ferrari;Luca;;;;\r\n${ANNA};Bruno;Anna;5;;;\r\n`;
    expect(() => parse(text)).toThrow('Il file non è un CSV leggibile: virgolette non chiuse o a capo dentro un campo alla riga 3');
  });

  it('rejects each bad row with its line number and an Italian reason, and keeps the good ones', () => {
    const parsed = parse(
      [
        HEADER,
        `${ANNA};Bruno;Anna;1,5;;;`,
        `${LUCA};Ferrari;Luca;;dieci;;`,
        `RSSMRA85C52H501X;Rossi;Maria;;;;`,
        `${code('CLMGLI92T48L219')};Colombo;Giulia;;;12abc;2026`,
        `${code('RCCMRC60A01H501')};Ricci;Marco;;;1000;26`,
        `${code('VRDGPP90P07F839')};Verdi;Giuseppe;;;1000;`,
        `${code('RSSMRA85C52H501')};Rossi;Maria;2;0;;`,
        `${code('BNCLRA79H61F205')};Bianchi;Laura;3;;;`,
        `${code('BNCLRA79H61F205')};Bianchi;Laura;4;;;`,
      ].join('\r\n'),
    );
    expect(parsed.rejected.map((r) => r.reason)).toEqual([
      'Riga 2: il punteggio “1,5” non è un numero intero.',
      'Riga 3: le ore settimanali “dieci” non sono un numero valido (maggiore di zero, fino a 168, al massimo due decimali).',
      'Riga 4: il codice fiscale “RSSMRA85C52H501X” non è valido.',
      'Riga 5: il valore ISEE “12abc” non è un importo valido.',
      'Riga 6: l’anno ISEE “26” non è valido.',
      'Riga 7: per l’ISEE servono sia il valore sia l’anno.',
      'Riga 8: le ore settimanali “0” non sono un numero valido (maggiore di zero, fino a 168, al massimo due decimali).',
      `Riga 10: il codice fiscale ${code('BNCLRA79H61F205')} compare già alla riga 9.`,
    ]);
    expect(parsed.rows.map((r) => r.line)).toEqual([9]);
  });

  it('accepts text/csv and Windows’ Excel type, nothing else', () => {
    expect(['text/csv', 'text/csv; charset=utf-8', 'application/vnd.ms-excel', 'TEXT/CSV'].every(isCsvContentType)).toBe(true);
    expect(['application/pdf', 'text/plain', ''].some(isCsvContentType)).toBe(false);
  });

  it('parses Italian amounts for the ISEE filter', () => {
    expect(['10000', '10000,50', '10.000,50', '1.000.000', '10000.5'].map(parseEuroToCents)).toEqual([1_000_000, 1_000_050, 1_000_050, 100_000_000, 1_000_050]);
    expect(['', 'abc', '10,000,00', '-5', '1,234'].map(parseEuroToCents).every(Number.isNaN)).toBe(true);
  });
});

describe('writing it', () => {
  it('writes BOM, header, `;`, CRLF, and guards cells a spreadsheet would run as formulas', () => {
    const content = enrolmentCsv([[ANNA, '=HYPERLINK("x")', 'Anna', -3, '2,5', '', '']]);
    expect(content).toBe(`\uFEFF${HEADER}\r\n${ANNA};"'=HYPERLINK(""x"")";Anna;-3;2,5;;\r\n`);
    expect(parse(decodeCsv(Buffer.from(content))).rows[0]).toMatchObject({ rankingScore: -3, weeklyHour: 2.5 });
  });

  it('names the file after the call, without characters a file system refuses', () => {
    expect(csvFileName('Taxi sociale: 2026/27')).toBe('Taxi sociale_ 2026_27.csv');
  });
});

describe('planning an import', () => {
  const users = new Map<string, ImportUser>([
    [ANNA, { id: 'anna', fiscalCode: ANNA, firstName: 'Anna', lastName: 'Bruno', lastIsee: { valueCents: 500_000, year: 2026, state: 'VALIDATED' } }],
    [LUCA, { id: 'luca', fiscalCode: LUCA, firstName: 'Luca', lastName: 'Ferrari', lastIsee: { valueCents: 900_000, year: 2026, state: 'LOADED' } }],
  ]);
  const existing = [{ userId: 'anna', fiscalCode: ANNA, firstName: 'Anna', lastName: 'Bruno', state: 'VALIDATED' as const, rankingScore: 3, weeklyHour: 2 }];

  it('records a new ISEE only when it differs from the latest validated one', () => {
    const parsed = parse([HEADER, `${ANNA};;;3;2;5000;2026`, `${LUCA};;;;;9000;2026`].join('\n'));
    const { preview, actions } = planImport(parsed, users, existing, { updateIsees: true, removeOldSubscriptions: false });
    expect(preview.unchanged).toBe(1);
    // Luca's newest ISEE waits for review: the file's value becomes his validated one.
    expect(actions).toEqual([expect.objectContaining({ kind: 'add', userId: 'luca', state: 'ADDED', isee: { valueCents: 900_000, year: 2026 } })]);
    expect(planImport(parsed, users, existing, { updateIsees: false, removeOldSubscriptions: false }).actions[0].isee).toBeNull();
  });

  it('spares from removal a citizen the file names on a rejected row', () => {
    const parsed = parse([HEADER, `${ANNA};;;abc;;;`].join('\n'));
    const { preview } = planImport(parsed, users, existing, { updateIsees: false, removeOldSubscriptions: true });
    expect(preview.remove).toEqual([]);
    expect(preview.rejected).toHaveLength(1);
  });
});
