import type { EnrolmentFilters, EnrolmentRecordPage, SubscriptionRecord } from '../../domain/subscription-record.ts';

/** A call's subscriptions as the enrolment table and the enrolment import read and write them (functions/subscriptions/repository*.ts). */
export interface EnrolmentRepository {
  getSubscription(callId: string, userId: string): Promise<SubscriptionRecord | null>;
  /** Conditional on `previous` (its dataUpdate and state), or on absence when null; false when it failed. */
  putSubscription(
    record: SubscriptionRecord,
    previous: SubscriptionRecord | null,
    counters?: boolean,
  ): Promise<boolean>;
  deleteSubscription(previous: SubscriptionRecord, counters?: boolean): Promise<boolean>;
  listEnrolments(callId: string, filters: EnrolmentFilters): Promise<EnrolmentRecordPage>;
  listAllSubscriptionsOfCall(callId: string): Promise<SubscriptionRecord[]>;
  recountEnrolments(callId: string, records: SubscriptionRecord[]): Promise<void>;
}
