import type { ExportFiles } from './ports/files.ts';
import { requireEnv, s3Client, signedGetUrl } from './s3-client.ts';

/** The exports bucket: the files sent to MyPay and MyPay's result files (IUV, SCARTI, AVVISI). */
const exportsBucket = requireEnv('EXPORTS_BUCKET');

/** Links to MyPay's result files live five minutes (they carry fiscal codes and amounts). */
export const EXPORT_LINK_TTL_SECONDS = 300;

/**
 * Bytes [start, end) of an object of the exports bucket and its whole size (GetObject with a Range): a notice
 * out of MyPay's AVVISI ZIP without reading the ZIP whole (adapters/notice-pdf.ts).
 */
export async function getExportRange(
  key: string,
  start: number,
  end: number,
  bucket = exportsBucket,
): Promise<{ bytes: Uint8Array; size: number }> {
  const { s3, sdk } = await s3Client();
  const object = await s3.send(
    new sdk.GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${Math.max(start, end - 1)}` }),
  );
  const size = Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1] ?? object.ContentLength ?? 0);
  return { bytes: await object.Body!.transformToByteArray(), size };
}

export const s3ExportFiles: ExportFiles = {
  async put(key, body, contentType) {
    const { s3, sdk } = await s3Client();
    await s3.send(new sdk.PutObjectCommand({ Bucket: exportsBucket, Key: key, Body: body, ContentType: contentType }));
  },
  async get(key) {
    const { s3, sdk } = await s3Client();
    const object = await s3.send(new sdk.GetObjectCommand({ Bucket: exportsBucket, Key: key }));
    return object.Body!.transformToByteArray();
  },
  downloadUrl(key, fileName, contentType = 'application/zip') {
    const safeName = fileName.replace(/["\\\r\n]/g, '_');
    return signedGetUrl(
      {
        Bucket: exportsBucket,
        Key: key,
        ResponseContentType: contentType,
        ResponseContentDisposition: `attachment; filename="${safeName}"`,
      },
      EXPORT_LINK_TTL_SECONDS,
    );
  },
};
