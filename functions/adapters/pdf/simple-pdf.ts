import { deflateSync } from 'node:zlib';

/**
 * A one-page PDF (ISO 32000-1) of text, filled rectangles and lines, in the standard Helvetica and Helvetica-Bold
 * with WinAnsiEncoding (no font embedded: every PDF reader has them). Written here rather than with pdf-lib or jsPDF
 * because those take 300–600 KB of a Lambda bundle whose budget is 150 KB (test/infra/bundles.test.ts); this is all
 * the pagoPA notice needs (adapters/payment-notice-pdf.ts).
 */

export type FontName = 'regular' | 'bold';
export type Rgb = readonly [number, number, number];
const BLACK: Rgb = [0, 0, 0];

/**
 * Glyph widths (1/1000 em) of WinAnsi codes 32–255, from Adobe's Helvetica and Helvetica-Bold metrics (AFM) as
 * @pdf-lib/standard-fonts ships them (test/unit/simple-pdf.test.ts compares them); 0 where WinAnsi has no glyph.
 */
// prettier-ignore
const WIDTHS: Record<FontName, readonly number[]> = {
  regular: [278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584,0,556,0,222,556,333,1000,556,556,333,1000,667,333,1000,0,611,0,0,222,222,333,333,350,556,1000,333,1000,500,333,944,0,500,500,278,333,556,556,556,556,260,556,333,737,370,556,584,333,737,333,400,584,333,333,333,556,537,278,333,333,365,556,834,834,834,611,667,667,667,667,667,667,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,500,556,556,556,556,278,278,278,278,556,556,556,556,556,556,556,584,611,556,556,556,556,500,556,500],
  bold: [278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584,0,556,0,278,556,500,1000,556,556,333,1000,667,333,1000,0,611,0,0,278,278,500,500,350,556,1000,333,1000,556,333,944,0,500,556,278,333,556,556,556,556,280,556,333,737,370,556,584,333,737,333,400,584,333,333,333,611,556,278,333,333,365,556,834,834,834,611,722,722,722,722,722,722,1000,722,667,667,667,667,278,278,278,278,722,722,778,778,778,778,778,584,778,722,722,722,722,667,667,611,556,556,556,556,556,556,889,556,556,556,556,556,278,278,278,278,611,611,611,611,611,611,611,584,611,611,611,611,611,556,611,556],
};

/** WinAnsi's codes 128–159 that are not Latin-1 (PDF 32000-1, Annex D.2). */
const WIN_ANSI_HIGH: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x2c6: 0x88,
  0x2030: 0x89,
  0x160: 0x8a,
  0x2039: 0x8b,
  0x152: 0x8c,
  0x17d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x2dc: 0x98,
  0x2122: 0x99,
  0x161: 0x9a,
  0x203a: 0x9b,
  0x153: 0x9c,
  0x17e: 0x9e,
  0x178: 0x9f,
};

