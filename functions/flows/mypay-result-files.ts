import { unzipSync, strFromU8 } from 'fflate';
import { dsvFormat } from 'd3-dsv';
import type { FlowFileKind } from '../domain/flows.ts';
import { iuvOfNoticeFile } from '../domain/notices.ts';

/** MyPay's result files of an export: their names, the rows of the IUV and SCARTI files, the notices' IUVs. */

/**
 * The data rows of the CSV files in a MyPay result ZIP, as fields by position (the header line skipped):
 * MyPay4 writes the IUV file with the original header and each row's fields joined by `;`, unquoted
 * (ImportFlussoTaskService.creaRigaFileScartiOriIuv), and the SCARTI file as the original line followed by
 * `;cod_rifiuto;de_rifiuto` (creaRigaFileScarti). So the IUD is the first field, the IUV the second, and a
 * rejection's code and text the last two.
 */
const semicolonSeparated = dsvFormat(';');

export function rowsOfResultZip(zip: Uint8Array): string[][] {
  const files = Object.entries(unzipSync(zip)).filter(([name]) => name.toLowerCase().endsWith('.csv'));
  const rows: string[][] = [];
  for (const [, bytes] of files) {
    const text = strFromU8(bytes).replace(/^\uFEFF/, '');
    const lines = semicolonSeparated.parseRows(text).map((fields) => fields.map((field) => field.trim()));
    const [, ...data] = lines.filter((fields) => fields.some((field) => field !== ''));
    rows.push(...data);
  }
  return rows;
}

export const resultFileName = (zipName: string, kind: FlowFileKind) =>
  zipName.replace(/\.zip$/, '') + { avvisi: '_AVVISI_PDF.zip', iuv: '_IUV.zip', scarti: '_SCARTI.zip' }[kind];

/** The IUVs of the notices in MyPay's AVVISI ZIP, from its entries' names alone (nothing is inflated). */
export function noticeIuvs(zip: Uint8Array | null): Set<string> {
  const iuvs = new Set<string>();
  if (zip) {
    unzipSync(zip, {
      filter: (file) => {
        const iuv = iuvOfNoticeFile(file.name);
        if (iuv) iuvs.add(iuv);
        return false;
      },
    });
  }
  return iuvs;
}

/** A rejected row of MyPay's SCARTI file: its code(s) and text are the row's last two fields ("|CODE|CODE" and "|text|text"). */
export function rejectionOf(row: string[]): { code: string; reason: string } {
  const parts = (value: string | undefined) =>
    (value ?? '')
      .split('|')
      .map((part) => part.trim())
      .filter(Boolean);
  return { code: parts(row.at(-2)).join(', '), reason: parts(row.at(-1)).join('; ') };
}
