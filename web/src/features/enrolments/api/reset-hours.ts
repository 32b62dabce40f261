import { api } from '@/lib/api';

/** POST /api/calls/{id}/enrolments/reset-hours: the hours of the accepted users go back to zero. */
export const resetHours = (callId: string): Promise<{ reset: number }> =>
  api.post<{ reset: number }>(`/api/calls/${encodeURIComponent(callId)}/enrolments/reset-hours`, {});
