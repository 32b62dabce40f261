import type { UploadRequest, UploadTicket } from '../domain/files.ts';
import type { Actor } from '../domain/roles.ts';

/**
 * What every use case may receive besides its repositories. The real adapters are wired once in each
 * handler.ts; the use-case tests pass in-memory ones (test/support/in-memory.ts).
 */
export interface Clock {
  now(): Date;
}

export type IdGenerator = () => string;

export interface AuditEntry {
  actor: Actor;
  entity: string;
  id: string;
  action: 'create' | 'update' | 'delete';
  before: unknown;
  after: unknown;
}

export interface AuditLog {
  record(entry: AuditEntry, at: Date): Promise<void>;
}

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

export const systemClock: Clock = { now: () => new Date() };
