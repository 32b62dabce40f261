/** What the table records of a data migration (functions/migrations: the runner writes it, its repository stores it). */
export interface MigrationRecord {
  id: string;
  description: string;
  state: 'RUNNING' | 'APPLIED';
  /** Where the next step starts (null before the first step, and once applied). */
  cursor: string | null;
  /** Items the steps went through so far. */
  processed: number;
  startedAt: string;
  updatedAt: string;
  appliedAt: string | null;
}
