import type { Actor } from '../../domain/roles.ts';

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

/**
 * An item holds at most 400 KB, attribute names included (DynamoDB Developer Guide, "Constraints": Items;
 * "DynamoDB item sizes and formats"): an operation that changes many records at once (the hours reset, an
 * import's slice) is audited in entries whose changes take at most this many bytes as JSON, which is larger than
 * their size as an item (no quotes, one to three bytes of overhead per element there); the rest of the entry
 * (keys, who, what) takes under 2 KB.
 */
export const AUDIT_CHANGES_MAX_BYTES = 300 * 1024;

/**
 * One operation's changes cut into chunks whose audit (`audited`: what the entry keeps of a change, before and
 * after) takes at most AUDIT_CHANGES_MAX_BYTES, in order. Cut before the changes are written, so that an audit
 * entry can never be refused for its size after the data changed. A single change larger than that is a chunk
 * of its own.
 */
export function auditChunks<T>(
  changes: readonly T[],
  audited: (change: T) => unknown = (change) => change,
  maxBytes = AUDIT_CHANGES_MAX_BYTES,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 2;
  for (const change of changes) {
    const size = Buffer.byteLength(JSON.stringify(audited(change)) ?? 'null') + 1;
    if (current.length && bytes + size > maxBytes) {
      chunks.push(current);
      current = [];
      bytes = 2;
    }
    current.push(change);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
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
  historyOf(
    entity: string,
    id: string,
    page: { limit?: number; cursor?: string },
  ): Promise<{ items: StoredAuditEntry[]; nextCursor: string | null }>;
}
