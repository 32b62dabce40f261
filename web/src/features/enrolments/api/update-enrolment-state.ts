import { api } from '@/lib/api';
import type { EnrolmentRow, StateCode } from './types';

/** PUT /api/enrolments/{id}/state: an update code, hours when approving, and the version the operator saw (409 if stale). */
export const updateEnrolmentState = (
  row: Pick<EnrolmentRow, 'id' | 'dataUpdate'>,
  state: StateCode,
  weeklyHour?: number,
): Promise<EnrolmentRow> =>
  api.put<EnrolmentRow>(`/api/enrolments/${encodeURIComponent(row.id)}/state`, {
    state,
    ...(weeklyHour === undefined ? {} : { weeklyHour }),
    dataUpdate: row.dataUpdate,
  });
