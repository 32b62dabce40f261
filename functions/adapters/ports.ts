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

/** One audit entry as stored: who, when, before and after (a record's history reads these). */
export interface StoredAuditEntry {
  at: string;
  action: AuditEntry['action'];
  who: { sub: string; fiscalCode: string | null; fullName: string; role: string };
  before: unknown;
  after: unknown;
}

/** A record's audit entries, oldest first (e.g. the history on the ticket page). */
export interface AuditHistory {
  historyOf(entity: string, id: string, page: { limit?: number; cursor?: string }): Promise<{ items: StoredAuditEntry[]; nextCursor: string | null }>;
}

export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Uint8Array;
}

/** An e-mail. Without `from` the deployment's sender (MAIL_FROM) is used. */
export interface MailMessage {
  to: string[];
  replyTo?: string[];
  from?: string;
  subject: string;
  text: string;
  html?: string;
  /** With attachments the message is sent as raw MIME (SES Content.Raw); without, as Content.Simple. */
  attachments?: MailAttachment[];
}

/** Outgoing e-mail: SES v2 in the cloud, aws-ses-v2-local on this machine (functions/adapters/mail.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
}

export const systemClock: Clock = { now: () => new Date() };
