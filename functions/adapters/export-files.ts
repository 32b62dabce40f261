import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ExportFiles } from '../flows/use-cases.ts';
import { requireEnv, s3 } from './s3-client.ts';

/** The exports bucket: the files sent to MyPay and MyPay's result files (IUV, SCARTI, AVVISI). */
const exportsBucket = requireEnv('EXPORTS_BUCKET');

/** Links to MyPay's result files live five minutes (they carry fiscal codes and amounts). */
export const EXPORT_LINK_TTL_SECONDS = 300;

export const s3ExportFiles: ExportFiles = {
  async put(key, body, contentType) {
    await s3.send(new PutObjectCommand({ Bucket: exportsBucket, Key: key, Body: body, ContentType: contentType }));
  },
  async get(key) {
    const object = await s3.send(new GetObjectCommand({ Bucket: exportsBucket, Key: key }));
    return object.Body!.transformToByteArray();
  },
  downloadUrl(key, fileName, contentType = 'application/zip') {
    const safeName = fileName.replace(/["\\\r\n]/g, '_');
    return getSignedUrl(
      s3,
      new GetObjectCommand({ Bucket: exportsBucket, Key: key, ResponseContentType: contentType, ResponseContentDisposition: `attachment; filename="${safeName}"` }),
      { expiresIn: EXPORT_LINK_TTL_SECONDS },
    );
  },
};
