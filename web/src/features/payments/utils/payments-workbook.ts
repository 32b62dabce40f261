import type { DebtSummaryRow } from '@domain/debt-summaries';
import { toEuros } from '@domain/money';
import { romeDay } from '@domain/period';
import { neutraliseCell } from '@domain/spreadsheet-cells';
import type ExcelJS from 'exceljs';

/** Excel's number format for euro amounts, Italian style (1.234,56 €). */
export const EURO_FORMAT = '#,##0.00 [$€-410]';
export const DATE_FORMAT = 'dd/mm/yyyy';
export const SHEET_NAME = 'Pagamenti';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface WorkbookInfo {
  callName: string;
  anno: number;
  extractedAt: Date;
}

/**
 * The 'Scarica Excel' workbook: one sheet 'Pagamenti', a row per citizen, amounts as numbers in euro
 * (formatted as such), the extraction date as a date. Written by a Web Worker
 * (payments-workbook.worker.ts), so the page never freezes while exceljs works; exceljs is in that
 * worker's chunk (or loaded on the press when no worker can start): it never weighs on the first load.
 */
export async function writePaymentsWorkbook(
  Excel: typeof ExcelJS,
  rows: readonly DebtSummaryRow[],
  info: WorkbookInfo,
): Promise<ArrayBuffer> {
  const workbook = new Excel.Workbook();
  workbook.creator = 'Portale dei servizi sociali';
  workbook.created = info.extractedAt;
  const sheet = workbook.addWorksheet(SHEET_NAME);
  sheet.columns = [
    { header: 'Cognome', key: 'cognome', width: 22 },
    { header: 'Nome', key: 'nome', width: 18 },
    { header: 'Codice fiscale', key: 'codiceFiscale', width: 20 },
    { header: 'Telefono', key: 'telefono', width: 16 },
    { header: 'Email', key: 'email', width: 28 },
    { header: 'Importo totale', key: 'importo', width: 16, style: { numFmt: EURO_FORMAT } },
    { header: 'Pagamenti da saldare', key: 'pendenti', width: 12 },
    { header: 'Id pagamenti', key: 'paymentIds', width: 40 },
    { header: 'Bando', key: 'bando', width: 28 },
    { header: 'Anno', key: 'anno', width: 8 },
    { header: 'Data estrazione', key: 'estrazione', width: 14, style: { numFmt: DATE_FORMAT } },
  ];
  sheet.getRow(1).font = { bold: true };
  // A date at midnight UTC of the extraction day in Rome: Excel shows it as that day whatever the zone.
  const day = romeDay(info.extractedAt);
  const extraction = new Date(`${day}T00:00:00.000Z`);
  // Text cells a spreadsheet would run as a formula are written as text (a leading apostrophe); numbers stay numbers.
  const text = (value: string | null | undefined) => neutraliseCell(value ?? '');
  for (const row of rows) {
    sheet.addRow({
      cognome: text(row.cognome),
      nome: text(row.nome),
      codiceFiscale: text(row.codiceFiscale),
      telefono: text(row.telefono),
      email: text(row.email),
      importo: toEuros(row.importoTotale),
      pendenti: row.paymentIds.length,
      paymentIds: text(row.paymentIds.join(';')),
      bando: text(info.callName),
      anno: info.anno,
      estrazione: extraction,
    });
  }
  // exceljs answers a Buffer (a view, maybe on a larger pool): the file's own bytes, transferable.
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  return bytes.buffer.byteLength === bytes.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
}

type WorkerAnswer = { ok: true; buffer: ArrayBuffer } | { ok: false; message: string };

/**
 * The workbook as a Blob, written off the page's thread: rows go to the worker, the file's bytes come
 * back (transferred, not copied). Without Worker support it is written here, on the page.
 */
export async function paymentsWorkbook(rows: readonly DebtSummaryRow[], info: WorkbookInfo): Promise<Blob> {
  if (typeof Worker === 'undefined') {
    const { default: Excel } = await import('exceljs');
    return new Blob([await writePaymentsWorkbook(Excel, rows, info)], { type: XLSX_TYPE });
  }
  const worker = new Worker(new URL('./payments-workbook.worker.ts', import.meta.url), {
    type: 'module',
    name: 'excel-pagamenti',
  });
  try {
    const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<WorkerAnswer>) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message || 'Excel non generato.'));
      worker.postMessage({ rows, info });
    });
    if (!answer.ok) throw new Error(answer.message);
    return new Blob([answer.buffer], { type: XLSX_TYPE });
  } finally {
    worker.terminate();
  }
}
