import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { noticePdfKey, type Position } from '../domain/payments.ts';
import { EXPORT_LINK_TTL_SECONDS } from './export-files.ts';
import { requireEnv, s3 } from './s3-client.ts';

const notFound = (error: unknown) => error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/**
 * The notice PDF of a position (noticePdfKey in the exports bucket, written once an export brought it back):
 * a link of a few minutes when the object exists, null otherwise (no link is shown).
 */
export function makeNoticeLinks(bucket = requireEnv('EXPORTS_BUCKET')) {
  return {
    async noticeUrl(position: Pick<Position, 'iud' | 'nav'>): Promise<string | null> {
      const key = noticePdfKey(position.iud);
      try {
        await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
      const fileName = `avviso-${position.nav ?? position.iud}.pdf`;
      return getSignedUrl(
        s3,
        new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentType: 'application/pdf', ResponseContentDisposition: `attachment; filename="${fileName}"` }),
        { expiresIn: EXPORT_LINK_TTL_SECONDS },
      );
    },
  };
}
