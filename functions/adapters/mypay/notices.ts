import type { PositionRecord } from '../../domain/debt-positions.ts';
import type { PlatformNotices } from '../../domain/payment-platform.ts';
import { noticePdfKey } from '../../domain/position-rules.ts';
import { makeNoticePdfs, type NoticePdfFiles } from '../notice-pdf.ts';

/**
 * MyPay's notices: the PDF out of its AVVISI ZIP in the exports bucket (adapters/notice-pdf.ts), or the copy an earlier
 * export stored. In a file of its own, so a function that links MyPay's notices only bundles no GPD printer.
 */
export function myPayNotices(
  files: NoticePdfFiles,
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
): PlatformNotices {
  const zips = makeNoticePdfs(files);
  return {
    // The flow's ZIP first (the flow e-mail), then the position's own (a position listed by page does not carry it:
    // read then), then the PDF an earlier export stored on its own.
    async notice(position, zipKey) {
      const own = 'noticeZip' in position ? position.noticeZip : undefined;
      let pdf = await zips.noticePdf(position, [zipKey, own]);
      if (!pdf && own === undefined) {
        const record = await positions.getPositionByIud(position.iud);
        pdf = record?.noticeZip ? await zips.noticePdf(record) : null;
      }
      // MyPay prints the due date the export sent it (dataEsecuzionePagamento: the position's dataScadenza).
      return pdf && { pdf, dueDay: position.dataScadenza };
    },
    storedKey: (position) => (position.nav ? noticePdfKey(position.iud) : null),
    dueDay: (position) => position.dataScadenza,
  };
}
