import { encodeQR } from 'qr';
import { NOTICE_TEXTS as T, type PagoPaNotice } from '../domain/payment-notice.ts';
import { A4, mm, simplePdf, textWidth, wrapText, type FontName, type Rgb, type SimplePdf } from './pdf/simple-pdf.ts';

/**
 * The pagoPA notice of a GPD position as a one-page A4 PDF, in the order of pagoPA's guidelines (Avvisi 3.0, Allegato
 * 2): header with the subject, creditor and recipient, how much and by when, where to pay, and the payment data of
 * the single instalment with its QR code. The QR code follows "Codice QR": version 4 (33 × 33 modules), error
 * correction M, 25 × 25 mm, vector and black on white, with a quiet zone of 4 modules; the notice code is printed in
 * groups of four. No Poste section: the portal's GPD positions pay to an IBAN, not to a postal account.
 */

const BLUE: Rgb = [0, 102, 204];
const INK: Rgb = [23, 50, 77];
const GREY: Rgb = [92, 111, 130];
const RULE: Rgb = [208, 215, 222];
const PANEL: Rgb = [240, 245, 250];
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

const MARGIN = mm(15);
const WIDTH = A4.width - 2 * MARGIN;
const COLUMN = (WIDTH - mm(10)) / 2;
/** pagoPA: QR code 25 × 25 mm. */
const QR_SIZE = mm(25);
/** ISO/IEC 18004: a light margin of 4 modules around the symbol. */
const QUIET_MODULES = 4;

/**
 * The QR code's modules (true: dark), version 4, ECC M, as pagoPA's guidelines ask: 33 × 33 (the library's smallest
 * border, one module, is sliced off; the drawing adds the 4-module quiet zone).
 */
export const noticeQrModules = (text: string): boolean[][] =>
  encodeQR(text, 'raw', { ecc: 'medium', version: 4, border: 1 })
    .slice(1, -1)
    .map((row) => row.slice(1, -1));

/** Draws lines of text downwards from `top`; returns where the next line would go. */
function paragraph(
  pdf: SimplePdf,
  x: number,
  top: number,
  text: string,
  width: number,
  style: { font?: FontName; size: number; color?: Rgb; leading?: number },
): number {
  const { font = 'regular', size, color = INK, leading = size * 1.3 } = style;
  let y = top;
  for (const line of wrapText(text, font, size, width)) {
    pdf.text(x, y, line, { font, size, color });
    y -= leading;
  }
  return y;
}

/** The QR code as filled squares, each horizontal run of dark modules one rectangle, on a white quiet zone. */
function drawQr(pdf: SimplePdf, modules: boolean[][], x: number, top: number): void {
  const n = modules.length;
  const module = QR_SIZE / n;
  const quiet = QUIET_MODULES * module;
  pdf.rect(x - quiet, top - QR_SIZE - quiet, QR_SIZE + 2 * quiet, QR_SIZE + 2 * quiet, WHITE);
  modules.forEach((row, r) => {
    let c = 0;
    while (c < n) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && row[c]) c++;
      // A hair wider and taller than the module, so neighbouring squares never leave a hairline between them.
      pdf.rect(x + start * module, top - (r + 1) * module, (c - start) * module + 0.05, module + 0.05, BLACK);
    }
  });
}

