import { createCanvas } from '@napi-rs/canvas';
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { fileTypeOf } from '../../functions/domain/file-signature.ts';
import { isAcceptedType } from '../../functions/domain/files.ts';
import { renamedExecutable, samplePdf, tinyPng } from '../support/files.ts';

const photo = (format: 'jpeg' | 'png' | 'webp') => {
  const canvas = createCanvas(40, 30);
  canvas.getContext('2d').fillRect(0, 0, 20, 15);
  return new Uint8Array(canvas.encodeSync(format as 'jpeg'));
};
const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

const samples: Record<string, () => Uint8Array | Promise<Uint8Array>> = {
  'a PDF': () => samplePdf(),
  'a 1×1 PNG': tinyPng,
  'a JPEG photo': () => photo('jpeg'),
  'a PNG picture': () => photo('png'),
  'a WebP picture': () => photo('webp'),
  'a renamed Windows executable': renamedExecutable,
  'a GIF': () => ascii('GIF89a\x01\x00\x01\x00\x00\x00\x00;'),
  'a ZIP (or a .docx)': () => ascii('PK\x03\x04\x14\x00\x00\x00\x08\x00'),
  'plain text': () => ascii('Modulo di domanda'),
  'an empty file': () => new Uint8Array(),
};

describe('the type of an uploaded file, read from its first bytes', () => {
  it.each(Object.keys(samples))('agrees with file-type on %s (among the accepted types)', async (name) => {
    const bytes = await samples[name]();
    const reference = (await fileTypeFromBuffer(bytes))?.mime;
    expect(fileTypeOf(bytes.subarray(0, 16))).toBe(isAcceptedType(reference) ? reference : undefined);
  });

  it('recognises exactly the three accepted formats', async () => {
    expect(fileTypeOf(await samplePdf())).toBe('application/pdf');
    expect(fileTypeOf(tinyPng())).toBe('image/png');
    expect(fileTypeOf(photo('jpeg'))).toBe('image/jpeg');
    expect(fileTypeOf(renamedExecutable())).toBeUndefined();
  });
});
