import { describe, expect, it } from 'vitest';
import {
  csvFileName,
  decodeCsv,
  enrolmentCsv,
  isCsvContentType,
  parseEnrolmentCsv,
  planImport,
  type ImportUser,
} from '../../functions/domain/enrolment-csv.ts';
import { parseEuroToCents } from '../../functions/domain/money.ts';
import { fiscalCodeCheckCharacter } from '../../functions/domain/fiscal-code.ts';

const code = (first15: string) => first15 + fiscalCodeCheckCharacter(first15);
const ANNA = code('BRNNNA88M41F839');
const LUCA = code('FRRLCU75E15F205');
const now = new Date('2026-05-10T10:00:00Z');
const HEADER = 'codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee';

const parse = (text: string) => parseEnrolmentCsv(text, now);

describe('reading the enrolment CSV as offices produce it', () => {
  it('decodes UTF-8 with a BOM, and Windows-1252 (not valid UTF-8) with its accented letters', () => {
    const withBom = decodeCsv(
      new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(`${HEADER}\r\n${ANNA};Niccolò;Anna;;;;`)]),
    );
    expect(withBom.startsWith('codiceFiscale')).toBe(true);
    expect(parse(withBom).rows[0].lastName).toBe('Niccolò');
    // "Niccolò" in Windows-1252: ò is the single byte 0xF2.
    const latin = Buffer.concat([
      Buffer.from(`${HEADER}\r\n${ANNA};Niccol`),
      Buffer.from([0xf2]),
      Buffer.from(';Anna;;;;'),
    ]);
    expect(parse(decodeCsv(latin)).rows[0].lastName).toBe('Niccolò');
  });

  it('reads quoted fields, decimal commas, thousands dots, blank lines, any header case and the comma separator', () => {
    const semicolon = parse(
      `CODICEFISCALE;Cognome;NOME;Punteggio;OreSettimanali;ValoreIsee;AnnoIsee\r\n\r\n${ANNA};"Bruno; detta ""Nina""";Anna;4;"12,5";"12.000,50";2026\r\n   \r\n`,
    );
    expect(semicolon.rejected).toEqual([]);
    expect(semicolon.rows).toEqual([
      {
        line: 3,
        fiscalCode: ANNA,
        lastName: 'Bruno; detta "Nina"',
        firstName: 'Anna',
        rankingScore: 4,
        weeklyHour: 12.5,
        iseeValueCents: 1_200_050,
        iseeYear: 2026,
      },
    ]);
    const comma = parse(
      `codiceFiscale,cognome,nome,punteggio,oreSettimanali,valoreIsee,annoIsee\n${LUCA},Ferrari,Luca,,"7,25","8000,00",2026\n`,
    );
    expect(comma.rows[0]).toMatchObject({ fiscalCode: LUCA, weeklyHour: 7.25, iseeValueCents: 800_000 });
  });

  it('refuses a file with a quote left open (it would swallow the rest of the file), naming its line', () => {
    const text = `${HEADER}\r\n${ANNA};Bruno;Anna;4;;;\r\n${LUCA};"Ferrari;Luca;;;;\r\n${ANNA};Bruno;Anna;5;;;\r\n`;
    expect(() => parse(text)).toThrow(
      'Il file non è un CSV leggibile: virgolette non chiuse o a capo dentro un campo alla riga 3',
    );
  });

  it('refuses a header without the template’s columns, naming the columns expected, found and missing', () => {
    // Its values would otherwise be ignored and every row read 'unchanged'.
    expect(() => parse(`codiceFiscale;nome;ore;isee\r\n${ANNA};Anna;12;8000\r\n`)).toThrow(
      'Le colonne del file non sono quelle del template. Attese: codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee. Trovate: codiceFiscale;nome;ore;isee. Mancano: cognome, punteggio, oreSettimanali, valoreIsee, annoIsee.',
    );
    expect(() => parse('\r\n  \r\n')).toThrow('Trovate: nessuna (il file è vuoto). Mancano: codiceFiscale, cognome');
    // The template's columns in another order, with a column of the office's own: read.
    expect(
      parse(
        `note;annoIsee;valoreIsee;oreSettimanali;punteggio;nome;cognome;codiceFiscale\r\nx;2026;8000;3;1;Anna;Bruno;${ANNA}\r\n`,
      ).rows,
    ).toEqual([
      {
        line: 2,
        fiscalCode: ANNA,
        lastName: 'Bruno',
        firstName: 'Anna',
        rankingScore: 1,
        weeklyHour: 3,
        iseeValueCents: 800_000,
        iseeYear: 2026,
      },
    ]);
  });

  it('refuses a binary file (a spreadsheet, a PDF, an image) as such, and reads UTF-16 text with its BOM', () => {
    const binary =
      'Il file non è un CSV: contiene dati binari (ad esempio è un foglio Excel .xlsx o un PDF). In Excel usa «Salva con nome» e scegli il formato «CSV UTF-8».';
    const xlsx = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]),
      Buffer.from('[Content_Types].xml'),
    ]);
    const oldXls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00, 0x00]);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    for (const file of [xlsx, oldXls, png]) expect(() => decodeCsv(file)).toThrow(binary);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`${HEADER}\r\n${ANNA};Niccolò;Anna;;;;\r\n`, 'utf16le'),
    ]);
    expect(parse(decodeCsv(utf16)).rows[0].lastName).toBe('Niccolò');
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
    expect(
      ['text/csv', 'text/csv; charset=utf-8', 'application/vnd.ms-excel', 'TEXT/CSV'].every(isCsvContentType),
    ).toBe(true);
    expect(['application/pdf', 'text/plain', ''].some(isCsvContentType)).toBe(false);
  });

  it('parses Italian amounts for the ISEE filter', () => {
    expect(['10000', '10000,50', '10.000,50', '1.000.000', '10000.5'].map(parseEuroToCents)).toEqual([
      1_000_000, 1_000_050, 1_000_050, 100_000_000, 1_000_050,
    ]);
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
    [
      ANNA,
      {
        id: 'anna',
        fiscalCode: ANNA,
        firstName: 'Anna',
        lastName: 'Bruno',
        lastIsee: { valueCents: 500_000, year: 2026, state: 'VALIDATED' },
      },
    ],
    [
      LUCA,
      {
        id: 'luca',
        fiscalCode: LUCA,
        firstName: 'Luca',
        lastName: 'Ferrari',
        lastIsee: { valueCents: 900_000, year: 2026, state: 'LOADED' },
      },
    ],
  ]);
  const existing = [
    {
      userId: 'anna',
      fiscalCode: ANNA,
      firstName: 'Anna',
      lastName: 'Bruno',
      state: 'VALIDATED' as const,
      rankingScore: 3,
      weeklyHour: 2,
    },
  ];

  it('records a new ISEE only when it differs from the latest validated one', () => {
    const parsed = parse([HEADER, `${ANNA};;;3;2;5000;2026`, `${LUCA};;;;;9000;2026`].join('\n'));
    const { preview, actions } = planImport(parsed, users, existing, {
      updateIsees: true,
      removeOldSubscriptions: false,
    });
    expect(preview.unchanged).toBe(1);
    // Luca's newest ISEE waits for review: the file's value becomes his validated one.
    expect(actions).toEqual([
      expect.objectContaining({
        kind: 'add',
        userId: 'luca',
        state: 'ADDED',
        isee: { valueCents: 900_000, year: 2026 },
      }),
    ]);
    expect(
      planImport(parsed, users, existing, { updateIsees: false, removeOldSubscriptions: false }).actions[0].isee,
    ).toBeNull();
  });

  it('tells which rows name a registered citizen otherwise than the registry, whose names it keeps', () => {
    const parsed = parse(
      [
        HEADER,
        `${ANNA};Bruni;Anna;3;2;;`,
        `${LUCA};FERRARI;Luca;;;;`,
        `${code('RSSMRA85C52H501')};Rossi;Maria;;;;`,
      ].join('\n'),
    );
    const registered = new Map(users).set(code('RSSMRA85C52H501'), {
      id: 'maria',
      fiscalCode: code('RSSMRA85C52H501'),
      firstName: 'Maria Grazia',
      lastName: 'Rossi',
    });
    const { preview } = planImport(parsed, registered, existing, { updateIsees: false, removeOldSubscriptions: false });
    // Anna's row changes nothing, and still says her surname differs; upper case is not a difference.
    expect(preview.unchanged).toBe(1);
    expect(preview.differentNames).toEqual([
      { line: 2, fiscalCode: ANNA, inFile: 'Bruni Anna', registered: 'Bruno Anna' },
      { line: 4, fiscalCode: code('RSSMRA85C52H501'), inFile: 'Rossi Maria', registered: 'Rossi Maria Grazia' },
    ]);
    expect(preview.add.map((r) => [r.lastName, r.firstName])).toEqual([
      ['Ferrari', 'Luca'],
      ['Rossi', 'Maria Grazia'],
    ]);
    // Empty name cells say nothing.
    expect(
      planImport(parse([HEADER, `${ANNA};;;3;2;;`].join('\n')), users, existing, {
        updateIsees: false,
        removeOldSubscriptions: false,
      }).preview.differentNames,
    ).toEqual([]);
  });

  it('spares from removal a citizen the file names on a rejected row', () => {
    const parsed = parse([HEADER, `${ANNA};;;abc;;;`].join('\n'));
    const { preview } = planImport(parsed, users, existing, { updateIsees: false, removeOldSubscriptions: true });
    expect(preview.remove).toEqual([]);
    expect(preview.rejected).toHaveLength(1);
  });
});
