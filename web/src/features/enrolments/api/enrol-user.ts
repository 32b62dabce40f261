import { api } from '@/lib/api';
import type { EnrolmentRow } from './types';

/** POST /api/calls/{id}/enrolments: the operator enrols a user (state ADDED). */
export const enrolUser = (callId: string, userId: string): Promise<EnrolmentRow> =>
  api.post<EnrolmentRow>(`/api/calls/${encodeURIComponent(callId)}/enrolments`, { userId });
