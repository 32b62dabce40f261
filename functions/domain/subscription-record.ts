import type { EnrolmentSort } from './enrolment.ts';
import type { KeptFile } from './files.ts';
import type { SubscriptionSummary } from './subscriptions.ts';
import type { StoredUser } from './user-record.ts';
import type { Page } from './validation.ts';

/** A subscription as stored (functions/subscriptions/repository-items.ts writes it). */
export interface SubscriptionRecord extends SubscriptionSummary {
  userId: string;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  files: KeptFile[];
  /** The user's newest ISEE (any state), copied here for the enrolment table; null when there is none. */
  isee?: EnrolmentIsee | null;
}

/** The latest ISEE of the user, copied onto the subscription (kept in step by the ISEE use cases). */
export interface EnrolmentIsee {
  valueCents: number;
  year: number;
  state: string;
  /** Its expiry (yyyy-mm-dd): the month's fee counts it only until then (domain/fee.ts). */
  scadenza?: string | null;
}

/** The operator's enrolment table (issue 7): its filters and one page of rows (functions/subscriptions/repository-enrolment-query.ts). */
export interface EnrolmentFilters {
  fiscalCode?: string;
  firstName?: string;
  lastName?: string;
  /** Cents: rows whose ISEE is greater than this. */
  iseeAbove?: number;
  confirmed?: boolean;
  sort: EnrolmentSort;
  limit: number;
  cursor?: string;
}

/** What a row of the table needs of a subscription: the list reads only these attributes (ProjectionExpression). */
export type EnrolmentListRecord = Pick<
  SubscriptionRecord,
  | 'id'
  | 'userId'
  | 'announcementId'
  | 'state'
  | 'rankingScore'
  | 'weeklyHour'
  | 'fiscalCode'
  | 'firstName'
  | 'lastName'
  | 'isee'
  | 'dataUpdate'
>;
export type EnrolmentRecordPage = Page<EnrolmentListRecord> & { total: number };

/** The user's latest ISEE as the subscription keeps it. */
export const userIsee = (user: Pick<StoredUser, 'lastIsee'>): EnrolmentIsee | null =>
  user.lastIsee
    ? {
        valueCents: user.lastIsee.valueCents,
        year: user.lastIsee.year,
        state: user.lastIsee.state,
        scadenza: user.lastIsee.scadenza ?? null,
      }
    : null;
