import { randomUUID } from 'node:crypto';
import type { LinkedFile } from '../domain/calls.ts';
import type { StoredFile } from '../domain/files.ts';
import { claimUpload, deleteFile, downloadUrl } from '../adapters/files.ts';

/** A file kept in the documents bucket, as the table records it (the key never leaves the API). */
export interface KeptFile extends StoredFile {
  key: string;
}

/** Short-lived links (5 minutes) to read the files: the API never sends the bytes. */
export const linkFiles = (files: KeptFile[]): Promise<LinkedFile[]> =>
  Promise.all(files.map(async ({ key, ...file }) => ({ ...file, url: await downloadUrl(key, file.name) })));

/**
 * Claims staged uploads (type read from the content, size) and moves them under `prefix`/<fileId>.
 * If one is refused, those already moved are deleted, so the refusal leaves nothing behind.
 */
export async function claimFiles(ownerSub: string, prefix: string, uploads: Array<{ uploadKey: string; name: string }>): Promise<KeptFile[]> {
  const claimed: KeptFile[] = [];
  try {
    for (const upload of uploads) {
      const storageFileId = randomUUID();
      const file = await claimUpload(ownerSub, upload.uploadKey, `${prefix}/${storageFileId}`);
      claimed.push({ storageFileId, name: upload.name, contentType: file.contentType, size: file.size, key: file.key });
    }
  } catch (error) {
    await deleteFiles(claimed);
    throw error;
  }
  return claimed;
}

export const deleteFiles = async (files: KeptFile[]) => {
  await Promise.all(files.map((file) => deleteFile(file.key)));
};
