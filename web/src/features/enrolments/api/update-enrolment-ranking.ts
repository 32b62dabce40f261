import { api } from '@/lib/api';
import type { EnrolmentRow } from './types';

/** PUT /api/enrolments/{id}/ranking: the ranking score (an integer) and the version the operator saw. */
export const updateEnrolmentRanking = (
  row: Pick<EnrolmentRow, 'id' | 'dataUpdate'>,
  rankingScore: number,
): Promise<EnrolmentRow> =>
  api.put<EnrolmentRow>(`/api/enrolments/${encodeURIComponent(row.id)}/ranking`, {
    rankingScore,
    dataUpdate: row.dataUpdate,
  });
