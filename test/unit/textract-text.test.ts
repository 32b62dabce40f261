import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAttestation } from '../../functions/domain/isee-attestation.ts';
import { textFromTextract, type TextractAnswer } from '../../functions/isee-extraction/textract-text.ts';

/**
 * Real Textract answers (aws-samples/amazon-textract-response-parser's test data), their geometry and order
 * untouched, a few LINEs' text rewritten into an attestation's (test/fixtures/textract/derive.ts).
 */
interface Fixture {
  derivedFrom: string;
  expected: Record<string, unknown>;
  answers: TextractAnswer[];
}
const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(new URL(`../fixtures/textract/${name}.json`, import.meta.url), 'utf8'));
const read = (answers: TextractAnswer[]) => {
  const text = textFromTextract(answers);
  return parseAttestation(text.lines, text.source, text.quality);
};

describe('reading real Textract answers shaped like attestations', () => {
  it.each([
    'paystub-attestation',
    'gib-10-degrees-attestation',
    'gib-180-degrees-attestation',
    'multi-page-form-attestation',
  ])('%s: each value with its own label, ISEE = ISE / scala checked', (name) => {
    const { answers, expected } = fixture(name);
    expect(read(answers)).toMatchObject(expected);
  });

  it('puts the label LINE and the value LINE of one row back together, even read across the columns', () => {
    const lines = textFromTextract(fixture('paystub-attestation').answers).lines.map((l) =>
      l.text.replace(/\s+/g, ' '),
    );
    expect(lines).toContain('Holiday 10.00 8.00 80.00 4,160.00 ISE - Indicatore della Situazione Economica 25.415,13');
    expect(lines).toContain('Gross Pay $ 452.43 23,526.80 Scala di equivalenza 1,57');
  });

  it('pairs a row of labels with the row of values under it by column, on a page turned 10°', () => {
    const lines = textFromTextract(fixture('gib-10-degrees-attestation').answers).lines.map((l) =>
      l.text.replace(/\s+/g, ' '),
    );
    expect(lines).toEqual(
      expect.arrayContaining(['ISEE ordinario € 9.561,02', 'ISEE ridotto € 6.020,00', 'Scala di equivalenza 2,04']),
    );
  });

  it('reads a multi-page result whose blocks carry Page as one answer per page', () => {
    const { answers, expected } = fixture('multi-page-form-attestation');
    const pages = answers.map((answer, i) => ({ Blocks: answer.Blocks!.map((b) => ({ ...b, Page: i + 1 })) }));
    expect(read([{ Blocks: pages.flatMap((p) => p.Blocks) }])).toMatchObject(expected);
  });

  it('weighs the confidence of the lines that carry the values, not of every line', () => {
    // Without the reduced ISEE, which prints no ISE or scale of its own: its flag would cap every confidence alike.
    const reduced = new Set(['ISEE sociosanitario ridotto', '12.400,50']);
    const answers = fixture('paystub-attestation').answers.map((a) => ({
      Blocks: a.Blocks!.filter((b) => !reduced.has(b.Text ?? '')),
    }));
    const confident = read(answers).confidence;
    // The same answer with Textract unsure of the ISEE's value LINE only.
    const doubtful = answers.map((a) => ({
      Blocks: a.Blocks!.map((b) => (b.Text === '16.187,98' ? { ...b, Confidence: 40 } : b)),
    }));
    expect(read(doubtful).confidence).toBeLessThan(confident - 0.05);
    // …and unsure of a line that carries nothing the operator relies on.
    const noise = answers.map((a) => ({
      Blocks: a.Blocks!.map((b) => (b.Text === 'Earnings Statement' ? { ...b, Confidence: 5 } : b)),
    }));
    expect(read(noise).confidence).toBe(confident);
  });
});
