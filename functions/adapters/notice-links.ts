import type { Position } from '../domain/payments.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { NoticeDataError } from '../domain/payment-notice.ts';
import type { PlatformNotices } from '../domain/payment-platform.ts';
import { EXPORT_LINK_TTL_SECONDS, getExportRange } from './export-files.ts';
import { myPayNotices } from './mypay/notices.ts';
import type { NoticePdfFiles } from './notice-pdf.ts';
import { isMissingObject, requireEnv, s3Client, signedGetUrl } from './s3-client.ts';

/**
 * The notice PDF link of a position: a link of a few minutes to the PDF's copy in the exports bucket, at the key the
 * deployment's notices give it (PlatformNotices.storedKey). The first time a link is asked for, the PDF is made
 * (MyPay: taken out of the flow's AVVISI ZIP, adapters/notice-pdf.ts; GPD: pagoPA's notice printed by the portal) and
 * left at that key, so the link can point at it. `notices` defaults to MyPay's (see below): the notice-downloads
 * function passes the deployment's (adapters/platform-notices.ts).
 */
export function makeNoticeLinks(
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
  bucket = requireEnv('EXPORTS_BUCKET'),
  notices?: (files: NoticePdfFiles) => PlatformNotices,
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
  // 150 KB budget (154.6 KB measured); on GPD the citizen's 'Avviso PDF' asks the notice-downloads function.
  const files: NoticePdfFiles = { get, getRange };
  const source = notices ? notices(files) : myPayNotices(files, positions);
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
  /** The link, the PDF made and stored first when it is not there yet; null when the position has no notice (yet). */
  async function link(position: Position): Promise<string | null> {
    if (!position.nav) return null;
    const key = source.storedKey(position);
    if (!key) return null;
    if (!(await exists(key))) {
      const made = await source.notice(position);
      if (!made) return null;
      const { s3, sdk } = await s3Client();
      await s3.send(
        new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: made.pdf, ContentType: 'application/pdf' }),
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
  }

  return {
    /** A list's link: null (no link shown) also when (GPD) the position's data cannot make a notice. */
    async noticeUrl(position: Position): Promise<string | null> {
      try {
        return await link(position);
      } catch (error) {
        if (error instanceof NoticeDataError) return null;
        throw error;
      }
    },
    /** A download asked for: the reason (NoticeDataError, 422 in Italian) when the data cannot make a notice. */
    downloadUrl: link,
  };
}
