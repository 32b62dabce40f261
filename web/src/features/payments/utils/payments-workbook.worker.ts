/**
 * 'Scarica Excel' off the page's thread: exceljs builds and zips the workbook here, so the page keeps
 * painting (a 10,000-row workbook takes seconds of CPU). exceljs is imported statically: this worker is
 * its own chunk, loaded only when the button is pressed.
 */
import type { DebtSummaryRow } from '@domain/debt-summaries';
import Excel from 'exceljs';
import { writePaymentsWorkbook, type WorkbookInfo } from './payments-workbook';

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<{ rows: DebtSummaryRow[]; info: WorkbookInfo }>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  writePaymentsWorkbook(Excel, event.data.rows, event.data.info).then(
    (buffer) => scope.postMessage({ ok: true, buffer }, [buffer]),
    (error: unknown) =>
      scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
};
