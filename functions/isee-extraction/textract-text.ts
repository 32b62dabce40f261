import {
  DetectDocumentTextCommand,
  type Block,
  type Point as TextractPoint,
  type TextractClient,
} from '@aws-sdk/client-textract';
import type { DocumentText } from '../domain/isee-attestation.ts';
import { meanConfidence, pageLines, type PlacedText, type Point } from '../domain/text-layout.ts';
import type { TextLine } from '../domain/text-line.ts';

/** One answer of DetectDocumentText (one page), or a page of an asynchronous result (its blocks carry `Page`). */
export interface TextractAnswer {
  Blocks?: Block[];
}

const corners = (block: Block): PlacedText['polygon'] | null => {
  const polygon = block.Geometry?.Polygon;
  if (polygon?.length === 4 && polygon.every((p: TextractPoint) => p.X !== undefined && p.Y !== undefined))
    return polygon as [Point, Point, Point, Point];
  const box = block.Geometry?.BoundingBox;
  if (!box || box.Left === undefined || box.Top === undefined || box.Width === undefined || box.Height === undefined)
    return null;
  const [left, top, right, bottom] = [box.Left, box.Top, box.Left + box.Width, box.Top + box.Height];
  return [
    { X: left, Y: top },
    { X: right, Y: top },
    { X: right, Y: bottom },
    { X: left, Y: bottom },
  ];
};

/** Textract's text: always lines put together from geometry. */
export interface TextractText extends DocumentText {
  lines: TextLine[];
}

/** A page's LINE blocks as runs placed on it: their text, confidence (0–1) and polygon. */
export function placedLines(blocks: Block[]): PlacedText[] {
  return blocks.flatMap((block) => {
    const polygon = block.BlockType === 'LINE' && block.Text?.trim() ? corners(block) : null;
    return polygon ? [{ text: block.Text!, confidence: (block.Confidence ?? 0) / 100, polygon }] : [];
  });
}

/**
 * Textract's answers as the parser's lines: each page's LINEs put back into printed rows by their geometry
 * (text-layout.ts), pages in order. An answer's blocks without `Page` (DetectDocumentText) are its own page.
 */
export function textFromTextract(answers: TextractAnswer[]): TextractText {
  const pages = new Map<string, Block[]>();
  answers.forEach((answer, i) => {
    for (const block of answer.Blocks ?? []) {
      const page = `${i}:${block.Page ?? 1}`;
      pages.set(page, [...(pages.get(page) ?? []), block]);
    }
  });
  const lines = [...pages.values()].flatMap((blocks) => pageLines(placedLines(blocks)));
  return { lines, source: 'textract', quality: meanConfidence(lines) };
}

/** One page (an image, or a one-page PDF) read by the synchronous DetectDocumentText, its bytes in the request. */
export async function detectText(textract: TextractClient, bytes: Uint8Array): Promise<TextractAnswer> {
  return textract.send(new DetectDocumentTextCommand({ Document: { Bytes: bytes } }));
}
