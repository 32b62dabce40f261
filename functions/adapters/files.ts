import { createHash, randomUUID } from 'node:crypto';
import { ValidationError } from '../domain/errors.ts';
import { fileTypeOf } from '../domain/file-signature.ts';
import {
  MAX_FILE_BYTES,
  fileMessages,
  isAcceptedType,
  type UploadRequest,
  type UploadTicket,
} from '../domain/files.ts';
import type { ClaimedFile, FileStore } from './ports/files.ts';
import { isMissingObject, requireEnv, s3Client, signedGetUrl } from './s3-client.ts';

/**
 * Files live in S3 (the local stand-in is s3rver), never in DynamoDB. The browser uploads straight to the
 * bucket with a presigned POST, so a file can be larger than a Lambda request; the API then "claims" the
 * staged object: it checks the stored bytes (size, type read from the content, not the name) and moves it
 * to its final key. s3rver does not enforce POST policies, and even S3 cannot check the content: the claim
 * is the check that counts.
 */
export const documentsBucket = requireEnv('DOCUMENTS_BUCKET');

const UPLOAD_TTL_SECONDS = 300;
/** The size the browser declared for an upload, kept as user metadata of the staged object. */
const DECLARED_SIZE = 'declared-size';
/** image/jpg is what some browsers declare for a JPEG. */
/**
 * The declared and the stored file are of one kind: a PDF, or an image. A photo whose name says .jpg but
 * whose bytes are a PNG (phones and editors do this) is still the photo the citizen meant, and its link
 * serves the type read from the bytes; a PDF that is really an image, or the reverse, is refused.
 */
const kindOf = (type: string | undefined) =>
  type === 'application/pdf' ? 'pdf' : type?.startsWith('image/') ? 'image' : type;
const sameType = (declared: string | undefined, stored: string) => kindOf(declared) === kindOf(stored);
/** Links to read a file live this long: enough to open it, too short to share. */
export const DOWNLOAD_TTL_SECONDS = 300;

/** Staging keys carry a hash of the uploader, so nobody can claim someone else's upload. */
const ownerTag = (ownerSub: string) => createHash('sha256').update(ownerSub).digest('hex').slice(0, 20);
const stagingPrefix = (ownerSub: string) => `staging/${ownerTag(ownerSub)}/`;

export async function createUpload(ownerSub: string, request: UploadRequest): Promise<UploadTicket> {
  const uploadKey = `${stagingPrefix(ownerSub)}${request.purpose}/${randomUUID()}`;
  const [{ s3 }, { createPresignedPost }] = await Promise.all([s3Client(), import('@aws-sdk/s3-presigned-post')]);
  const { url, fields } = await createPresignedPost(s3, {
    Bucket: documentsBucket,
    Key: uploadKey,
    Conditions: [['content-length-range', 1, MAX_FILE_BYTES]],
    // Both are part of the signed policy in S3; the claim compares them with the stored bytes.
    Fields: { 'Content-Type': request.contentType, [`x-amz-meta-${DECLARED_SIZE}`]: String(request.size) },
    Expires: UPLOAD_TTL_SECONDS,
  });
  return { uploadKey, url, fields, expiresInSeconds: UPLOAD_TTL_SECONDS };
}

/**
 * Checks a staged upload and moves it to `finalKey`. A file of the wrong type or size, or whose stored
 * type or size is not the one declared when the upload was asked for, is deleted and refused; nothing
 * else is written.
 */
export async function claimUpload(ownerSub: string, uploadKey: string, finalKey: string): Promise<ClaimedFile> {
  if (!uploadKey.startsWith(stagingPrefix(ownerSub)) || uploadKey.includes('..'))
    throw new ValidationError(fileMessages.notFound);
  const { s3, sdk } = await s3Client();
  let size: number;
  let declared: { type?: string; size?: string };
  try {
    const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: documentsBucket, Key: uploadKey }));
    size = head.ContentLength ?? 0;
    declared = { type: head.ContentType, size: head.Metadata?.[DECLARED_SIZE] };
  } catch (error) {
    if (isMissingObject(error)) throw new ValidationError(fileMessages.notFound);
    throw error;
  }
  const refuse = async (message: string) => {
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: documentsBucket, Key: uploadKey }));
    return new ValidationError(message);
  };
  if (size === 0) throw await refuse(fileMessages.empty);
  if (size > MAX_FILE_BYTES) throw await refuse(fileMessages.tooLarge);

  const head = await s3.send(
    new sdk.GetObjectCommand({ Bucket: documentsBucket, Key: uploadKey, Range: 'bytes=0-15' }),
  );
  const contentType = fileTypeOf(await head.Body!.transformToByteArray());
  if (!contentType || !isAcceptedType(contentType)) throw await refuse(fileMessages.unsupported);
  if (!sameType(declared.type, contentType)) throw await refuse(fileMessages.typeMismatch);
  if (declared.size !== String(size)) throw await refuse(fileMessages.sizeMismatch);

  await s3.send(
    new sdk.CopyObjectCommand({
      Bucket: documentsBucket,
      Key: finalKey,
      CopySource: `${documentsBucket}/${encodeURIComponent(uploadKey).replace(/%2F/g, '/')}`,
      ContentType: contentType,
      MetadataDirective: 'REPLACE',
    }),
  );
  await s3.send(new sdk.DeleteObjectCommand({ Bucket: documentsBucket, Key: uploadKey }));
  return { key: finalKey, contentType, size };
}

/**
 * A short-lived link to read the file, named as the user named it. It is served with the type the claim
 * verified (never a type a browser could sniff into a page): inline for a PDF or an image, as an
 * attachment otherwise. S3 sets no X-Content-Type-Options on a presigned GET, so the type and the
 * disposition are what the portal controls there.
 */
export function downloadUrl(key: string, fileName: string, contentType?: string | null): Promise<string> {
  const safeName = fileName.replace(/["\\\r\n]/g, '_');
  const verified = isAcceptedType(contentType ?? undefined) ? contentType! : 'application/octet-stream';
  const disposition = verified === 'application/octet-stream' ? 'attachment' : 'inline';
  return signedGetUrl(
    {
      Bucket: documentsBucket,
      Key: key,
      ResponseContentType: verified,
      ResponseContentDisposition: `${disposition}; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
    DOWNLOAD_TTL_SECONDS,
  );
}

export async function deleteFile(key: string): Promise<void> {
  const { s3, sdk } = await s3Client();
  await s3.send(new sdk.DeleteObjectCommand({ Bucket: documentsBucket, Key: key }));
}

export async function readFile(key: string): Promise<Uint8Array> {
  const { s3, sdk } = await s3Client();
  const object = await s3.send(new sdk.GetObjectCommand({ Bucket: documentsBucket, Key: key }));
  return object.Body!.transformToByteArray();
}

export const s3FileStore: FileStore = { createUpload, claimUpload, downloadUrl, deleteFile };
