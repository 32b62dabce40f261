import { describe, expect, it } from 'vitest';
import { fiscalCodeCheckCharacter, isValidFiscalCode } from '../../functions/domain/fiscal-code.ts';
import { parseAttestation, UNVERIFIED_CONFIDENCE } from '../../functions/domain/isee-attestation.ts';
import { iseeExtractionSchema } from '../../functions/domain/isee-extraction.ts';
import { createLocalTextSource } from '../../lib/local/local-text.ts';
import { layouts, makeFixture } from '../fixtures/isee/generate.ts';
import { fiscalCodeOf } from '../fixtures/isee/people.ts';

// An attestation as a PDF's text layer gives it (classic layout).
const classic = [
  'Protocollo DSU n.',
  'INPS',
  'INPS-ISEE-2025-00597381W-00',
  'ATTESTAZIONE ISEE',
  'Dichiarazione Sostitutiva Unica (DSU) presentata il 12/02/2025',
  'Attestazione rilasciata il 14/02/2025',
  'Componenti del nucleo familiare',
  'Cognome Nome Codice fiscale Data di nascita Rapporto',
  'ROSSI MARIA RSSMRA85C52H501N 12/03/1985 Dichiarante',
  'VERDI GIUSEPPE VRDGPP90P07F839R 07/09/1990 Coniuge',
  'ISE - Indicatore della Situazione Economica 25.415,13',
  'Scala di equivalenza 1,57',
  'ISEE ordinario 16.187,98',
  'ISEE minorenni 15.001,00',
  'ISEE sociosanitario ridotto 12.400,50',
  'La presente attestazione è valida fino al 31/12/2025',
  'OMISSIONI / DIFFORMITÀ',
  'Non sono state rilevate omissioni o difformità nei dati della DSU.',
];

