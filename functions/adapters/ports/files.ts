import type { UploadRequest, UploadTicket } from '../../domain/files.ts';

export interface ClaimedFile {
  key: string;
  contentType: string;
  size: number;
}

/** The documents bucket: uploads go straight to it, the API claims them (checked on their bytes) and links to them. */
export interface FileStore {
  createUpload(ownerSub: string, request: UploadRequest): Promise<UploadTicket>;
  claimUpload(ownerSub: string, uploadKey: string, finalKey: string): Promise<ClaimedFile>;
  downloadUrl(key: string, fileName: string, contentType?: string | null): Promise<string>;
  deleteFile(key: string): Promise<void>;
}

/** The exports bucket. */
export interface ExportFiles {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /** A link of a few minutes that downloads the file (a ZIP unless another type is given). */
  downloadUrl(key: string, fileName: string, contentType?: string): Promise<string>;
}