const winAnsiCode = (char: string): number | null => {
  const cp = char.codePointAt(0)!;
  if ((cp >= 32 && cp < 127) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_HIGH[cp] ?? null;
};

/**
 * A text as WinAnsi codes. A letter the standard fonts lack is written without its accent (č → c), anything else as
 * "?": names of Italian residents are nearly always Latin-1, and this keeps the notice readable otherwise.
 */
export function winAnsi(text: string): number[] {
  const codes: number[] = [];
  for (const char of text.normalize('NFC').replace(/\s/g, ' ')) {
    const code = winAnsiCode(char) ?? winAnsiCode(char.normalize('NFD').replace(/\p{M}/gu, '') || '?') ?? 63;
    codes.push(code);
  }
  return codes;
}

/** Width of a text in points. */
export const textWidth = (text: string, font: FontName, size: number): number =>
  (winAnsi(text).reduce((sum, code) => sum + (WIDTHS[font][code - 32] ?? 0), 0) * size) / 1000;

/** A text cut into lines no wider than `width` (at spaces; a word longer than a line is cut). */
export function wrapText(text: string, font: FontName, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, font, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (textWidth(line, font, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && textWidth(line.slice(0, cut), font, size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines;
}

const number = (n: number) => String(Math.round(n * 1000) / 1000);
const color = ([r, g, b]: Rgb) => `${number(r / 255)} ${number(g / 255)} ${number(b / 255)}`;
/** A PDF literal string of WinAnsi codes: parentheses and backslash escaped, bytes above 126 in octal. */
const literal = (text: string) =>
  `(${winAnsi(text)
    .map((code) =>
      code === 0x28 || code === 0x29 || code === 0x5c
        ? `\\${String.fromCharCode(code)}`
        : code > 126
          ? `\\${code.toString(8).padStart(3, '0')}`
          : String.fromCharCode(code),
    )
    .join('')})`;
/** A PDF text string (document information): UTF-16BE with its byte-order mark, as hex. */
const textString = (text: string) =>
  `<FEFF${[...text].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('')}>`;

/** A4 portrait, in points (1/72 inch); y grows upwards from the bottom edge. */
export const A4 = { width: 595.28, height: 841.89 } as const;
export const mm = (millimetres: number) => (millimetres * 72) / 25.4;

export interface SimplePdf {
  /** Text whose baseline starts at (x, y). */
  text(x: number, y: number, text: string, options?: { font?: FontName; size?: number; color?: Rgb }): void;
  rect(x: number, y: number, width: number, height: number, fill: Rgb): void;
  line(x1: number, y1: number, x2: number, y2: number, options?: { color?: Rgb; width?: number }): void;
  /** The finished file. */
  bytes(info: { title: string; subject?: string }): Uint8Array;
}

export function simplePdf(): SimplePdf {
  const ops: string[] = [];
  return {
    text(x, y, text, { font = 'regular', size = 10, color: fill = BLACK } = {}) {
      ops.push(
        `BT ${color(fill)} rg /${font === 'bold' ? 'F2' : 'F1'} ${number(size)} Tf ${number(x)} ${number(y)} Td ${literal(text)} Tj ET`,
      );
    },
    rect(x, y, width, height, fill) {
      ops.push(`${color(fill)} rg ${number(x)} ${number(y)} ${number(width)} ${number(height)} re f`);
    },
    line(x1, y1, x2, y2, { color: stroke = BLACK, width = 0.5 } = {}) {
      ops.push(`${color(stroke)} RG ${number(width)} w ${number(x1)} ${number(y1)} m ${number(x2)} ${number(y2)} l S`);
    },
    bytes({ title, subject }) {
      const content = deflateSync(Buffer.from(ops.join('\n'), 'latin1'));
      const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
      const objects: (string | Buffer)[] = [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
        font('Helvetica'),
        font('Helvetica-Bold'),
        Buffer.concat([
          Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
          content,
          Buffer.from('\nendstream', 'latin1'),
        ]),
        `<< /Title ${textString(title)}${subject ? ` /Subject ${textString(subject)}` : ''} /Producer (Portale servizi sociali) >>`,
      ];
      // The header's second line marks the file as binary (PDF 32000-1, 7.5.2).
      const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
      let offset = parts[0]!.length;
      const offsets: number[] = [];
      objects.forEach((body, i) => {
        const object = Buffer.concat([
          Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
          typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
          Buffer.from('\nendobj\n', 'latin1'),
        ]);
        offsets.push(offset);
        parts.push(object);
        offset += object.length;
      });
      const xref = [
        'xref',
        `0 ${objects.length + 1}`,
        '0000000000 65535 f ',
        ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
        'trailer',
        `<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>`,
        'startxref',
        String(offset),
        '%%EOF',
      ].join('\n');
      parts.push(Buffer.from(`${xref}\n`, 'latin1'));
      return new Uint8Array(Buffer.concat(parts));
    },
  };
}
