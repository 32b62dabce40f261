/**
 * The columns of MyPay's import CSV (layout 1_3) and the reader of the rows mypayCsv (mypay-csv.ts) writes: apart, so
 * the export's task function reads its own file back without the rules and tables that write it.
 */
/**
 * The MyPay bulk-import CSV (reference.md, "Import CSV", version 1_3): `;` separator, a header line,
 * UTF-8, quotes only where a value needs them, amounts with a dot, dates yyyy-MM-dd. Pure: the export
 * workflow zips what this returns (functions/adapters/mypay-zip.ts).
 */
export const MYPAY_CSV_COLUMNS = [
  'IUD',
  'codIuv',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'indirizzoPagatore',
  'civicoPagatore',
  'capPagatore',
  'localitaPagatore',
  'provinciaPagatore',
  'nazionePagatore',
  'mailPagatore',
  'dataEsecuzionePagamento',
  'importoDovuto',
  'commissioneCaricoPa',
  'tipoDovuto',
  'tipoVersamento',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'bilancio',
  'flagGeneraIuv',
  'azione',
] as const;
export type MyPayCsvColumn = (typeof MYPAY_CSV_COLUMNS)[number];
export type MyPayCsvRow = Record<MyPayCsvColumn, string>;

/**
 * The rows of a CSV mypayCsv wrote (its header skipped): each field bare, or in quotes with `\"` for a quote,
 * as MyPay reads them (ImportFlussoTaskService.java:138-149).
 */
export function mypayCsvRows(text: string): MyPayCsvRow[] {
  return mypayCsvLines(text).lines.map(mypayCsvLine);
}

/** The header line and the data lines of the CSV, as written. */
export function mypayCsvLines(text: string): { header: string; lines: string[] } {
  const [header = '', ...lines] = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim());
  return { header, lines };
}

/** One data line of the CSV as its row. */
export function mypayCsvLine(line: string): MyPayCsvRow {
  const values: string[] = [];
  for (const [, raw = ''] of line.matchAll(/("(?:\\"|[^"])*"|[^;]*)(;|$)/g)) {
    values.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/\\"/g, '"') : raw);
    if (values.length === MYPAY_CSV_COLUMNS.length) break;
  }
  return Object.fromEntries(MYPAY_CSV_COLUMNS.map((column, i) => [column, values[i] ?? ''])) as MyPayCsvRow;
}
