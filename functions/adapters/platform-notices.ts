import type { PositionRecord } from '../domain/debt-positions.ts';
import type { PaymentPlatformName, PlatformNotices } from '../domain/payment-platform.ts';
import { noticePdfKey } from '../domain/position-rules.ts';
import { gpdNotices, noticeCreditorFromEnv } from './gpd/notices.ts';
import { makeNoticePdfs, type NoticePdfFiles } from './notice-pdf.ts';
import { paymentPlatformName } from './payment-platform-name.ts';

/**
 * The deployment's notices (domain/payment-platform.ts PlatformNotices), for the functions that link or mail them:
 * MyPay's PDF out of its AVVISI ZIP in the exports bucket (or the copy an earlier export stored), GPD's printed by the
 * portal. The creditor's settings are read when the first GPD notice is made.
 */
export function platformNotices(
  files: NoticePdfFiles,
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
  name: PaymentPlatformName = paymentPlatformName(),
  creditor = () => noticeCreditorFromEnv(),
): PlatformNotices {
  if (name === 'gpd') return gpdNotices(positions, creditor);
  const zips = makeNoticePdfs(files);
  return {
    // The flow's ZIP first (the flow e-mail), then the position's own (a position listed by page does not carry it:
    // read then), then the PDF an earlier export stored on its own.
    async noticePdf(position, zipKey) {
      const own = 'noticeZip' in position ? position.noticeZip : undefined;
      const found = await zips.noticePdf(position, [zipKey, own]);
      if (found || own !== undefined) return found;
      const record = await positions.getPositionByIud(position.iud);
      return record?.noticeZip ? zips.noticePdf(record) : null;
    },
    storedKey: (position) => (position.nav ? noticePdfKey(position.iud) : null),
  };
}
