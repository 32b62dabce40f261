/**
 * How long the portal keeps each kind of personal data (README "Retention", for the council's data-protection
 * officer): a deployment setting per kind (lib/context.ts), given to every function as RETENTION_<KIND>_YEARS,
 * enforced by DynamoDB's TTL (the table's `expiresAt`, epoch seconds, written on the item) and by the documents
 * bucket's lifecycle rule. DynamoDB deletes an expired item within days; nothing here reads `expiresAt` (the
 * local DynamoDB has no TTL), so no rule of the portal depends on it.
 *
 * Nothing the law requires to keep goes early: payment records (the debt positions with their payments) are
 * accounting records, kept ten years from the end of their year (codice civile art. 2220; DPR 600/1973 art. 22);
 * the audit entries, which record who changed those positions, as long. Nothing is kept for ever by default.
 */
export const retentionKinds = ['iseeDocuments', 'supportMessages', 'paymentRecords', 'auditEntries'] as const;
export type RetentionKind = (typeof retentionKinds)[number];

/** Years kept by default. */
export const retentionDefaults: Record<RetentionKind, number> = {
  iseeDocuments: 10,
  supportMessages: 2,
  paymentRecords: 10,
  auditEntries: 10,
};
/** The least the law allows (years), and why. */
export const retentionMinimum: Record<RetentionKind, { years: number; law?: string }> = {
  iseeDocuments: { years: 1 },
  supportMessages: { years: 1 },
  paymentRecords: { years: 10, law: 'codice civile art. 2220 (scritture contabili: dieci anni)' },
  auditEntries: { years: 10, law: 'the history of the payment records, kept as long as they are' },
};

export const retentionEnvName = (kind: RetentionKind) =>
  `RETENTION_${kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}_YEARS`;

/** The years kept of `kind`, from the function's environment (the default when unset). */
export function retentionYears(kind: RetentionKind, env: Record<string, string | undefined> = process.env): number {
  const value = Number(env[retentionEnvName(kind)]);
  return Number.isInteger(value) && value > 0 ? value : retentionDefaults[kind];
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** `expiresAt` of an item made at `from`: the same moment `years` later (UTC). */
export function expiresAfter(from: Date, years: number): number {
  const at = new Date(from);
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return epochSeconds(at);
}

/** `expiresAt` of a payment record of year `anno`: `years` after the end of that year (1 January of anno + 1 + years). */
export const paymentRecordExpiry = (anno: number, years: number): number =>
  epochSeconds(new Date(Date.UTC(anno + 1 + years, 0, 1)));

/** An item stored before the retention settings, as the TTL back-fill reads it (only what it needs). */
export type StoredBeforeRetention =
  | { kind: 'supportMessages'; dataApertura: string }
  | { kind: 'paymentRecords'; anno: number }
  | { kind: 'auditEntries'; at: string };

/**
 * The `expiresAt` an item would have had if it had been written under the retention settings: the same rule its
 * repository applies to a new one (tickets/repository.ts, positions/repository.ts, adapters/audit-log.ts). An item
 * already past its retention gets a moment in the past, and DynamoDB deletes it within days.
 */
export function retentionExpiry(item: StoredBeforeRetention, env: Record<string, string | undefined> = process.env) {
  const years = retentionYears(item.kind, env);
  switch (item.kind) {
    case 'supportMessages':
      return expiresAfter(new Date(item.dataApertura), years);
    case 'paymentRecords':
      return paymentRecordExpiry(item.anno, years);
    case 'auditEntries':
      return expiresAfter(new Date(item.at), years);
  }
}
