import type { SubscriptionState } from '../../functions/domain/subscriptions.ts';

/**
 * Requests on the first demo call in each state (issue 7), so the operator's enrolled-users table has
 * something to work on: made with the same repository writes the API uses (counters included). Maria
 * Rossi, the citizen test identity, is left out: she applies herself.
 */
const demoEnrolments: { fiscalCode: string; state: SubscriptionState; rankingScore: number | null; weeklyHour: number | null }[] = [
  { fiscalCode: 'FRRLCU75E15F205M', state: 'VALIDATED', rankingScore: 3, weeklyHour: 6 },
  { fiscalCode: 'CLMGLI92T48L219U', state: 'ADDED', rankingScore: 5, weeklyHour: null },
  { fiscalCode: 'RCCMRC60A01H501V', state: 'REFUSED', rankingScore: null, weeklyHour: null },
  { fiscalCode: 'BRNNNA88M41F839L', state: 'SUSPENDED', rankingScore: 1, weeklyHour: 4 },
];

export async function seedDemoEnrolments(): Promise<void> {
  const { listCalls } = await import('../../functions/calls/repository.ts');
  const { findUserIdByFiscalCode, getUserItem } = await import('../../functions/users/repository.ts');
  const { putSubscription } = await import('../../functions/subscriptions/repository.ts');
  const call = (await listCalls({ name: 'Assistenza domiciliare anziani', limit: 1 }, 1)).items[0];
  if (!call) return;
  const now = new Date().toISOString();
  for (const demo of demoEnrolments) {
    const userId = await findUserIdByFiscalCode(demo.fiscalCode);
    const user = userId ? await getUserItem(userId) : null;
    if (!user) continue;
    await putSubscription(
      {
        id: `${call.id}.${user.id}`,
        state: demo.state,
        announcementId: call.id,
        announcement: { id: call.id, name: call.name, year: call.year, service: { id: call.serviceId, name: call.serviceName } },
        rankingScore: demo.rankingScore,
        weeklyHour: demo.weeklyHour,
        cost: null,
        dataInsert: now,
        dataUpdate: now,
        userId: user.id,
        fiscalCode: user.fiscalCode,
        firstName: user.firstName,
        lastName: user.lastName,
        files: [],
        isee: user.lastIsee ? { valueCents: user.lastIsee.valueCents, year: user.lastIsee.year, state: user.lastIsee.state } : null,
      },
      null,
    );
  }
}
