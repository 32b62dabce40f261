import { makeIseeRefreshJobs, type IseeRefreshDeps } from '../../functions/isee/refresh.ts';

/** `count` citizens subscribed to one call, each with only last year's validated ISEE (none valid this year). */
export function citizensWithLastYearIsee(count: number, lastName: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: `u${i}`,
    fiscalCode: `RSSMRA80A01H50${String(i).padStart(2, '0')}`,
    firstName: 'Anna',
    lastName: `${lastName}${i}`,
    email: `${lastName.toLowerCase()}${i}@example.it`,
    lastIsee: { id: `isee-${i}`, valueCents: 800_000, year: 2026, state: 'VALIDATED', hasFile: false },
  }));
}

type Citizen = ReturnType<typeof citizensWithLastYearIsee>[number];

/**
 * The ISEE refresh jobs (January's INPS run, December's reminders) over `people`, all approved subscribers of the
 * one active call 'c1'. `deps` gives what the test exercises (INPS, the results, the reminders' records and
 * channels, the clock, the settings); whatever it leaves out is unused by that job.
 */
export function iseeRefreshJobs(
  people: readonly Citizen[],
  deps: Partial<Record<Exclude<keyof IseeRefreshDeps, 'settings'>, unknown>> & {
    settings?: Partial<ReturnType<IseeRefreshDeps['settings']>>;
  },
) {
  const { settings, ...rest } = deps;
  return makeIseeRefreshJobs({
    fetchForUser: async () => {
      throw new Error('INPS is not asked by this job');
    },
    subscriptions: {
      pageApprovedSubscriptionsOfCall: async () => ({
        items: people.map((p) => ({ userId: p.id, announcementId: 'c1' })),
        nextCursor: null,
      }),
      countApprovedSubscriptions: async () => people.length,
    },
    calls: { getCall: async () => null, listActiveCallIds: async () => ['c1'] },
    users: {
      getUserItems: async (ids: readonly string[]) =>
        new Map(people.filter((p) => ids.includes(p.id)).map((p) => [p.id, p])),
    },
    results: {} as never,
    expiry: {} as never,
    audit: { record: async () => undefined },
    pace: async () => undefined,
    clock: { now: () => new Date() },
    ids: { next: () => 'id' },
    ...rest,
    settings: () => ({ reminderFrom: '12-01', portalUrl: 'https://portale.example.it', sliceMs: 60_000, ...settings }),
  } as unknown as IseeRefreshDeps);
}
