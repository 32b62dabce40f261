import type { ResetHoursStatus } from '@domain/enrolment';
import { api } from '@/lib/api';
import { jobResult } from '@/lib/job-result';

const path = (callId: string) => `/api/calls/${encodeURIComponent(callId)}/enrolments/reset-hours`;

/** 'Reset ore': POST starts it as a background job, GET says how it stands; how many were reset once done. */
export const resetHours = async (callId: string): Promise<{ reset: number }> =>
  jobResult(await api.post<ResetHoursStatus>(path(callId), {}), () => api.get<ResetHoursStatus>(path(callId)));
