import {
  DetectDocumentTextCommand,
  type Block,
  type Point as TextractPoint,
  type TextractClient,
} from '@aws-sdk/client-textract';
import type { DocumentText } from '../domain/isee-attestation.ts';
import { documentLines, meanConfidence, type PlacedText, type Point } from '../domain/text-layout.ts';
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

/**
 * A page's LINE blocks as runs placed on it: their text, confidence (0–1) and polygon. Textract makes one LINE of
 * words a few letters apart, such as a value of the left block and the label beside it in the right block
 * ("16.187,98 ISEE"): a LINE is cut where its WORDs stand more than two letters apart, each part placed where its
 * words are.
 */
export function placedLines(blocks: Block[]): PlacedText[] {
  const words = new Map(blocks.filter((b) => b.BlockType === 'WORD' && b.Id).map((b) => [b.Id!, b]));
  return blocks.flatMap((block) => {
    const polygon = block.BlockType === 'LINE' && block.Text?.trim() ? corners(block) : null;
    if (!polygon) return [];
    const confidence = (block.Confidence ?? 0) / 100;
    const parts = wideApart(block, polygon, words);
    return parts.length > 1
      ? parts.map((part) => ({ ...part, confidence }))
      : [{ text: block.Text!, confidence, polygon }];
  });
}

/** A LINE's WORDs in groups, cut where two stand more than two letters apart (one group when it has no WORDs). */
function wideApart(
  line: Block,
  polygon: PlacedText['polygon'],
  words: Map<string, Block>,
): Pick<PlacedText, 'text' | 'polygon'>[] {
  const children = (line.Relationships ?? [])
    .filter((r) => r.Type === 'CHILD')
    .flatMap((r) => r.Ids ?? [])
    .map((id) => words.get(id))
    .flatMap((word) => {
      const box = word?.Text ? corners(word) : null;
      return box ? [{ text: word!.Text!, box }] : [];
    });
  if (children.length < 2) return [];
  // Distances along the line's own direction (a photo may be turned).
  const [a, b] = polygon;
  const length = Math.hypot(b.X - a.X, b.Y - a.Y) || 1;
  const along = (p: Point) => ((p.X - a.X) * (b.X - a.X) + (p.Y - a.Y) * (b.Y - a.Y)) / length;
  const spans = children
    .map((w) => ({ ...w, start: along(w.box[0]), end: along(w.box[1]) }))
    .sort((x, y) => x.start - y.start);
  const letter = spans.reduce((sum, w) => sum + w.end - w.start, 0) / spans.reduce((n, w) => n + w.text.length, 0);
  const groups: (typeof spans)[] = [];
  for (const word of spans) {
    const last = groups.at(-1);
    if (last && word.start - last.at(-1)!.end <= 2 * letter) last.push(word);
    else groups.push([word]);
  }
  return groups.map((group) => ({
    text: group.map((w) => w.text).join(' '),
    polygon: [group[0].box[0], group.at(-1)!.box[1], group.at(-1)!.box[2], group[0].box[3]],
  }));
}

/**
 * Textract's answers as the parser's lines: each page's LINEs put back into printed rows by their geometry
 * (text-layout.ts), pages in order and read as one, so that a block a page break cut stays one. An answer's blocks
 * without `Page` (DetectDocumentText) are its own page.
 */
export function textFromTextract(answers: TextractAnswer[]): TextractText {
  const pages = new Map<string, Block[]>();
  answers.forEach((answer, i) => {
    for (const block of answer.Blocks ?? []) {
      const page = `${i}:${block.Page ?? 1}`;
      pages.set(page, [...(pages.get(page) ?? []), block]);
    }
  });
  const lines = documentLines([...pages.values()].map(placedLines));
  return { lines, source: 'textract', quality: meanConfidence(lines) };
}

/** One page (an image, or a one-page PDF) read by the synchronous DetectDocumentText, its bytes in the request. */
export async function detectText(textract: TextractClient, bytes: Uint8Array): Promise<TextractAnswer> {
  return textract.send(new DetectDocumentTextCommand({ Document: { Bytes: bytes } }));
}
