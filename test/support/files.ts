import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A real one-page PDF with some text. */
export async function samplePdf(text = 'Modulo di domanda'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

/** The first bytes of a Windows executable: what a renamed .exe looks like. */
export const renamedExecutable = () =>
  new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, ...new Array(200).fill(0)]);

/** A 1×1 PNG. */
export const tinyPng = () =>
  Uint8Array.from(
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );

/** A scan saved as a PDF: `pages` A4 pages, each only a picture, no text layer. */
export async function scannedPdf(pages = 2): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const picture = await pdf.embedPng(tinyPng());
  for (let i = 0; i < pages; i++) pdf.addPage([595, 842]).drawImage(picture, { x: 0, y: 0, width: 595, height: 842 });
  return pdf.save();
}

/** Uploads bytes with a ticket from POST /api/uploads, as the browser does (multipart form POST). */
export async function uploadWithTicket(
  ticket: { url: string; fields: Record<string, string> },
  bytes: Uint8Array,
  fileName: string,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([Buffer.from(bytes)]), fileName);
  const response = await fetch(ticket.url, { method: 'POST', body: form });
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
}
