import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { OPS, getDocument } from './pdfjs.ts';
import { createWorker, type Worker } from 'tesseract.js';
import type { DocumentText } from '../domain/isee-attestation.ts';

/**
 * The local stand-in for Textract: the PDF's own text layer (pdfjs-dist), and OCR (tesseract.js with the
 * Italian data from npm, fully offline) for images and for PDF pages that are only a scan.
 */
export interface LocalTextSource {
  read(bytes: Uint8Array): Promise<DocumentText>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const italianData = path.join(path.dirname(require.resolve('@tesseract.js-data/ita/package.json')), '4.0.0_best_int');

/** Pixels per PDF point when a scanned page is rendered for OCR (180 dpi). */
const RENDER_SCALE = 2.5;
/** An attestation has a few pages: a longer upload is read up to here (each scanned page costs ~1 s of OCR). */
const MAX_PAGES = 8;
/** Images narrower than this (a thumbnail, a chat-app copy) are scaled up before OCR. */
const MIN_OCR_WIDTH = 1200;

const kindOf = (bytes: Uint8Array) =>
  bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46
    ? 'pdf'
    : (bytes[0] === 0x89 && bytes[1] === 0x50) || (bytes[0] === 0xff && bytes[1] === 0xd8)
      ? 'image'
      : 'unknown';

/** `workers` OCR workers (one per core for a batch), started on the first image and reused. */
export function createLocalTextSource(options: { workers?: number } = {}): LocalTextSource {
  const size = options.workers ?? 1;
  let pool: Promise<Worker[]> | undefined;
  const idle: Worker[] = [];
  const waiting: ((worker: Worker) => void)[] = [];

  const borrow = async (): Promise<Worker> => {
    pool ??= Promise.all(
      Array.from({ length: size }, () => createWorker('ita', 1, { langPath: italianData, gzip: true, cacheMethod: 'none' })),
    ).then((workers) => {
      idle.push(...workers);
      return workers;
    });
    await pool;
    const worker = idle.pop();
    return worker ?? new Promise<Worker>((resolve) => waiting.push(resolve));
  };
  const giveBack = (worker: Worker) => {
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  };

  const ocr = async (image: Buffer | Canvas): Promise<{ lines: string[]; confidences: number[] }> => {
    const worker = await borrow();
    try {
      const { data } = await worker.recognize(await prepareForOcr(image), {}, { blocks: true, text: false });
      const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
      return { lines: lines.map((l) => l.text.trim()), confidences: lines.flatMap((l) => l.words.map((w) => w.confidence)) };
    } finally {
      giveBack(worker);
    }
  };
  const fromOcr = (pages: { lines: string[]; confidences: number[] }[]): DocumentText => {
    const confidences = pages.flatMap((p) => p.confidences);
    const mean = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length / 100 : 0;
    return { lines: pages.flatMap((p) => p.lines), source: 'ocr', quality: mean };
  };

  return {
    async read(bytes) {
      const kind = kindOf(bytes);
      if (kind === 'image') return fromOcr([await ocr(Buffer.from(bytes))]);
      if (kind !== 'pdf') throw new Error('Formato del documento non riconosciuto');

      const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
      try {
        const pages: { lines: string[]; scanned?: Canvas }[] = [];
        for (let n = 1; n <= Math.min(pdf.numPages, MAX_PAGES); n++) {
          const page = await pdf.getPage(n);
          const lines = textLines((await page.getTextContent()).items as TextItem[]);
          if (lines.length === 0 && (await hasImages(page))) pages.push({ lines, scanned: await render(page) });
          else pages.push({ lines });
        }
        if (!pages.some((p) => p.scanned)) return { lines: pages.flatMap((p) => p.lines), source: 'pdf-text', quality: 1 };
        // A scan, or a mix: OCR the scanned pages, keep the text of the others.
        return fromOcr(await Promise.all(pages.map((p) => (p.scanned ? ocr(p.scanned) : { lines: p.lines, confidences: [] }))));
      } finally {
        await pdf.destroy();
      }
    },
    async close() {
      if (pool) await Promise.all((await pool).map((w) => w.terminate()));
      pool = undefined;
      idle.length = 0;
    },
  };
}

interface TextItem {
  str: string;
  transform: number[];
  width: number;
}

/** The text layer as lines: items within 2 pt of each other vertically, left to right. */
export function textLines(items: TextItem[]): string[] {
  const rows: { y: number; items: TextItem[] }[] = [];
  for (const item of items) {
    if (!item.str?.trim()) continue;
    const y = item.transform[5];
    const row = rows.find((r) => Math.abs(r.y - y) <= 2);
    if (row) row.items.push(item);
    else rows.push({ y, items: [item] });
  }
  return rows
    .sort((a, b) => b.y - a.y)
    .map((row) =>
      row.items
        .sort((a, b) => a.transform[4] - b.transform[4])
        .map((i) => i.str.trim())
        .join(' '),
    );
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocument>['promise']>['getPage']>>;

async function hasImages(page: PdfPage): Promise<boolean> {
  const { fnArray } = await page.getOperatorList();
  return fnArray.some((op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject || op === OPS.paintImageXObjectRepeat);
}

async function render(page: PdfPage): Promise<Canvas> {
  const viewport = page.getViewport({ scale: RENDER_SCALE });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
  return canvas;
}

/**
 * Greyscale (and a larger size for a small picture). On the benchmark's photos this is as accurate as
 * the colour image and faster; scaling up to 2000 px and tesseract's rotateAuto cost time and changed
 * nothing (tesseract copes with ±3° by itself). Handed over as PGM: encoding a noisy photo as PNG
 * took longer than reading it.
 */
async function prepareForOcr(image: Buffer | Canvas): Promise<Buffer> {
  const picture = Buffer.isBuffer(image) ? await loadImage(image) : image;
  const scale = picture.width < MIN_OCR_WIDTH ? MIN_OCR_WIDTH / picture.width : 1;
  const canvas = createCanvas(Math.round(picture.width * scale), Math.round(picture.height * scale));
  canvas.getContext('2d').drawImage(picture, 0, 0, canvas.width, canvas.height);
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const header = Buffer.from(`P5\n${canvas.width} ${canvas.height}\n255\n`, 'ascii');
  const grey = Buffer.alloc(canvas.width * canvas.height);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++) grey[p] = (data[i] * 299 + data[i + 1] * 587 + data[i + 2] * 114) / 1000;
  return Buffer.concat([header, grey]);
}
