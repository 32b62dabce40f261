import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { noticePdfKey, type Position } from '../domain/payments.ts';
import type { PositionRecord } from '../domain/debt-positions.ts';
import { EXPORT_LINK_TTL_SECONDS, getExportRange } from './export-files.ts';
import { makeNoticePdfs } from './notice-pdf.ts';
import { isMissingObject, requireEnv, s3 } from './s3-client.ts';

/**
 * The notice PDF link of a position: a link of a few minutes to `noticePdfKey(iud)` in the exports bucket.
 * The export keeps MyPay's AVVISI ZIP whole; the first time a position's link is asked for, its PDF is taken
 * out of that ZIP (adapters/notice-pdf.ts) and left at that key, so the link can point at it. null (no link
 * shown) when the position has no notice yet.
 */
export function makeNoticeLinks(
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> },
  bucket = requireEnv('EXPORTS_BUCKET'),
) {
  const get = async (key: string) => {
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
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
  const noticePdfs = makeNoticePdfs({ get, getRange });
  const exists = async (key: string) => {
    try {
      await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw error;
    }
  };

  return {
    async noticeUrl(position: Pick<Position, 'iud' | 'nav'>): Promise<string | null> {
      if (!position.nav) return null;
      const key = noticePdfKey(position.iud);
      if (!(await exists(key))) {
        const record = await positions.getPositionByIud(position.iud);
        const pdf = record?.noticeZip ? await noticePdfs.noticePdf(record, [record.noticeZip]) : null;
        if (!pdf) return null;
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: pdf, ContentType: 'application/pdf' }));
      }
      const fileName = `avviso-${position.nav ?? position.iud}.pdf`;
      return getSignedUrl(
        s3,
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ResponseContentType: 'application/pdf',
          ResponseContentDisposition: `attachment; filename="${fileName}"`,
        }),
        { expiresIn: EXPORT_LINK_TTL_SECONDS },
      );
    },
  };
}