/** The notice PDF: text with standard fonts (extractable, searchable) and the QR code as vector squares. */
export function paymentNoticePdf(notice: PagoPaNotice): Uint8Array {
  const pdf = simplePdf();
  const top = A4.height - MARGIN;

  // 1. Intestazione: title, subject (AVVISO.OGGETTO) and the causale; pagoPA's name on the right.
  pdf.text(MARGIN, top - 12, T.title, { font: 'bold', size: 11, color: BLUE });
  pdf.text(A4.width - MARGIN - textWidth('pagoPA', 'bold', 18), top - 14, 'pagoPA', {
    font: 'bold',
    size: 18,
    color: BLUE,
  });
  let y = paragraph(pdf, MARGIN, top - 36, notice.subject, WIDTH - 80, { font: 'bold', size: 18, leading: 22 });
  y = paragraph(pdf, MARGIN, y + 4, notice.description, WIDTH - 80, { size: 9, color: GREY }) - 6;
  pdf.line(MARGIN, y, A4.width - MARGIN, y, { color: RULE });

  // 2. Ente Creditore and Destinatario, side by side.
  const right = MARGIN + COLUMN + mm(10);
  const party = (x: number, label: string, fiscalCode: string, name: string) => {
    pdf.text(x, y - 18, label, { font: 'bold', size: 9, color: GREY });
    const below = paragraph(pdf, x, y - 34, name, COLUMN, { font: 'bold', size: 12 });
    pdf.text(x, below - 2, `Cod. Fiscale ${fiscalCode}`, { size: 9 });
    return below - 14;
  };
  y =
    Math.min(
      party(MARGIN, T.creditor, notice.creditor.fiscalCode, notice.creditor.name),
      party(right, T.recipient, notice.debtor.fiscalCode, notice.debtor.fullName),
    ) - 4;
  pdf.line(MARGIN, y, A4.width - MARGIN, y, { color: RULE });

  // 3.1 Quanto e quando pagare? 3.2 Dove pagare?
  const amountLine = `${notice.amount} ${T.euro}`;
  pdf.text(MARGIN, y - 18, T.howMuch, { font: 'bold', size: 9, color: GREY });
  pdf.text(MARGIN, y - 44, amountLine, { font: 'bold', size: 22 });
  pdf.text(MARGIN, y - 62, `${T.dueBy} ${notice.dueDate}`, { font: 'bold', size: 12 });
  const leftEnd = paragraph(pdf, MARGIN, y - 80, T.legal, COLUMN, { size: 7.5, color: GREY });
  pdf.text(right, y - 18, T.where, { font: 'bold', size: 9, color: GREY });
  pdf.text(right + 90, y - 18, T.cta, { font: 'bold', size: 9, color: BLUE });
  pdf.text(right, y - 38, T.online, { font: 'bold', size: 10 });
  let rightEnd = paragraph(pdf, right, y - 51, T.onlineText, COLUMN, { size: 8.5 });
  pdf.text(right, rightEnd - 8, T.local, { font: 'bold', size: 10 });
  rightEnd = paragraph(pdf, right, rightEnd - 21, T.localText, COLUMN, { size: 8.5 });
  y = Math.min(leftEnd, rightEnd) - 10;

  // 4. Dati per il pagamento: the single instalment with its QR code.
  pdf.text(MARGIN, y - 14, T.paymentData, { font: 'bold', size: 11, color: BLUE });
  const panelTop = y - 24;
  const rows: [string, string][] = [
    [T.recipientLabel, notice.debtor.fullName],
    [T.creditorLabel, notice.creditor.name],
    [T.subjectLabel, notice.subject],
    ...(notice.creditor.cbill ? ([[T.cbillLabel, notice.creditor.cbill]] as [string, string][]) : []),
    [T.noticeLabel, notice.printedNoticeNumber],
    [T.creditorCodeLabel, notice.creditor.fiscalCode],
  ];
  const dataX = MARGIN + QR_SIZE + mm(14);
  const dataWidth = A4.width - MARGIN - dataX - mm(4);
  const labelWidth = 104;
  // The panel's height: the header line, the rows (some may wrap), and room for the QR code with its hint.
  const rowLines = rows.map(([, value]) => wrapText(value, 'bold', 9, dataWidth - labelWidth).length);
  const rowsHeight = rowLines.reduce((sum, lines) => sum + lines * 11 + 5, 0);
  const hintLines = wrapText(T.qrHint, 'regular', 6.5, QR_SIZE + mm(10)).length;
  const panelHeight = Math.max(rowsHeight + 44, QR_SIZE + 2 * QUIET_MODULES * (QR_SIZE / 33) + 40 + hintLines * 8.5);
  pdf.rect(MARGIN, panelTop - panelHeight, WIDTH, panelHeight, PANEL);
  pdf.text(MARGIN + mm(4), panelTop - 18, T.single, { font: 'bold', size: 11 });
  pdf.text(dataX, panelTop - 18, `${T.dueBy} ${notice.dueDate}`, { size: 10 });
  pdf.text(A4.width - MARGIN - mm(4) - textWidth(amountLine, 'bold', 12), panelTop - 18, amountLine, {
    font: 'bold',
    size: 12,
  });

  const qrX = MARGIN + mm(4) + QUIET_MODULES * (QR_SIZE / 33);
  const qrTop = panelTop - 30 - QUIET_MODULES * (QR_SIZE / 33);
  drawQr(pdf, noticeQrModules(notice.qrText), qrX, qrTop);
  paragraph(pdf, MARGIN + mm(4), qrTop - QR_SIZE - QUIET_MODULES * (QR_SIZE / 33) - 10, T.qrHint, QR_SIZE + mm(10), {
    size: 6.5,
    color: GREY,
  });

  let rowY = panelTop - 38;
  rows.forEach(([label, value]) => {
    pdf.text(dataX, rowY, label, { size: 8.5, color: GREY });
    rowY = paragraph(pdf, dataX + labelWidth, rowY, value, dataWidth - labelWidth, {
      font: 'bold',
      size: 9,
      leading: 11,
    });
    rowY -= 5;
  });

  return pdf.bytes({ title: `${T.title} pagoPA ${notice.printedNoticeNumber}`, subject: notice.subject });
}
