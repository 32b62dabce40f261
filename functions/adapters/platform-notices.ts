import type { PositionRecord } from '../domain/debt-positions.ts';
import type { PaymentPlatformName, PlatformNotices } from '../domain/payment-platform.ts';
import { gpdNotices, noticeCreditorFromEnv } from './gpd/notices.ts';
import { myPayNotices } from './mypay/notices.ts';
import type { NoticePdfFiles } from './notice-pdf.ts';
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
  return name === 'gpd' ? gpdNotices(positions, creditor) : myPayNotices(files, positions);
}
