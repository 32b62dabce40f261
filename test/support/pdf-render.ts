import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from '../../functions/isee-extraction/pdfjs.ts';
import { repoRoot } from '../../lib/portal-function.ts';

/** pdfjs's own metrics of the 14 standard fonts (the notice uses Helvetica without embedding it). */
const standardFontDataUrl = `${path.join(repoRoot, 'node_modules/pdfjs-dist/standard_fonts')}/`;

/**
 * The first page of a PDF as pdfjs reads it: its text lines (items grouped by baseline, left to right) and, unless
 * `scale` is 0, the page drawn as an RGBA image.
 */
export async function renderFirstPage(pdf: Uint8Array, scale = 2) {
  const document = await getDocument({ data: pdf.slice(), standardFontDataUrl, verbosity: 0 }).promise;
  const page = await document.getPage(1);
  const content = await page.getTextContent();
  const items = (content.items as { str: string; transform: number[] }[]).filter((i) => i.str.trim());
  const rows = new Map<number, { x: number; str: string }[]>();
  for (const item of items) {
    const y = Math.round(item.transform[5]!);
    const key = [...rows.keys()].find((k) => Math.abs(k - y) <= 2) ?? y;
    rows.set(key, [...(rows.get(key) ?? []), { x: item.transform[4]!, str: item.str }]);
  }
  const lines = [...rows.entries()]
    .sort(([a], [b]) => b - a)
    .map(([, row]) =>
      row
        .sort((a, b) => a.x - b.x)
        .map((i) => i.str)
        .join(' '),
    );
  const text = lines.join('\n');
  /** The items in the order the page's content draws them, one space apart (a paragraph's lines read on). */
  const flow = items.map((i) => i.str).join(' ');
  if (scale === 0) {
    await document.destroy();
    return { pages: document.numPages, text, flow, lines, image: null, png: null };
  }
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  await document.destroy();
  return {
    pages: document.numPages,
    text,
    flow,
    lines,
    image: { width: image.width, height: image.height, data: new Uint8Array(image.data.buffer) },
    png: () => canvas.encode('png'),
  };
}
