import type { DebtSummaryRow } from '@domain/debt-summaries';

/** Excel's number format for euro amounts, Italian style (1.234,56 €). */
export const EURO_FORMAT = '#,##0.00 [$€-410]';
export const DATE_FORMAT = 'dd/mm/yyyy';
export const SHEET_NAME = 'Pagamenti';

/**
 * The 'Scarica Excel' workbook: one sheet 'Pagamenti', a row per citizen, amounts as numbers in euro
 * (formatted as such), the extraction date as a date. exceljs is loaded here, when the button is
 * pressed: it never weighs on the first load. Yields to the browser between blocks of rows so the page
 * stays responsive while a large list is written.
 */
export async function paymentsWorkbook(rows: readonly DebtSummaryRow[], info: { callName: string; anno: number; extractedAt: Date }): Promise<Blob> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
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
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(info.extractedAt);
  const extraction = new Date(`${day}T00:00:00.000Z`);
  for (let i = 0; i < rows.length; i += 1000) {
    for (const row of rows.slice(i, i + 1000)) {
      sheet.addRow({
        cognome: row.cognome,
        nome: row.nome,
        codiceFiscale: row.codiceFiscale,
        telefono: row.telefono ?? '',
        email: row.email ?? '',
        importo: row.importoTotale / 100,
        pendenti: row.paymentIds.length,
        paymentIds: row.paymentIds.join(';'),
        bando: info.callName,
        anno: info.anno,
        estrazione: extraction,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
