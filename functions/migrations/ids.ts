/**
 * The data migrations by id, in the order they run (their code: catalogue.ts). A new one goes at the end
 * with a new id; an id is never reused, and a migration whose code changes (e.g. searchItem gains a field) is
 * added again under a new id (`users-search-item-v2`), so every deployment writes the items once more.
 * Pure: the CDK app reads it too (the deployment's trigger runs again when this list changes).
 */
export const MIGRATION_IDS = [
  'users-search-item-v1',
  'payment-list-gsi6-v1',
  'enrolment-search-item-v1',
  'payment-list-shards-v1',
  'audit-day-shards-v1',
  'retention-expiry-v1',
  'export-lock-expiry-v1',
] as const;
export type MigrationId = (typeof MIGRATION_IDS)[number];

/** The background job that runs them in the cloud (functions/jobs' mechanism, on a state machine of its own). */
export const MIGRATIONS_JOB = 'migrations';
export const MIGRATIONS_JOB_KEY = 'table';
/** The migrations applied to the table: pk MIGRATIONS, sk the migration's id (one Query reads them all). */
export const MIGRATIONS_PARTITION = 'MIGRATIONS';
