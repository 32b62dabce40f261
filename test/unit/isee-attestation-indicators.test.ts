import { describe, expect, it } from 'vitest';
import {
  INCOHERENT_CONFIDENCE,
  parseAttestation,
  UNVERIFIED_CONFIDENCE,
} from '../../functions/domain/isee-attestation.ts';
import { iseeExtractionSchema } from '../../functions/domain/isee-extraction.ts';

/**
 * Issue 11: attestations laid out as INPS prints them. The operator sees the ISEE proposed from the
 * document, its ISE and scale, whether they agree, and the omissions box only when it reports some.
 */
const top = [
  'INPS-ISEE-2025-00597381W-00',
  'Dichiarazione Sostitutiva Unica (DSU) presentata il 12/02/2025',
  'ROSSI MARIA RSSMRA85C52H501N Dichiarante',
];
const ordinaryBlock = [
  'ISEE ORDINARIO',
  'Indicatore della situazione economica (ISE): 53.829,52',
  'Valore della scala di equivalenza: 1,57',
  'Indicatore della situazione economica equivalente (ISEE): 34.286,32',
];
const read = (lines: string[]) => parseAttestation([...top, ...lines], 'pdf-text');

describe('the ISEE is read from the line that names it', () => {
  it('proposes the ISEE, not the ISE, for an ISE-scale-ISEE block under an "ISEE ORDINARIO" heading', () => {
    expect(read(ordinaryBlock)).toMatchObject({
      iseeOrdinario: 34286.32,
      ise: 53829.52,
      scalaEquivalenza: 1.57,
      coherent: true,
    });
  });

  it('skips ISR, ISP and other amounts in the block, in INPS order, amounts with or without thousands dots', () => {
    const block = [
      'ISEE ORDINARIO',
      'Indicatore della situazione economica (ISE) 53829,52',
      'Indicatore della situazione reddituale (ISR) 41000,12',
      'Indicatore della situazione patrimoniale (ISP) 64147,00',
      'Patrimonio mobiliare 12000,00',
      'Valore della scala di equivalenza 1,57',
      'ISEE 34286,32',
    ];
    expect(read(block)).toMatchObject({ iseeOrdinario: 34286.32, ise: 53829.52, scalaEquivalenza: 1.57 });
  });

  it('takes the indicator from the heading of each block, and each ISEE from its own block', () => {
    const lines = [
      'ISEE MINORENNI',
      'Indicatore della situazione economica (ISE): 60.000,00',
      'Scala di equivalenza: 2,04',
      'Valore ISEE: 29.411,76',
      ...ordinaryBlock,
      'ISEE SOCIOSANITARIO RIDOTTO',
      'Indicatore della situazione economica (ISE): 20.000,00',
      'Scala di equivalenza: 1,00',
      'Valore ISEE: 20.000,00',
    ];
    expect(read(lines)).toMatchObject({
      iseeOrdinario: 34286.32,
      iseeRistretto: 20000,
      ise: 53829.52,
      scalaEquivalenza: 1.57,
      coherent: true,
    });
  });

  it('checks a reduced ISEE with its own block’s ISE and scale: coherent, no warning, the confidence stays', () => {
    const lines = [
      ...ordinaryBlock,
      'ISEE SOCIOSANITARIO RIDOTTO',
      'Indicatore della situazione economica (ISE): 20.000,00',
      'Scala di equivalenza: 1,00',
      'Valore ISEE: 20.000,00',
    ];
    const reading = read(lines);
    expect(reading.warnings).toBeUndefined();
    expect(reading.confidence).toBeGreaterThan(UNVERIFIED_CONFIDENCE);
  });

  it('flags a reduced ISEE whose block prints no ISE or scale: nothing confirms it, so the operator checks it on the document', () => {
    for (const reduced of [
      ['ISEE SOCIOSANITARIO RIDOTTO', 'Valore ISEE: 12.400,50'],
      ['ISEE sociosanitario ridotto 12.400,50'],
      ['ISEE SOCIOSANITARIO RIDOTTO', 'Scala di equivalenza: 1,00', 'Valore ISEE: 12.400,50'],
    ]) {
      const reading = read([...ordinaryBlock, ...reduced]);
      expect(reading).toMatchObject({ iseeOrdinario: 34286.32, iseeRistretto: 12400.5, coherent: true });
      expect(reading.warnings).toEqual([
        'ISEE ristretto non verificato: il suo riquadro non riporta ISE e scala di equivalenza, controlla il valore sul documento',
      ]);
      expect(reading.confidence).toBeLessThanOrEqual(UNVERIFIED_CONFIDENCE);
    }
    // Without a reduced ISEE there is nothing to flag.
    expect(read(ordinaryBlock).warnings).toBeUndefined();
  });

  it('never takes a line naming another indicator for the one in the heading above it', () => {
    const lines = ['ISEE ORDINARIO', 'ISEE minorenni: 31.000,00', 'ISEE corrente: 28.000,00', 'ISEE: 34.286,32'];
    expect(read(lines).iseeOrdinario).toBe(34286.32);
  });

  it('reads the values on page 2 of a two-page attestation', () => {
    const lines = [
      'Eventuali omissioni o difformità sono riportate nel riquadro a pagina 2.',
      'Pagina 1 di 2',
      'Protocollo INPS-ISEE-2025-00597381W-00',
      ...ordinaryBlock,
      'Omissioni / difformità: NESSUNA',
      'Pagina 2 di 2',
    ];
    expect(read(lines)).toMatchObject({ iseeOrdinario: 34286.32, coherent: true, omissionsNotice: null });
  });
});

