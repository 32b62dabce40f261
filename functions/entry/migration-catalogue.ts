import { systemClock } from '../adapters/ports/clock.ts';
import { DEBT_TOTALS_START_YEAR } from '../domain/debt-summaries.ts';
import { backfillAuditDay } from '../adapters/audit-log.ts';
import { backfillDebtListKeysPage } from '../payment-list/repository.ts';
import { backfillEnrolmentSearchPage } from '../subscriptions/repository.ts';
import { backfillUserNamesPage } from '../users/repository.ts';
import { lockExpiryInSeconds } from '../flows/repository.ts';
import { MIGRATION_IDS, type MigrationId } from '../migrations/ids.ts';
import * as store from '../migrations/repository.ts';
import { callIds, itemsWithoutExpiryPage, setExpiryIfMissing } from '../migrations/repository.ts';
import { retentionExpiry } from '../domain/retention.ts';
import { mapAtMost } from '../domain/at-most.ts';
import {
  makeMigrationRunner,
  walkPages,
  walkUnits,
  type Migration,
  type MigrationDeps,
} from '../migrations/use-cases.ts';

/** Every call and payment-list year: "<callId>#<anno>". */
async function callYears() {
  const years = Array.from(
    { length: new Date().getUTCFullYear() + 2 - DEBT_TOTALS_START_YEAR },
    (_, i) => DEBT_TOTALS_START_YEAR + i,
  );
  return (await callIds()).flatMap((id) => years.map((anno) => `${id}#${anno}`));
}
const debtListKeysPage = (unit: string, start: Record<string, unknown> | undefined) => {
  const [callId, anno] = unit.split('#');
  return backfillDebtListKeysPage(callId!, Number(anno), start);
};

/** Every day (yyyy-mm-dd, UTC) from the portal's first, 2025-01-01, to today: one Query each. */
async function auditDays() {
  const days: string[] = [];
  for (const day = new Date('2025-01-01T00:00:00Z'); day <= new Date(); day.setUTCDate(day.getUTCDate() + 1))
    days.push(day.toISOString().slice(0, 10));
  return days;
}

/** One page of items without `expiresAt`: each gets the one its kind's retention gives it (20 writes at a time). */
async function retentionExpiryPage(start: Record<string, unknown> | undefined) {
  const { items, next } = await itemsWithoutExpiryPage(start);
  const written = await mapAtMost(items, 20, (item) => setExpiryIfMissing(item.pk, item.sk, retentionExpiry(item)));
  return { written: written.filter(Boolean).length, next };
}

/** What each migration of ids.ts does: a page of one list (or of one call, one call-year) a step. */
const steps: Record<MigrationId, Omit<Migration, 'id'>> = {
  'users-search-item-v1': {
    description: 'The search item of every user (the combined filters of the users list)',
    step: walkPages((start) => backfillUserNamesPage(start)),
  },
  'payment-list-gsi6-v1': {
    description: 'The gsi6 key of the payment list rows (a surname in amount order)',
    step: walkUnits(callYears, debtListKeysPage),
  },
  'enrolment-search-item-v1': {
    description: 'The search item of every subscription (the surname and first-name filters of the enrolment table)',
    step: walkUnits(callIds, (callId, start) => backfillEnrolmentSearchPage(callId, start)),
  },
  'payment-list-shards-v1': {
    description: 'The payment list rows keyed on their shard of each index (DEBTS#<call>#<year>#<shard>)',
    step: walkUnits(callYears, debtListKeysPage),
  },
  'audit-day-shards-v1': {
    description: 'The audit entries of each day moved to their gsi1 shard (AUDIT#<day>#<shard>)',
    step: walkUnits(auditDays, async (day) => ({ written: await backfillAuditDay(day) })),
  },
  'retention-expiry-v1': {
    description:
      'The expiresAt (DynamoDB TTL) of the support messages, debt positions and audit entries stored before the retention settings',
    step: walkPages(retentionExpiryPage),
  },
  'export-lock-expiry-v1': {
    description: 'The end of each call’s export lease (expiresAt) in epoch seconds, as DynamoDB’s TTL reads it',
    step: walkUnits(callIds, async (callId) => ({ written: await lockExpiryInSeconds(callId) })),
  },
};

export const migrations: readonly Migration[] = MIGRATION_IDS.map((id) => ({ id, ...steps[id] }));

/**
 * One migration's steps to the end, whatever the table records (`npm run backfill:*`, for emergencies; the
 * tests): how many items it went through. Idempotent like every step.
 */
export async function runMigrationSteps(id: MigrationId): Promise<number> {
  let processed = 0;
  let cursor: string | null = null;
  do {
    const step = await steps[id].step(cursor);
    processed += step.processed;
    cursor = step.cursor;
  } while (cursor !== null);
  return processed;
}

/** The migrations on the real table (the cloud's task function and the local start). */
export const migrationRunner = (log: MigrationDeps['log']) =>
  makeMigrationRunner({ store, migrations, clock: systemClock, log });
