import { api } from '@/lib/api';

/** DELETE /api/enrolments/{id}: the operator removes an approved user from the call. */
export const deleteEnrolment = (id: string): Promise<void> => api.delete(`/api/enrolments/${encodeURIComponent(id)}`);
