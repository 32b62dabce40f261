/**
 * The enrolment API's payloads, declared here from the contract of issue 7 (brief enrol-web) while the
 * zod schemas are being written on the API's branch: once `@domain/enrolments` exists on this branch,
 * these types should be replaced by its inferred ones.
 */
import type { SubscriptionState } from '@domain/subscriptions';

export type FeeKind = 'DUE' | 'EXEMPT' | 'NO_ISEE' | 'NO_BAND';

export interface EnrolmentRow {
  id: string;
  userId: string;
  state: SubscriptionState;
  rankingScore: number | null;
  weeklyHour: number | null;
  fiscalCode: string;
  firstName: string;
  lastName: string;
  isee: { valueCents: number; year: number; state: string } | null;
  fee: { kind: FeeKind; amountCents: number } | null;
  iseeYearMismatch: boolean;
  singlePaymentAllowed: boolean;
  dataUpdate: string;
}

export type EnrolmentSort = 'ranking' | '-ranking' | 'isee' | '-isee';
export const ENROLMENT_PAGE_SIZES = [10, 25, 50] as const;
export type EnrolmentPageSize = (typeof ENROLMENT_PAGE_SIZES)[number];

export interface EnrolmentFilters {
  fiscalCode: string;
  firstName: string;
  lastName: string;
  /** What the operator typed, Italian style ('1.234,50'). */
  iseeAbove: string;
  confirmed: boolean;
}

export interface EnrolmentPage {
  items: EnrolmentRow[];
  nextCursor: string | null;
  total: number;
}

/** The operator's update codes (spec part 2 §4): 0 back to pending, 2 approve/reactivate/edit hours, 3 refuse, 4 suspend. */
export type StateCode = 0 | 2 | 3 | 4;

export interface ImportRow {
  fiscalCode: string;
  lastName: string;
  firstName: string;
  rankingScore: number | null;
  weeklyHour: number | null;
  iseeValueCents: number | null;
  iseeYear: number | null;
  changes: string[];
}

export interface ImportPreview {
  add: ImportRow[];
  update: ImportRow[];
  remove: ImportRow[];
  unchanged: number;
  rejected: Array<{ line: number; fiscalCode: string | null; reason: string }>;
  applied: boolean;
}

export interface ImportRequest {
  fileContentBase64: string;
  contentType: string;
  updateIsees: boolean;
  removeOldSubscriptions: boolean;
  apply: boolean;
}

export interface CsvFile {
  fileName: string;
  content: string;
}
