import { subscriptionId, type SubscriptionState } from './subscriptions.ts';
import type { CallRecord } from './call-record.ts';
import type { EnrolmentIsee, SubscriptionRecord } from './subscription-record.ts';

export interface NewSubscription {
  call: Pick<CallRecord, 'id' | 'name' | 'year' | 'serviceId' | 'serviceName'>;
  person: { userId: string; fiscalCode: string; firstName: string; lastName: string };
  now: Date;
  state?: SubscriptionState;
  rankingScore?: number | null;
  weeklyHour?: number | null;
  files?: SubscriptionRecord['files'];
  isee?: EnrolmentIsee | null;
}

/** A subscription as it is first written, whoever makes it: the citizen's request, the operator's enrolment, an import. */
export function newSubscription({
  call,
  person,
  now,
  state = 'ADDED',
  rankingScore = null,
  weeklyHour = null,
  files = [],
  isee,
}: NewSubscription): SubscriptionRecord {
  return {
    id: subscriptionId(call.id, person.userId),
    state,
    announcementId: call.id,
    announcement: {
      id: call.id,
      name: call.name,
      year: call.year,
      service: { id: call.serviceId, name: call.serviceName },
    },
    rankingScore,
    weeklyHour,
    cost: null,
    dataInsert: now.toISOString(),
    dataUpdate: now.toISOString(),
    ...person,
    files,
    ...(isee === undefined ? {} : { isee }),
  };
}
