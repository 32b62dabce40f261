import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { createWorker, type InitOptions, type Worker } from 'tesseract.js';
import { fileTypeOf } from '../../functions/domain/file-signature.ts';
import type { DocumentText } from '../../functions/domain/isee-attestation.ts';
import { meanConfidence, pageLines, type PlacedText } from '../../functions/domain/text-layout.ts';
import type { TextLine } from '../../functions/domain/text-line.ts';
import { withPdfPages, type PdfPage } from '../../functions/isee-extraction/pdf-pages.ts';

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
/** Images narrower than this (a thumbnail, a chat-app copy) are scaled up before OCR. */
const MIN_OCR_WIDTH = 1200;

/** `workers` OCR workers (one per core for a batch), started on the first image and reused. */
export function createLocalTextSource(options: { workers?: number } = {}): LocalTextSource {
  const size = options.workers ?? 1;
  let pool: Promise<Worker[]> | undefined;
  const idle: Worker[] = [];
  const waiting: ((worker: Worker) => void)[] = [];

  const borrow = async (): Promise<Worker> => {
    pool ??= Promise.all(
      Array.from({ length: size }, () =>
        // ita.traineddata's config asks for a word list (ita.special-words) the data package does not ship: with no
        // suffix tesseract asks for none, instead of printing "Error: failed to load ./ita.special-words" at every
        // start. (tesseract.js's types name only the dawg switches; it passes on any init-only parameter.)
        createWorker('ita', 1, { langPath: italianData, gzip: true, cacheMethod: 'none' }, {
          user_words_suffix: '',
        } as Partial<InitOptions>),
      ),
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

  /** One picture's lines: tesseract's lines placed by their boxes, put into rows like Textract's (text-layout.ts). */
  const ocr = async (image: Buffer | Canvas): Promise<TextLine[]> => {
    const worker = await borrow();
    try {
      const prepared = await prepareForOcr(image);
      const { data } = await worker.recognize(prepared.pgm, {}, { blocks: true, text: false });
      const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
      const at = (x: number, y: number) => ({ X: x / prepared.width, Y: y / prepared.height });
      return pageLines(
        lines.map(({ text, confidence, bbox, baseline, rowAttributes }) => {
          // Along the line's baseline, not its box: the box of a line slanted across a photo spans the rows
          // above and below it.
          const slope = baseline.x1 > baseline.x0 ? (baseline.y1 - baseline.y0) / (baseline.x1 - baseline.x0) : 0;
          const base = (x: number) => baseline.y0 + (x - baseline.x0) * slope;
          const [up, down] =
            baseline.x1 > baseline.x0
              ? [Math.max(rowAttributes.rowHeight, 1), Math.abs(rowAttributes.descenders)]
              : [0, 0];
          const polygon: PlacedText['polygon'] =
            baseline.x1 > baseline.x0
              ? [
                  at(bbox.x0, base(bbox.x0) - up),
                  at(bbox.x1, base(bbox.x1) - up),
                  at(bbox.x1, base(bbox.x1) + down),
                  at(bbox.x0, base(bbox.x0) + down),
                ]
              : [at(bbox.x0, bbox.y0), at(bbox.x1, bbox.y0), at(bbox.x1, bbox.y1), at(bbox.x0, bbox.y1)];
          return { text: text.trim(), confidence: confidence / 100, polygon } satisfies PlacedText;
        }),
      );
    } finally {
      giveBack(worker);
    }
  };

  return {
    async read(bytes) {
      const type = fileTypeOf(bytes);
      if (type === 'image/jpeg' || type === 'image/png') {
        const lines = await ocr(Buffer.from(bytes));
        return { lines, source: 'ocr', quality: meanConfidence(lines) };
      }
      if (type !== 'application/pdf') throw new Error('Formato del documento non riconosciuto');

      return withPdfPages(bytes, async (pages) => {
        if (!pages.some((p) => 'scanned' in p))
          return { lines: pages.flatMap((p) => ('lines' in p ? p.lines : [])), source: 'pdf-text', quality: 1 };
        // A scan, or a mix: OCR the scanned pages, keep the text of the others.
        const lines = (
          await Promise.all(pages.map(async (p) => ('scanned' in p ? ocr(await render(p.scanned)) : p.lines)))
        ).flat();
        return { lines, source: 'ocr', quality: meanConfidence(lines) };
      });
    },
    async close() {
      if (pool) await Promise.all((await pool).map((w) => w.terminate()));
      pool = undefined;
      idle.length = 0;
    },
  };
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
async function prepareForOcr(image: Buffer | Canvas): Promise<{ pgm: Buffer; width: number; height: number }> {
  const picture = Buffer.isBuffer(image) ? await loadImage(image) : image;
  const scale = picture.width < MIN_OCR_WIDTH ? MIN_OCR_WIDTH / picture.width : 1;
  const canvas = createCanvas(Math.round(picture.width * scale), Math.round(picture.height * scale));
  canvas.getContext('2d').drawImage(picture, 0, 0, canvas.width, canvas.height);
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const header = Buffer.from(`P5\n${canvas.width} ${canvas.height}\n255\n`, 'ascii');
  const grey = Buffer.alloc(canvas.width * canvas.height);
  for (let i = 0, p = 0; p < grey.length; i += 4, p++)
    grey[p] = (data[i] * 299 + data[i + 1] * 587 + data[i + 2] * 114) / 1000;
  return { pgm: Buffer.concat([header, grey]), width: canvas.width, height: canvas.height };
}