describe('reading an ISEE attestation from its text', () => {
  it('reads every field of a clean attestation', () => {
    expect(parseAttestation(classic, 'pdf-text')).toEqual({
      protocollo: 'INPS-ISEE-2025-00597381W-00',
      iseeOrdinario: 16187.98,
      iseeRistretto: 12400.5,
      ise: 25415.13,
      scalaEquivalenza: 1.57,
      coherent: true,
      dataRilascio: '2025-02-14',
      dataFine: '2025-12-31',
      fiscalCodes: ['RSSMRA85C52H501N', 'VRDGPP90P07F839R'],
      // The reduced ISEE is printed alone, without its ISE and scale: nothing confirms it, the operator looks.
      confidence: UNVERIFIED_CONFIDENCE,
      warnings: [
        'ISEE ristretto non verificato: il suo riquadro non riporta ISE e scala di equivalenza, controlla il valore sul documento',
      ],
      omissionsNotice: null,
      source: 'pdf-text',
    });
    expect(
      parseAttestation(
        classic.filter((line) => !line.includes('ridotto')),
        'pdf-text',
      ),
    ).toMatchObject({ iseeRistretto: null, confidence: 1 });
  });

  it('gives a result the ISEE record accepts as it is', () => {
    expect(() => iseeExtractionSchema.parse(parseAttestation(classic, 'pdf-text'))).not.toThrow();
  });

  it('takes the DSU presentation date as the issue date when no release date is printed', () => {
    const lines = classic.filter((l) => !l.startsWith('Attestazione rilasciata'));
    expect(parseAttestation(lines, 'pdf-text').dataRilascio).toBe('2025-02-12');
  });

  it('infers the expiry (31 December of the DSU year) when it is missing, and is less sure', () => {
    // Without the reduced ISEE, whose own flag caps the confidence whatever the rest.
    const checked = classic.filter((l) => !l.includes('ridotto'));
    const read = parseAttestation(
      checked.filter((l) => !l.includes('valida fino')),
      'pdf-text',
    );
    expect(read.dataFine).toBe('2025-12-31');
    expect(read.confidence).toBeLessThan(parseAttestation(checked, 'pdf-text').confidence);
  });

  it('never takes another indicator (minorenni, universitario) for the ordinary or the reduced ISEE', () => {
    const read = parseAttestation(
      ['ISEE universitario 9.000,00', 'ISEE minorenni 8.000,00', 'Valore ISEE 10.500,00'],
      'pdf-text',
    );
    expect(read.iseeOrdinario).toBe(10500);
    expect(read.iseeRistretto).toBeNull();
  });

  it('reads "ISEE ristretto" and "ISEE ridotto" as the reduced indicator', () => {
    expect(parseAttestation(['ISEE ordinario 20.000,00', 'ISEE ristretto 7.000,00'], 'pdf-text').iseeRistretto).toBe(
      7000,
    );
    expect(parseAttestation(['ISEE ordinario 20.000,00', 'ISEE ridotto 7.500,00'], 'pdf-text').iseeRistretto).toBe(
      7500,
    );
  });

  it('reads a value printed under its label, and a row of labels over a row of values', () => {
    expect(
      parseAttestation(['ISEE ordinario', '€ 1.756,09', 'ISEE ristretto', '€ 1.115,22'], 'pdf-text'),
    ).toMatchObject({ iseeOrdinario: 1756.09, iseeRistretto: 1115.22 });
    expect(
      parseAttestation(['ISEE ordinario ISEE sociosanitario ridotto', '€ 56.547,16 € 50.894,58'], 'pdf-text'),
    ).toMatchObject({
      iseeOrdinario: 56547.16,
      iseeRistretto: 50894.58,
    });
  });

  it('surfaces the omissions/discrepancies notice, and gives null when the attestation says there are none', () => {
    const withNotice = [
      ...classic.slice(0, -2),
      'OMISSIONI / DIFFORMITÀ',
      'Per la presente DSU sono state rilevate le seguenti omissioni/difformità:',
      '- saldo e giacenza media del conto corrente non dichiarati',
      'Pagina 1 di 1',
    ];
    expect(parseAttestation(withNotice, 'pdf-text').omissionsNotice).toBe(
      'Per la presente DSU sono state rilevate le seguenti omissioni/difformità: - saldo e giacenza media del conto corrente non dichiarati',
    );
    expect(parseAttestation(classic, 'pdf-text').omissionsNotice).toBeNull();
    expect(parseAttestation(classic.slice(0, -2), 'pdf-text').omissionsNotice).toBeNull();
  });

  it('reads through OCR noise: letters for digits, broken hyphens, spaces, typos in the labels', () => {
    const ocr = [
      'I N PS Protocollo DSU n,',
      'lNPS-1SEE-2O25 -0O597381W--0O',
      'Dichiarazione Sostitutiva Unica (DSU) presentata il l2/O2/2025',
      'ROSSI MARIA RSSMRA8SC52H5O1N 12/03/1985 Dichiarante',
      'VERDI GIUSEPPE VRDGPP90P0O7F839R 07/09/1990 Coniuge',
      'lSEE ordlnario 16.187.98',
      '1SEE socio-sanitario ridotto 12,400,50',
      'La presente attestazione è valida fino al 3l/12/2025',
      'Per ia presente DSU sono state rilevate le seguenti omissioni/ditformità:',
      '- veicolo non indicato',
    ];
    expect(parseAttestation(ocr, 'ocr', 0.8)).toMatchObject({
      protocollo: 'INPS-ISEE-2025-00597381W-00',
      iseeOrdinario: 16187.98,
      iseeRistretto: 12400.5,
      dataRilascio: '2025-02-12',
      dataFine: '2025-12-31',
      fiscalCodes: ['RSSMRA85C52H501N', 'VRDGPP90P07F839R'],
      omissionsNotice: expect.stringContaining('veicolo non indicato'),
      // No ISE and scale to check the ISEE against: however clean the lines, not above UNVERIFIED_CONFIDENCE.
      confidence: 0.5,
    });
  });

  it('takes the amount at the end of the line, never digits out of a dotted leader (issue 24)', () => {
    // What OCR made of a photographed 'ISEE ORDINARIO ........ 77.895,81': the old reading took 0,77.
    expect(parseAttestation(['ISEE ORDINARIO .......ssscc0. 77.895, 81'], 'ocr', 0.9).iseeOrdinario).toBe(77895.81);
    expect(parseAttestation(['ISEE ordinario ..........1.234,56'], 'ocr', 0.9).iseeOrdinario).toBe(1234.56);
    expect(
      parseAttestation(
        ['SCALA DI EQUIVALENZA .............1,57', 'ISE ....... 25.415,13', 'ISEE ORDINARIO ....... 16.187,98'],
        'ocr',
        0.9,
      ),
    ).toMatchObject({
      scalaEquivalenza: 1.57,
      ise: 25415.13,
      iseeOrdinario: 16187.98,
      coherent: true,
    });
    // Two amounts and words after them: no amount ends the line, so nothing is proposed.
    expect(parseAttestation(['ISEE ordinario 0. 77.895 ss 12'], 'ocr', 0.9).iseeOrdinario).toBeNull();
  });

  it('never shows an ISEE it could not check against ISE / scala with a high confidence', () => {
    // The reading of issue 24: the ISE line unreadable, the lines themselves read with 0.9.
    const read = parseAttestation(
      [
        'INPS-ISEE-2025-00597381W-00',
        'Attestazione rilasciata il 14/02/2025',
        'ISE ....... %&£ $$',
        'SCALA DI EQUIVALENZA 1,57',
        'ISEE ORDINARIO .......ssscc0. 77.895, 81',
        'valida fino al 31/12/2025',
        'RSSMRA85C52H501N',
      ],
      'ocr',
      0.98,
    );
    expect(read).toMatchObject({ iseeOrdinario: 77895.81, ise: null, coherent: null });
    expect(read.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
    // The same with ISE read: checked, and trusted.
    const checked = parseAttestation(
      [
        'INPS-ISEE-2025-00597381W-00',
        'Attestazione rilasciata il 14/02/2025',
        'ISE 122.296,42',
        'SCALA DI EQUIVALENZA 1,57',
        'ISEE ORDINARIO 77.895,81',
        'valida fino al 31/12/2025',
        'RSSMRA85C52H501N',
      ],
      'ocr',
      0.98,
    );
    expect(checked).toMatchObject({ coherent: true });
    expect(checked.confidence).toBeGreaterThan(0.9);
  });

  it('reads an ISEE of zero: 0,00 is a value, never noise', () => {
    expect(parseAttestation(['ISEE ordinario', '0,00'], 'textract', 0.95).iseeOrdinario).toBe(0);
    expect(parseAttestation(['Valore ISEE', '€ 0,00'], 'textract', 0.95).iseeOrdinario).toBe(0);
    expect(
      parseAttestation(['ISE 0,00', 'Scala di equivalenza 2,04', 'ISEE ordinario 0,00'], 'pdf-text'),
    ).toMatchObject({ iseeOrdinario: 0, ise: 0, coherent: true });
  });

  it('takes the value on the line after a label spelt twice, or a scale on its own line', () => {
    const lines = [
      'ISE - Indicatore della Situazione Economica',
      '25.415,13',
      'Scala di equivalenza',
      '1,57',
      'ISEE ordinario',
      '16.187,98',
    ];
    expect(parseAttestation(lines, 'textract', 0.95)).toMatchObject({
      ise: 25415.13,
      scalaEquivalenza: 1.57,
      iseeOrdinario: 16187.98,
      coherent: true,
    });
  });

  it('finds the protocol when OCR doubles its letter as a digit or loses the prefix', () => {
    expect(parseAttestation(['Numero di protocollo: INPS-ISEE-2024-566952015S-00'], 'ocr').protocollo).toBe(
      'INPS-ISEE-2024-56695201S-00',
    );
    expect(parseAttestation(['Protocollo 2024 - 56695201S - 00'], 'ocr').protocollo).toBe(
      'INPS-ISEE-2024-56695201S-00',
    );
  });

  it('keeps homocodic fiscal codes as they are and drops codes whose check character is wrong', () => {
    const homocodic = fiscalCodeOf('ROSSI', 'MARIA', true, 12, 3, 1985, 'H501', 2);
    expect(homocodic).toMatch(/^RSSMRA85C52H5LM.$/);
    expect(parseAttestation([`C.F. ${homocodic}`, 'C.F. RSSMRA85C52H501X'], 'pdf-text').fiscalCodes).toEqual([
      homocodic,
    ]);
  });

  it('gives no value rather than a wrong one for a document that is not an attestation', () => {
    const read = parseAttestation(['Bolletta della luce', 'Totale da pagare 84,30', 'Scadenza 15/03/2025'], 'pdf-text');
    expect(read).toMatchObject({ protocollo: null, iseeOrdinario: null, iseeRistretto: null, fiscalCodes: [] });
    expect(read.confidence).toBeLessThan(0.5);
  });
});

describe('fiscal code check character', () => {
  it('computes the official check character', () => {
    expect(fiscalCodeCheckCharacter('RSSMRA85C52H501')).toBe('N');
    expect(fiscalCodeCheckCharacter('VRDGPP90P07F839')).toBe('R');
    expect(fiscalCodeCheckCharacter('BNCLRA79H61F205')).toBe('F');
  });

  it('accepts valid codes (homocodic too) and refuses a wrong check character or shape', () => {
    expect(isValidFiscalCode('SPSPLA68S02L219G')).toBe(true);
    expect(isValidFiscalCode(fiscalCodeOf('ROSSI', 'MARIA', true, 12, 3, 1985, 'H501', 3))).toBe(true);
    expect(isValidFiscalCode('RSSMRA85C52H501A')).toBe(false);
    expect(isValidFiscalCode('RSSMRA85C52H50')).toBe(false);
  });
});

describe('generated attestations through the PDF text layer', () => {
  it.each(layouts)('reads the %s layout exactly', async (layout) => {
    const source = createLocalTextSource();
    try {
      for (const seed of [11, 12, 13]) {
        const { bytes, truth } = await makeFixture(seed, 'pdf', layout);
        const text = await source.read(bytes);
        expect(text.source).toBe('pdf-text');
        const read = parseAttestation(text.lines, text.source, text.quality);
        expect(read).toMatchObject({
          protocollo: truth.protocollo,
          iseeOrdinario: truth.iseeOrdinario,
          iseeRistretto: truth.iseeRistretto,
          ise: truth.ise,
          scalaEquivalenza: truth.scala,
          coherent: truth.coherent,
          dataRilascio: truth.dataRilascio,
          dataFine: truth.dataFine,
        });
        expect(read.fiscalCodes).toEqual(truth.fiscalCodes);
        expect(read.omissionsNotice !== null).toBe(truth.omissions);
      }
    } finally {
      await source.close();
    }
  });
});
