/** The enrolment API's payloads: the types the API's schemas infer (functions/domain/enrolment.ts). */
import type { ImportEnrolmentsInput } from '@domain/enrolment';

export {
  ENROLMENT_PAGE_SIZES,
  type CsvFile,
  type EnrolmentPage,
  type EnrolmentRow,
  type EnrolmentSort,
  type ImportPreview,
  type ImportRow,
  type ImportStatus,
} from '@domain/enrolment';
export type FeeKind = 'DUE' | 'EXEMPT' | 'NO_ISEE' | 'NO_BAND';
export type EnrolmentPageSize = (typeof import('@domain/enrolment').ENROLMENT_PAGE_SIZES)[number];

export interface EnrolmentFilters {
  fiscalCode: string;
  firstName: string;
  lastName: string;
  /** What the operator typed, Italian style ('1.234,50'). */
  iseeAbove: string;
  confirmed: boolean;
}

/** The operator's update codes (spec part 2 §4): 0 back to pending, 2 approve/reactivate/edit hours, 3 refuse, 4 suspend. */
export type StateCode = 0 | 2 | 3 | 4;

export type ImportRequest = ImportEnrolmentsInput;
