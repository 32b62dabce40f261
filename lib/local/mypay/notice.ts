/** The payment notice (avviso di pagamento) MyPay hands out with a generated IUV, as a one-page PDF. */
import type { Position, SimulatedEntity } from './model.ts';
import { euro } from './values.ts';

/** A PDF literal string in WinAnsi (Latin-1 plus €), with ( ) \\ escaped; other characters become '?'. */
function pdfText(value: string): string {
  let out = '';
  for (const char of value.normalize('NFC')) {
    const code = char === '€' ? 0x80 : char.charCodeAt(0);
    const byte =
      char.length === 1 && (code < 0x80 ? code >= 0x20 : code === 0x80 || code >= 0xa0) && code <= 0xff
        ? String.fromCharCode(code)
        : '?';
    out += byte === '(' || byte === ')' || byte === '\\' ? `\\${byte}` : byte;
  }
  return `(${out})`;
}

/**
 * A one-page payment notice (avviso di pagamento): amount, NAV, IUV, payer, causale and due date, in the
 * standard Helvetica fonts (not embedded). Written directly as PDF 1.4 objects: pdf-lib takes ~17 ms a
 * document on this machine, i.e. ~3 minutes for an import of 10,000 positions; this takes well under 1 ms.
 * The integration tests read the notices back with pdf-lib and pdfjs-dist.
 */
export function renderNotice(position: Position, entity: SimulatedEntity): Uint8Array {
  const nav = `3${position.iuv}`;
  const lines: [string, string, number][] = [
    ['Ente creditore', entity.name, 12],
    ['Destinatario', `${position.anagrafica} (${position.fiscalCode})`, 12],
    [
      'Oggetto del pagamento',
      position.causale.length > 80 ? `${position.causale.slice(0, 77)}...` : position.causale,
      11,
    ],
    ['Importo', euro.format(position.amountCents / 100), 16],
    ['Entro il', position.dueDate.split('-').reverse().join('/'), 12],
    ['Codice avviso', nav.replace(/(\d{4})(\d{4})(\d{4})(\d{4})(\d{2})/, '$1 $2 $3 $4 $5'), 14],
    ['IUV', position.iuv, 12],
    ['Codice fiscale / IPA ente', entity.codIpa, 12],
  ];
  let y = 740;
  const content = [
    `BT /F2 18 Tf 50 790 Td ${pdfText('AVVISO DI PAGAMENTO pagoPA')} Tj ET`,
    ...lines.map(([label, value, size]) => {
      const row = `BT 0.35 g /F1 10 Tf 50 ${y} Td ${pdfText(label)} Tj ET BT 0 g /F2 ${size} Tf 200 ${y} Td ${pdfText(value)} Tj ET`;
      y -= 30;
      return row;
    }),
    `BT 0.35 g /F1 9 Tf 50 ${y - 10} Td ${pdfText('Documento generato dal simulatore MyPay: non valido per il pagamento.')} Tj ET`,
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfText(`Avviso di pagamento ${position.iuv}`)} /Producer (Simulatore MyPay) >>`,
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}
