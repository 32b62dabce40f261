import type { Position } from '../domain/payments.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { NoticeDataError } from '../domain/payment-notice.ts';
import type { PlatformNotices } from '../domain/payment-platform.ts';
import { EXPORT_LINK_TTL_SECONDS, getExportRange } from './export-files.ts';
import { myPayNotices } from './mypay/notices.ts';
import { isMissingObject, requireEnv, s3Client, signedGetUrl } from './s3-client.ts';

/**
 * The notice PDF link of a position: a link of a few minutes to the PDF's copy in the exports bucket, at the key the
 * deployment's notices give it (PlatformNotices.storedKey). The first time a link is asked for, the PDF is made
 * (MyPay: taken out of the flow's AVVISI ZIP, adapters/notice-pdf.ts; GPD: pagoPA's notice printed by the portal) and
 * left at that key, so the link can point at it. null (no link shown) when the position has no notice, or (GPD) its
 * data cannot make one: the operator learns why when sending it. `notices` defaults to MyPay's (see below).
 */
export function makeNoticeLinks(
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
  bucket = requireEnv('EXPORTS_BUCKET'),
  notices?: PlatformNotices,
) {
  const get = async (key: string) => {
    const { s3, sdk } = await s3Client();
    try {
      const object = await s3.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      return await object.Body!.transformToByteArray();
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  };
  const getRange = async (key: string, start: number, end: number) => {
    try {
      return await getExportRange(key, start, end, bucket);
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  };
  // Not GPD's printed notice by default: its QR encoder and PDF writer would take the user-positions function over its
  // 150 KB budget (154.6 KB measured); on GPD the link stays '—' and the notice goes by e-mail (functions/notices).
  const source = notices ?? myPayNotices({ get, getRange }, positions);
  const exists = async (key: string) => {
    const { s3, sdk } = await s3Client();
    try {
      await s3.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw error;
    }
  };
  const made = async (position: Position) => {
    try {
      return await source.noticePdf(position);
    } catch (error) {
      if (error instanceof NoticeDataError) return null;
      throw error;
    }
  };

  return {
    async noticeUrl(position: Position): Promise<string | null> {
      if (!position.nav) return null;
      const key = source.storedKey(position);
      if (!key) return null;
      if (!(await exists(key))) {
        const pdf = await made(position);
        if (!pdf) return null;
        const { s3, sdk } = await s3Client();
        await s3.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: pdf, ContentType: 'application/pdf' }),
        );
      }
      const fileName = `avviso-${position.nav}.pdf`;
      return signedGetUrl(
        {
          Bucket: bucket,
          Key: key,
          ResponseContentType: 'application/pdf',
          ResponseContentDisposition: `attachment; filename="${fileName}"`,
        },
        EXPORT_LINK_TTL_SECONDS,
      );
    },
  };
}
