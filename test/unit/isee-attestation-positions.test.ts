import { describe, expect, it } from 'vitest';
import { parseAttestation, UNVERIFIED_CONFIDENCE } from '../../functions/domain/isee-attestation.ts';
import { readAttestation } from '../../functions/isee-extraction/read-attestation.ts';
import { textFromTextract } from '../../functions/isee-extraction/textract-text.ts';
import { handMadeAnswer, type HandRun, type Photograph } from '../fixtures/textract/hand-made.ts';

/**
 * Issue 35: readings that never pick the wrong block. Textract answers written by hand (hand-made.ts), each
 * value placed on the page where an attestation prints it.
 */
const top: HandRun[] = [
  { text: 'INPS', x: 50, y: 60, size: 22 },
  { text: 'Protocollo DSU n.', x: 400, y: 52, size: 9 },
  { text: 'INPS-ISEE-2025-00597381W-00', x: 380, y: 66 },
  { text: 'ATTESTAZIONE ISEE', x: 230, y: 110, size: 15 },
  { text: 'Dichiarazione Sostitutiva Unica (DSU) presentata il 12/02/2025', x: 50, y: 150 },
  { text: 'Attestazione rilasciata il 14/02/2025', x: 50, y: 167 },
  { text: 'Valida fino al 31/12/2025', x: 50, y: 184 },
  { text: 'ROSSI MARIA', x: 60, y: 215, size: 9 },
  { text: 'RSSMRA85C52H501N', x: 250, y: 215, size: 9 },
  { text: 'Dichiarante', x: 470, y: 215, size: 9 },
];
const read = (runs: HandRun[], photo?: Photograph) => {
  const text = textFromTextract([handMadeAnswer([...top, ...runs], photo)]);
  return parseAttestation(text.lines, text.source, text.quality);
};

/** The ordinary block on the left, the reduced one on the right, each label left and its value right-aligned. */
const sideBySide = (gap = 17): HandRun[] => {
  const rows: [string, string, string, string][] = [
    ['ISE', '25.415,13', 'ISE', '9.320,40'],
    ['Scala di equivalenza', '1,57', 'Scala di equivalenza', '1,00'],
    ['ISEE', '16.187,98', 'ISEE', '9.320,40'],
  ];
  return [
    { text: 'ISEE ORDINARIO', x: 50, y: 260, size: 11 },
    { text: 'ISEE SOCIOSANITARIO RIDOTTO', x: 315, y: 260, size: 11 },
    ...rows.flatMap(([l1, v1, l2, v2], i) => [
      { text: l1, x: 50, y: 260 + gap * (i + 1) },
      { text: v1, x: 290, y: 260 + gap * (i + 1), align: 'right' as const },
      { text: l2, x: 315, y: 260 + gap * (i + 1) },
      { text: v2, x: 545, y: 260 + gap * (i + 1), align: 'right' as const },
    ]),
    { text: 'Omissioni / difformità: NESSUNA', x: 50, y: 350 },
  ];
};
const ordinaryAndReduced = {
  iseeOrdinario: 16187.98,
  ise: 25415.13,
  scalaEquivalenza: 1.57,
  coherent: true,
  iseeRistretto: 9320.4,
};