describe('cross-check: ISEE = ISE / scala di equivalenza', () => {
  it('is surer of an ISEE that ISE / scale confirms', () => {
    const confirmed = read(ordinaryBlock);
    const alone = read(['ISEE ORDINARIO', 'Indicatore della situazione economica equivalente (ISEE): 34.286,32']);
    expect(alone).toMatchObject({ iseeOrdinario: 34286.32, ise: null, scalaEquivalenza: null, coherent: null });
    expect(confirmed.coherent).toBe(true);
    expect(confirmed.confidence).toBeGreaterThan(alone.confidence);
  });

  it('allows the cents INPS rounds away, and nothing more', () => {
    // 53.829,52 / 1,57 = 34.286,3185…: ±1 cent agrees, a misread digit does not.
    expect(read([...ordinaryBlock.slice(0, 3), 'ISEE: 34.286,33']).coherent).toBe(true);
    expect(read([...ordinaryBlock.slice(0, 3), 'ISEE: 34.286,82']).coherent).toBe(false);
  });

  it('flags values that disagree (non coerenti) and gives the reading a low confidence', () => {
    const altered = read([
      ...ordinaryBlock.slice(0, 3),
      'Indicatore della situazione economica equivalente (ISEE): 24.286,32',
    ]);
    expect(altered).toMatchObject({ iseeOrdinario: 24286.32, coherent: false });
    expect(altered.confidence).toBeLessThanOrEqual(INCOHERENT_CONFIDENCE);
  });

  it('still accepts readings stored before ISE and scale were read', () => {
    const { ise, scalaEquivalenza, coherent, ...old } = read(ordinaryBlock);
    expect(iseeExtractionSchema.parse(old)).toMatchObject({ iseeOrdinario: 34286.32 });
  });
});

describe('the omissions/discrepancies box', () => {
  const none = [
    ['Omissioni / difformità: NESSUNA'],
    ['Omissioni e difformità: assenti'],
    ['OMISSIONI / DIFFORMITÀ', 'NON RILEVATE'],
    ['OMISSIONI / DIFFORMITÀ', 'Non sono state rilevate omissioni o difformità.'],
    ['OMISSIONI / DIFFORMITÀ', 'Nessuna omissione o difformità rilevata.'],
    ['In riferimento alla presente DSU non risultano omissioni/difformità.'],
  ];
  it.each(none)('gives no notice when the box says there are none: %s', (...box) => {
    expect(read([...ordinaryBlock, ...box, 'Pagina 1 di 1']).omissionsNotice).toBeNull();
  });

  it('gives the notice when the box says omissions or discrepancies are present, with what they are', () => {
    const present = read([
      ...ordinaryBlock,
      'Omissioni / difformità: PRESENTI',
      'Codice fiscale Tipologia di omissione / difformità',
      'RSSMRA85C52H501N veicolo non indicato',
      'Pagina 1 di 1',
    ]);
    expect(present.omissionsNotice).toContain('PRESENTI');
    expect(present.omissionsNotice).toContain('veicolo non indicato');
    const listed = read([
      ...ordinaryBlock,
      'OMISSIONI / DIFFORMITÀ',
      'Sono state rilevate le seguenti omissioni/difformità:',
      '- saldo del conto corrente non dichiarato',
    ]);
    expect(listed.omissionsNotice).toContain('saldo del conto corrente non dichiarato');
  });

  it('does not take a sentence about omissions in general for the box', () => {
    const lines = [
      'Eventuali omissioni o difformità sono riportate nel riquadro a pagina 2.',
      ...ordinaryBlock,
      'OMISSIONI / DIFFORMITÀ',
      'Nessuna omissione o difformità rilevata.',
    ];
    expect(read(lines).omissionsNotice).toBeNull();
  });
});
