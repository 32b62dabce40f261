import { describe, expect, it } from 'vitest';
import type { RefreshResult } from '../../functions/isee/refresh-repository.ts';
import type { Actor } from '../../functions/domain/roles.ts';
import { citizensWithLastYearIsee, iseeRefreshJobs } from '../support/isee-refresh.ts';

/**
 * Issue 35: the January job is sized against the daily estimate declared in the PDND purpose. With five subscribers
 * to ask for and an estimate of two a day, INPS is asked twice a day: the run stops with how many are left and, started
 * again the same day, asks nobody more, and the next day only those not asked yet.
 */
const PEOPLE = 5;
const job: Actor = {
  sub: 'job',
  role: 'OPERATOR',
  fiscalCode: null,
  firstName: 'Job',
  lastName: 'ISEE',
  fullName: 'Job ISEE',
  email: null,
  workingEntityId: null,
} as Actor;

function january(estimate: number | null) {
  const people = citizensWithLastYearIsee(PEOPLE, 'Gennaio');
  const asked: string[] = [];
  const report: RefreshResult[] = [];
  let now = new Date('2027-01-02T07:00:00Z');
  const jobs = iseeRefreshJobs(people, {
    fetchForUser: async (userId: string) => {
      asked.push(userId);
      return { outcome: 'NOT_FOUND', valueCents: null, isee: null };
    },
    results: {
      putRefreshResult: async (result: RefreshResult) => void report.push(result),
      refreshedAlready: async (_report: string, ids: readonly string[]) =>
        new Set(report.filter((r) => ids.includes(r.userId)).map((r) => r.userId)),
      countRefreshResults: async (_report: string, outcome: string) =>
        report.filter((r) => r.outcome === outcome).length,
      listRefreshResults: async () => [],
      countAskedOn: async (_report: string, day: string) => report.filter((r) => r.askedOn === day).length,
    },
    settings: { dailyEstimate: estimate },
    clock: { now: () => now },
  });
  return {
    jobs,
    asked,
    nextDay: () => void (now = new Date(now.getTime() + 86_400_000)),
  };
}

describe('the January refresh and the daily estimate of the PDND purpose', () => {
  it('asks INPS at most the estimate a day, stops saying how many are left, and resumes the next day with the others', async () => {
    const { jobs, asked, nextDay } = january(2);
    await expect(jobs.newYearSlice({ reportId: 'r1' }, null, job)).rejects.toThrow(
      'Raggiunta la stima giornaliera di richieste dichiarata nella finalità PDND (2): restano 3 iscritti da aggiornare.',
    );
    expect(asked).toHaveLength(2);

    // Started again the same day (the job's last cursor is older than its stop): nobody more is asked.
    await expect(jobs.newYearSlice({ reportId: 'r1' }, null, job)).rejects.toThrow('restano 3');
    expect(asked).toHaveLength(2);

    nextDay();
    await expect(jobs.newYearSlice({ reportId: 'r1' }, null, job)).rejects.toThrow('restano 1');
    expect(asked).toHaveLength(4);
    nextDay();
    expect(await jobs.newYearSlice({ reportId: 'r1' }, null, job)).toMatchObject({ cursor: null });
    expect([...asked].sort()).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
  });

  it('without an estimate, asks everyone in one run', async () => {
    const { jobs, asked } = january(null);
    expect(await jobs.newYearSlice({ reportId: 'r1' }, null, job)).toMatchObject({ cursor: null });
    expect(asked).toHaveLength(PEOPLE);
  });
});