describe('ordinary and reduced ISEE side by side: each value with its own label, by position', () => {
  it('reads the ordinary block on the left and the reduced one on the right', () => {
    expect(read(sideBySide())).toMatchObject(ordinaryAndReduced);
  });

  it.each([6, 10, 14, -8])(
    'reads them right on a photo curled by %i points, never the ordinary triad out of the reduced block',
    (curl) => {
      const reading = read(sideBySide(), { curl, angle: 1 });
      expect(reading).toMatchObject(ordinaryAndReduced);
    },
  );

  it('reads them right when the rows are close and the photo is curled and turned', () => {
    expect(read(sideBySide(14), { curl: 9, angle: -2 })).toMatchObject(ordinaryAndReduced);
  });

  it('reads a row of indicators over a row of values where one does not apply ("-")', () => {
    const reading = read([
      { text: 'ISEE ordinario', x: 60, y: 260 },
      { text: 'ISEE ridotto', x: 230, y: 260 },
      { text: 'ISEE minorenni', x: 400, y: 260 },
      { text: '€ 9.561,02', x: 60, y: 278, size: 13 },
      { text: '-', x: 250, y: 278, size: 13 },
      { text: '€ 10.020,00', x: 400, y: 278, size: 13 },
    ]);
    expect(reading).toMatchObject({ iseeOrdinario: 9561.02, iseeRistretto: null });
  });

  it('reads a table of indicators one indicator at a time, each cell under its own heading, a dash where none applies', () => {
    const heads = ['ISEE ORDINARIO', 'ISEE MINORENNI', 'ISEE RIDOTTO'];
    const cells = [
      ['ISE', '25.415,13', '-', '9.320,40'],
      ['Scala di equivalenza', '1,57', '-', '1,00'],
      ['ISEE', '16.187,98', '-', '9.320,40'],
    ];
    const table: HandRun[] = [
      ...heads.map((text, k) => ({ text, x: 200 + k * 110, y: 260, size: 8 })),
      ...cells.flatMap(([label, ...values], i) => [
        { text: label, x: 50, y: 278 + 16 * i, size: 9 },
        ...values.map((text, k) => ({ text, x: 270 + k * 110, y: 278 + 16 * i, size: 9, align: 'right' as const })),
      ]),
    ];
    expect(read(table, { angle: 2, curl: 8 })).toMatchObject(ordinaryAndReduced);
  });

  it('flags a reading whose labels and values do not line up, and proposes no value from it', () => {
    // Two labels and one figure standing under neither of them.
    const reading = read([
      { text: 'ISEE ordinario', x: 60, y: 260 },
      { text: 'ISEE ridotto', x: 380, y: 260 },
      { text: '€ 9.561,02', x: 230, y: 280, size: 13 },
    ]);
    expect(reading.iseeOrdinario).toBeNull();
    expect(reading.iseeRistretto).toBeNull();
    expect(reading.warnings).toEqual([expect.stringMatching(/non allineat/)]);
    expect(reading.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
  });
});

describe('never silently wrong', () => {
  it('fails a page that holds nothing but a few specks of dust, as a page with no text at all', async () => {
    const dust = handMadeAnswer([
      { text: '.', x: 120, y: 300, confidence: 31 },
      { text: "'", x: 410, y: 520, confidence: 22 },
      { text: ',.', x: 300, y: 700, confidence: 40 },
      { text: 'l', x: 80, y: 610, confidence: 18 },
    ]);
    const input = { iseeId: 'dust', bucket: 'documents', key: 'isee/dust/document', contentType: 'image/jpeg' };
    await expect(readAttestation(async () => textFromTextract([dust]))(input)).rejects.toMatchObject({
      name: 'NoReadableText',
    });
  });

  it('checks the reduced ISEE against its own ISE and scale, and flags it when they disagree', () => {
    const reduced = [
      'ISEE ORDINARIO',
      'ISE 25.415,13',
      'Scala di equivalenza 1,57',
      'ISEE 16.187,98',
      'ISEE RIDOTTO',
      'ISE 12.000,00',
      'Scala di equivalenza 1,57',
    ];
    const agreeing = parseAttestation([...reduced, 'ISEE 7.643,31'], 'pdf-text');
    expect(agreeing).toMatchObject({ iseeRistretto: 7643.31, coherent: true });
    expect(agreeing.warnings ?? []).toEqual([]);
    const misread = parseAttestation([...reduced, 'ISEE 7.843,31'], 'pdf-text');
    expect(misread.iseeRistretto).toBe(7843.31);
    expect(misread.warnings).toEqual([expect.stringMatching(/ISEE ristretto/)]);
    expect(misread.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
  });

  it('reads the issue date even when OCR damaged its label, never the DSU date instead', () => {
    for (const label of ['Attestazione rllascio il', 'Attestazione rilasclata il', 'Data dl riiascio:']) {
      const lines = [
        'INPS-ISEE-2025-00597381W-00',
        'DSU presentata il 12/02/2025',
        `${label} 14/02/2025`,
        'ISEE ordinario 16.187,98',
      ];
      expect(parseAttestation(lines, 'ocr', 0.9).dataRilascio).toBe('2025-02-14');
    }
  });

  it('does not take ISE / scala as a check of the scale when the ISEE is zero', () => {
    const reading = parseAttestation(
      ['ISE 0,00', 'Scala di equivalenza 2,64', 'ISEE ordinario 0,00'],
      'textract',
      0.97,
    );
    expect(reading).toMatchObject({ iseeOrdinario: 0, ise: 0, scalaEquivalenza: 2.64 });
    expect(reading.warnings).toEqual([expect.stringMatching(/scala di equivalenza/i)]);
    expect(reading.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
  });
});

describe('small OCR slips a reader recovers', () => {
  it('reads a value under its label that starts with "euro"', () => {
    expect(
      parseAttestation(
        ['ISEE ordinario', 'euro 12.345,67', 'ISE', 'EURO 19.382,70', 'Scala di equivalenza', '1,57'],
        'textract',
        0.95,
      ),
    ).toMatchObject({
      iseeOrdinario: 12345.67,
      ise: 19382.7,
      coherent: true,
    });
  });

  it('reads a scale whose zero OCR took for an O, and amounts whose leading 1 it took for an l', () => {
    expect(
      parseAttestation(['ISE l9.382,70', 'Scala di equivalenza 1,57', 'ISEE ordinario l2.345,67'], 'ocr', 0.9),
    ).toMatchObject({ ise: 19382.7, iseeOrdinario: 12345.67, coherent: true });
    expect(
      parseAttestation(['ISE 25.184,40', 'Scala di equivalenza 2,O4', 'ISEE ordinario 12.345,29'], 'ocr', 0.9),
    ).toMatchObject({ scalaEquivalenza: 2.04, coherent: true });
  });
});

describe('labels as attestations spell them', () => {
  it('reads dotted acronyms (I.S.E.E., I.S.E.) as the labels they spell', () => {
    expect(
      parseAttestation(['I.S.E. 25.415,13', 'Scala di equivalenza 1,57', 'I.S.E.E. 16.187,98'], 'pdf-text'),
    ).toMatchObject({ ise: 25415.13, iseeOrdinario: 16187.98, coherent: true });
    expect(parseAttestation(['Valore I. S. E. E. ordinario', '€ 16.187,98'], 'textract', 0.95).iseeOrdinario).toBe(
      16187.98,
    );
  });
});

/**
 * What Textract does to the rows of a real page (its LINEs are cut where the gaps are, not where the labels end):
 * the families of the tuned corpus (`--corpus variations`), each written by hand.
 */
describe('rows as Textract cuts, joins and misreads them', () => {
  /** The ordinary block, one label and its value per row, the values right-aligned in a column. */
  const block = (rows: HandRun[][]): HandRun[] => [
    { text: 'ISEE ORDINARIO', x: 50, y: 250, size: 11 },
    ...rows.flat(),
    { text: 'Omissioni / difformità: NESSUNA', x: 50, y: 400 },
  ];
  const ordinary = { iseeOrdinario: 16187.98, ise: 25415.13, scalaEquivalenza: 1.57, coherent: true };

  it('reads a label printed on two rows, its value beside the first row or beside the second', () => {
    const reading = read(
      block([
        [
          { text: 'Indicatore della situazione', x: 60, y: 267 },
          { text: 'economica (ISE)', x: 60, y: 279 },
          { text: '25.415,13', x: 535, y: 279, align: 'right' },
        ],
        [
          { text: 'Valore della scala di equivalenza', x: 60, y: 296 },
          { text: '1,57', x: 535, y: 296, align: 'right' },
        ],
        [
          { text: 'Indicatore della situazione economica', x: 60, y: 313 },
          { text: 'euro 16.187,98', x: 535, y: 313, align: 'right' },
          { text: 'equivalente (ISEE)', x: 60, y: 325 },
        ],
      ]),
      { angle: 1.5 },
    );
    expect(reading).toMatchObject(ordinary);
    expect(reading.warnings ?? []).toEqual([]);
  });

  it('reads a heading printed on two rows as the indicator it names, never as the ordinary ISEE', () => {
    const reading = read([
      { text: 'ISEE ORDINARIO', x: 50, y: 250, size: 11 },
      { text: 'ISEE', x: 60, y: 267 },
      { text: '16.187,98', x: 535, y: 267, align: 'right' },
      { text: 'ISEE SOCIOSANITARIO', x: 50, y: 290, size: 11 },
      { text: 'RIDOTTO', x: 50, y: 303, size: 11 },
      { text: 'ISE', x: 60, y: 320 },
      { text: '9.320,40', x: 535, y: 320, align: 'right' },
      { text: 'Scala di equivalenza', x: 60, y: 337 },
      { text: '1,00', x: 535, y: 337, align: 'right' },
      { text: 'ISEE', x: 60, y: 354 },
      { text: '9.320,40', x: 535, y: 354, align: 'right' },
    ]);
    expect(reading).toMatchObject({ iseeOrdinario: 16187.98, iseeRistretto: 9320.4 });
    expect(reading.ise ?? null).toBeNull();
  });

  it('reads side-by-side blocks when Textract joins a value of the left block with the label beside it', () => {
    const joined = sideBySide().reduce<HandRun[]>((runs, run) => {
      const last = runs.at(-1);
      // The left value (right-aligned at 290) and the right block's label (at 315): one LINE, "16.187,98 ISEE".
      if (last?.align === 'right' && last.x === 290 && run.x === 315)
        return [...runs.slice(0, -1), { text: `${last.text} ${run.text}`, x: 0, y: run.y, parts: [last, run] }];
      return [...runs, run];
    }, []);
    expect(joined.filter((r) => r.parts)).toHaveLength(3);
    expect(read(joined, { curl: 6, angle: -1 })).toMatchObject(ordinaryAndReduced);
  });

  it('reads labels whose letters OCR misread (i as l or 1, l as 1, e as c)', () => {
    const reading = read(
      block([
        [
          { text: 'lSE - Indlcatore della Sltuazione Economlca', x: 60, y: 267 },
          { text: '25.415,13', x: 535, y: 267, align: 'right' },
        ],
        [
          { text: 'Sca1a dl equlvalcnza', x: 60, y: 284 },
          { text: '1,57', x: 535, y: 284, align: 'right' },
        ],
        [
          { text: 'Va1ore lSEE', x: 60, y: 301 },
          { text: '16.187,98', x: 535, y: 301, align: 'right' },
        ],
      ]),
    );
    expect(reading).toMatchObject(ordinary);
  });

  it('reads blocks side by side that a page break cut, the second page photographed turned as the first', () => {
    const rows = sideBySide();
    const onPage2 = (run: HandRun) => run.y >= 260 + 17 * 2;
    const page1 = [...top, ...rows.filter((r) => !onPage2(r)), { text: 'Pagina 1 di 2', x: 270, y: 810, size: 8 }];
    const page2 = [
      ...rows.filter(onPage2).map((r) => ({ ...r, y: r.y - 200 })),
      { text: 'Pagina 2 di 2', x: 270, y: 810, size: 8 },
    ];
    const text = textFromTextract([
      handMadeAnswer(page1, { angle: 3, curl: 6 }),
      handMadeAnswer(page2, { angle: 3, curl: 6 }),
    ]);
    expect(parseAttestation(text.lines, text.source, text.quality)).toMatchObject(ordinaryAndReduced);
  });

  it('reads a value whose label the page break left at the foot of the page before', () => {
    const reading = parseAttestation(
      [
        'ISEE ordinario',
        '€ 16.187,98',
        'ISEE ristretto',
        'Paglna 1 dl 2',
        '€ 9.320,40',
        'ISE 25.415,13',
        'Scala di equivalenza 1,57',
      ],
      'ocr',
      0.9,
    );
    expect(reading).toMatchObject({ ...ordinary, iseeRistretto: 9320.4 });
  });

  it('reads amounts grouped by spaces, one of whose zeros OCR took for an O', () => {
    expect(
      parseAttestation(['ISE 83 379,09', 'Scala di equivalenza 2,04', 'ISEE € 4O 872,10'], 'textract', 0.95),
    ).toMatchObject({ ise: 83379.09, iseeOrdinario: 40872.1, coherent: true });
  });

  it('reads the dates whose labels OCR misread', () => {
    const text = textFromTextract([
      handMadeAnswer([
        { text: 'DSU prcsentata il 12/02/2025', x: 50, y: 150 },
        { text: 'Attestazionc rilasciata il 14/02/2025', x: 50, y: 167 },
        { text: 'Va1ida fino al 31/10/2025', x: 50, y: 184 },
      ]),
    ]);
    expect(parseAttestation(text.lines, text.source, text.quality)).toMatchObject({
      dataRilascio: '2025-02-14',
      dataFine: '2025-10-31',
    });
  });
});

/**
 * Layouts and wordings of real attestations the parser was not written for (the tuned corpus's 'inps-rows' layout and
 * short labels): a summary table with one indicator a row, and the scale's label cut short where a column is narrow.
 */
describe('tables and labels as summaries print them', () => {
  /** One indicator a row, its name first; ISE, scale and ISEE across under their headings, a dash where none is printed. */
  const rowsTable = (heads: [string, string, string], rows: [string, string, string, string][]): HandRun[] => [
    { text: 'QUADRO RIEPILOGATIVO DEGLI INDICATORI', x: 50, y: 250, size: 11 },
    { text: 'Tipo di indicatore', x: 50, y: 270, size: 8 },
    ...heads.map((text, k) => ({ text, x: [350, 445, 535][k], y: 270, size: 8, align: 'right' as const })),
    ...rows.flatMap(([name, ...cells], i) => [
      { text: name, x: 50, y: 287 + 16 * i, size: 9 },
      ...cells.map((text, k) => ({ text, x: [350, 445, 535][k], y: 287 + 16 * i, size: 9, align: 'right' as const })),
    ]),
    { text: 'Omissioni / difformità: NESSUNA', x: 50, y: 400 },
  ];

  it('reads each indicator of a table with one indicator a row, each value under its own heading', () => {
    const table = rowsTable(
      ['Valore ISE', 'Scala di equivalenza', 'Valore ISEE'],
      [
        ['ISEE ordinario', '25.415,13', '1,57', '16.187,98'],
        ['ISEE minorenni', '27.300,00', '1,92', '14.218,75'],
        ['ISEE sociosanitario ridotto', '9.320,40', '1,00', '9.320,40'],
      ],
    );
    expect(read(table)).toMatchObject(ordinaryAndReduced);
    expect(read(table, { angle: -2, curl: 10 })).toMatchObject(ordinaryAndReduced);
  });

  it("reads such a table when an indicator's name is printed on two rows, its values beside either", () => {
    const table = rowsTable(
      ['ISE', 'Scala eq.', 'ISEE'],
      [
        ['ISEE per', '27.300,00', '1,92', '14.218,75'],
        ['ISEE ordinario', '25.415,13', '1,57', '16.187,98'],
        ['ISEE sociosanitario ridotto', '9.320,40', '1,00', '9.320,40'],
      ],
    );
    // "ISEE per" / "prestazioni universitarie": the second row of the name, right under the first.
    table.push({ text: 'prestazioni universitarie', x: 50, y: 297, size: 9 });
    for (const run of table) if (run.y >= 303 && run.y < 400) run.y += 10;
    expect(read(table)).toMatchObject(ordinaryAndReduced);
  });

  it('reads the ordinary ISEE of such a table when its ISE and scale are dashes, and says it is not verified', () => {
    const reading = read(
      rowsTable(
        ['ISE', 'Scala di equivalenza', 'ISEE'],
        [
          ['ISEE ordinario', '-', '-', '16.187,98'],
          ['ISEE corrente', '20.000,00', '1,57', '12.738,85'],
        ],
      ),
    );
    expect(reading).toMatchObject({ iseeOrdinario: 16187.98, ise: null, scalaEquivalenza: null, coherent: null });
    expect(reading.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
  });

  it('reads a table of indicators whose headings a narrow column printed on two rows ("ISEE" over "ORDINARIO")', () => {
    const heads = [
      ['ISEE', 'ORDINARIO'],
      ['ISEE', 'MINORENNI'],
      ['ISEE', 'RIDOTTO'],
    ];
    const cells = [
      ['ISE', '25.415,13', '-', '9.320,40'],
      ['Scala eq.', '1,57', '-', '1,00'],
      ['ISEE', '16.187,98', '-', '9.320,40'],
    ];
    const table: HandRun[] = [
      ...heads.flatMap(([a, b], k) => [
        { text: a, x: 220 + k * 90, y: 260, size: 8 },
        { text: b, x: 220 + k * 90, y: 270, size: 8 },
      ]),
      ...cells.flatMap(([label, ...values], i) => [
        { text: label, x: 50, y: 288 + 16 * i, size: 9 },
        ...values.map((text, k) => ({ text, x: 265 + k * 90, y: 288 + 16 * i, size: 9, align: 'right' as const })),
      ]),
    ];
    expect(read(table)).toMatchObject(ordinaryAndReduced);
    expect(read(table, { angle: 2, curl: 8 })).toMatchObject(ordinaryAndReduced);
    // Each value right-aligned well past its heading's end, a dash nearly halfway to the next heading.
    const wide = table.map((run) => (run.align === 'right' ? { ...run, x: run.x + 20 } : run));
    expect(read(wide, { angle: -1.5 })).toMatchObject(ordinaryAndReduced);
  });

  it('takes no value for the ordinary or the reduced ISEE under a heading that names several indicators at once', () => {
    // A table's headings on two rows, read as rows: "ISEE ISEE ISEE" then "ORDINARIO MINORENNI RIDOTTO".
    const reading = parseAttestation(
      [
        'ISEE  ISEE  ISEE',
        'ORDINARIO  MINORENNI  RIDOTTO',
        'ISE  43.848,84  -  -',
        'Scala eq.  1,57  -  -',
        'ISEE  27.929,20  -  -',
      ],
      'textract',
      0.95,
    );
    expect(reading).toMatchObject({ iseeRistretto: null, iseeOrdinario: null });
    // The same headings without "ISEE", after the reduced block: its values are not the reduced ISEE's.
    const repeated = parseAttestation(
      [
        'ISEE RIDOTTO',
        'ISE -',
        'ISEE -',
        'ORDINARIO  MINORENNI  RIDOTTO',
        'ISE  43.848,84  -  -',
        'Scala eq.  1,57  -  -',
        'ISEE  27.929,20  -  -',
      ],
      'textract',
      0.95,
    );
    expect(repeated.iseeRistretto).toBeNull();
  });

  it.each(['ISEE MINORI', 'ISEE per nuclei con minori'])(
    'reads "%s" as another indicator, never its ISE and scale as the ordinary ones',
    (heading) => {
      const reading = parseAttestation(
        ['ISEE ORDINARIO', 'ISEE 16.187,98', heading, 'ISE 30.000,00', 'Scala di equivalenza 1,92', 'ISEE 15.625,00'],
        'textract',
        0.95,
      );
      expect(reading).toMatchObject({ iseeOrdinario: 16187.98, ise: null, scalaEquivalenza: null, coherent: null });
    },
  );

  it.each(['Scala di equiv.', 'Scala eq.', 'Param. scala', 'Parametro scala'])(
    'reads the scale under a short label, "%s"',
    (label) => {
      expect(
        parseAttestation(['ISEE ORDINARIO', 'ISE 25.415,13', `${label} 1,57`, 'ISEE 16.187,98'], 'textract', 0.95),
      ).toMatchObject({ scalaEquivalenza: 1.57, coherent: true, confidence: expect.any(Number) });
    },
  );
});

describe('headings a column clips, and rows that only look like the rest of a label', () => {
  const ordinary = ['ISEE ORDINARIO', 'ISE 25.415,13', 'Scala di equivalenza 1,57', 'ISEE 16.187,98'];
  const reduced = ['Indicatore ISE  9.320,40 euro', 'Parametro scala  1,00', 'ISEE (euro)  9.320,40 euro'];

  it.each(['ISEE socio-sanitario (nucleo ristr', 'ISEE sociosanitario ristre', 'ISEE RIDOT'])(
    'reads the reduced ISEE under a heading its narrow column cut short, "%s"',
    (heading) => {
      const reading = parseAttestation([...ordinary, heading, ...reduced], 'textract', 0.95);
      expect(reading).toMatchObject({ iseeOrdinario: 16187.98, iseeRistretto: 9320.4, coherent: true });
      expect(reading.warnings).toBeUndefined();
    },
  );

  it('never takes a cut word that could be another for the reduced ISEE ("ISEE RI", "ISEE per la ricerca")', () => {
    for (const heading of ['ISEE RI', 'ISEE per la ricerca']) {
      expect(parseAttestation([...ordinary, heading, ...reduced], 'textract', 0.95).iseeRistretto).toBeNull();
    }
  });

  it('keeps the reduced ISEE when the omissions list below it speaks of a "conto corrente"', () => {
    const reading = parseAttestation(
      [
        ...ordinary,
        'ISEE socio-sanitario (nucleo ristretto)',
        ...reduced,
        '- saldo e giacenza media del conto corrente non dichiarati',
      ],
      'textract',
      0.95,
    );
    expect(reading).toMatchObject({ iseeRistretto: 9320.4, coherent: true });
  });

  it('reads a figure whose last zero OCR took for an O before "euro"', () => {
    expect(
      parseAttestation(
        ['ISEE ORDINARIO', 'ISE 54.462,08 euro', 'Scala di equivalenza 2,04', 'ISEE 26.697,1O euro'],
        'textract',
        0.95,
      ),
    ).toMatchObject({ iseeOrdinario: 26697.1, coherent: true });
  });

  it('finds the omissions box’s answer past a block that a column beside it put in between', () => {
    const box = (answer: string) => [
      ...ordinary,
      'OMISSIONI E/O DIFFORMITÀ',
      'ISEE socio-sanitario (nucleo ristretto)',
      ...reduced,
      answer,
    ];
    const none = parseAttestation(
      box('Dai controlli effettuati non risultano omissioni né difformità.'),
      'textract',
      0.95,
    );
    expect(none).toMatchObject({ omissionsNotice: null, iseeRistretto: 9320.4 });
    const present = parseAttestation(box('PRESENTI: reddito da lavoro dipendente'), 'textract', 0.95);
    expect(present.omissionsNotice).toContain('reddito da lavoro dipendente');
  });
});
