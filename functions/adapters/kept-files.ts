import type { LinkedFile } from '../domain/calls.ts';
import type { KeptFile } from '../domain/files.ts';
import type { IdGenerator } from './ports/clock.ts';
import type { FileStore } from './ports/files.ts';

/** Short-lived links (5 minutes) to read the files: the API never sends the bytes. */
export const linkFiles = (store: FileStore, files: KeptFile[]): Promise<LinkedFile[]> =>
  Promise.all(
    files.map(async ({ key, ...file }) => ({
      ...file,
      url: await store.downloadUrl(key, file.name, file.contentType),
    })),
  );

/**
 * Claims staged uploads (type read from the content, size) and moves them under `prefix`/<fileId>.
 * If one is refused, those already moved are deleted, so the refusal leaves nothing behind.
 */
export async function claimFiles(
  store: FileStore,
  ids: IdGenerator,
  ownerSub: string,
  prefix: string,
  uploads: Array<{ uploadKey: string; name: string }>,
): Promise<KeptFile[]> {
  const claimed: KeptFile[] = [];
  try {
    for (const upload of uploads) {
      const storageFileId = ids();
      const file = await store.claimUpload(ownerSub, upload.uploadKey, `${prefix}/${storageFileId}`);
      claimed.push({ storageFileId, name: upload.name, contentType: file.contentType, size: file.size, key: file.key });
    }
  } catch (error) {
    await deleteFiles(store, claimed);
    throw error;
  }
  return claimed;
}

export const deleteFiles = async (store: FileStore, files: KeptFile[]) => {
  await Promise.all(files.map((file) => store.deleteFile(file.key)));
};
