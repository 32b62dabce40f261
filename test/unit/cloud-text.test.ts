import { readFileSync } from 'node:fs';
import {
  BadDocumentException,
  DetectDocumentTextCommand,
  TextractClient,
  ThrottlingException,
} from '@aws-sdk/client-textract';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAttestation } from '../../functions/domain/isee-attestation.ts';
import { createCloudTextSource } from '../../functions/isee-extraction/cloud-text.ts';
import { getDocument } from '../../functions/isee-extraction/pdfjs.ts';
import { readAttestation } from '../../functions/isee-extraction/read-attestation.ts';
import type { TextractAnswer } from '../../functions/isee-extraction/textract-text.ts';
import { makeFixture } from '../fixtures/isee/generate.ts';
import { scannedPdf as scan, tinyPng } from '../support/files.ts';

/**
 * The cloud's reading against Textract's documented contract (Textract developer guide: API_DetectDocumentText,
 * "Document" with "Bytes"; limits-document: synchronous PDFs of one page, 10 MB), Textract itself mocked with
 * the answers of real documents (test/fixtures/textract).
 */
const textract = mockClient(TextractClient);
const source = createCloudTextSource(new TextractClient({ region: 'eu-central-1' }));
const twoPages: { answers: TextractAnswer[]; expected: Record<string, unknown> } = JSON.parse(
  readFileSync(new URL('../fixtures/textract/multi-page-form-attestation.json', import.meta.url), 'utf8'),
);
const sent = () => textract.commandCalls(DetectDocumentTextCommand).map((call) => call.args[0].input.Document!.Bytes!);
const pagesOf = async (pdf: Uint8Array) =>
  (await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise).numPages;
const parse = (text: Awaited<ReturnType<typeof source.read>>) =>
  parseAttestation(text.lines, text.source, text.quality);

/** A scan saved as a PDF: two pages, each only a picture, no text layer. */
let scannedPdf: Uint8Array;
beforeAll(async () => {
  scannedPdf = await scan(2);
});
beforeEach(() => textract.reset());

describe('the cloud reading of an attestation', () => {
  it('reads a digital PDF from its own text layer, without calling Textract', async () => {
    const { bytes, truth } = await makeFixture(21, 'pdf', 'inps-blocks');
    const text = await source.read(bytes);
    expect(text.source).toBe('pdf-text');
    expect(parse(text)).toMatchObject({
      protocollo: truth.protocollo,
      iseeOrdinario: truth.iseeOrdinario,
      ise: truth.ise,
    });
    expect(textract.calls()).toHaveLength(0);
  });

  it('sends an image to DetectDocumentText with its bytes in the request (no S3 location)', async () => {
    textract.on(DetectDocumentTextCommand).resolves(twoPages.answers[1]);
    const png = tinyPng();
    const text = await source.read(png);
    expect(textract.commandCalls(DetectDocumentTextCommand)[0].args[0].input).toEqual({ Document: { Bytes: png } });
    expect(text.source).toBe('textract');
    expect(parse(text)).toMatchObject({ ise: 25415.13, iseeOrdinario: 16187.98, coherent: true });
  });

  it('sends each page of a scanned PDF as a one-page PDF, in order, and reads them as one document', async () => {
    textract.on(DetectDocumentTextCommand).resolvesOnce(twoPages.answers[0]).resolvesOnce(twoPages.answers[1]);
    const text = await source.read(scannedPdf);
    expect(sent()).toHaveLength(2);
    for (const page of sent()) {
      expect(Buffer.from(page.slice(0, 5)).toString()).toBe('%PDF-');
      expect(await pagesOf(page)).toBe(1);
    }
    expect(parse(text)).toMatchObject(twoPages.expected);
  });

  it('keeps the pages Textract could read when it refuses one (partial success)', async () => {
    textract
      .on(DetectDocumentTextCommand)
      .rejectsOnce(new BadDocumentException({ message: 'Unable to process the document', $metadata: {} }))
      .resolvesOnce(twoPages.answers[1]);
    const read = parse(await source.read(scannedPdf));
    expect(read).toMatchObject({ protocollo: null, ise: 25415.13, iseeOrdinario: 16187.98, coherent: true });
  });

  it('fails with Textract’s reason when no page could be read, and lets throttling reach the state machine', async () => {
    const bytes = scannedPdf;
    textract
      .on(DetectDocumentTextCommand)
      .rejects(new BadDocumentException({ message: 'Unable to process the document', $metadata: {} }));
    await expect(source.read(bytes)).rejects.toMatchObject({ name: 'BadDocumentException' });
    textract.reset();
    textract
      .on(DetectDocumentTextCommand)
      .rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: {} }));
    await expect(source.read(bytes)).rejects.toMatchObject({ name: 'ThrottlingException' });
  });

  it('takes a blank page (a PAGE block and no LINE) for a failed reading, not an empty success', async () => {
    textract.on(DetectDocumentTextCommand).resolves({
      Blocks: [{ BlockType: 'PAGE', Geometry: { BoundingBox: { Left: 0, Top: 0, Width: 1, Height: 1 } } }],
    });
    const read = readAttestation(() => source.read(tinyPng()));
    await expect(
      read({ iseeId: 'x', bucket: 'b', key: 'isee/x/document', contentType: 'image/png' }),
    ).rejects.toMatchObject({
      name: 'NoReadableText',
      message: 'Nessun testo leggibile nel documento',
    });
  });
});
