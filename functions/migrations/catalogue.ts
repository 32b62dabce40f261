import { systemClock } from '../adapters/ports.ts';
import { DEBT_TOTALS_START_YEAR } from '../domain/debt-summaries.ts';
import { backfillDebtGroupKeysPage } from '../payment-list/repository.ts';
import { backfillEnrolmentSearchPage } from '../subscriptions/repository.ts';
import { backfillUserNamesPage } from '../users/repository.ts';
import { MIGRATION_IDS, type MigrationId } from './ids.ts';
import * as store from './repository.ts';
import { callIds } from './repository.ts';
import { makeMigrationRunner, walkPages, walkUnits, type Migration, type MigrationDeps } from './use-cases.ts';

/** What each migration of ids.ts does: a page of one list (or of one call, one call-year) a step. */
const steps: Record<MigrationId, Omit<Migration, 'id'>> = {
  'users-search-item-v1': {
    description: 'The search item of every user (the combined filters of the users list)',
    step: walkPages((start) => backfillUserNamesPage(start)),
  },
  'payment-list-gsi6-v1': {
    description: 'The gsi6 key of the payment list rows (a surname in amount order)',
    step: walkUnits(
      async () => {
        const years = Array.from({ length: new Date().getUTCFullYear() + 2 - DEBT_TOTALS_START_YEAR }, (_, i) => DEBT_TOTALS_START_YEAR + i);
        return (await callIds()).flatMap((id) => years.map((anno) => `${id}#${anno}`));
      },
      (unit, start) => {
        const [callId, anno] = unit.split('#');
        return backfillDebtGroupKeysPage(callId!, Number(anno), start);
      },
    ),
  },
  'enrolment-search-item-v1': {
    description: 'The search item of every subscription (the surname and first-name filters of the enrolment table)',
    step: walkUnits(callIds, (callId, start) => backfillEnrolmentSearchPage(callId, start)),
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
export const migrationRunner = (log: MigrationDeps['log']) => makeMigrationRunner({ store, migrations, clock: systemClock, log });
