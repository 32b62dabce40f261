import type { ImportStatus } from '@domain/enrolment';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/enrolments/import/apply: 'Applica' starts applying the approved preview in the background. */
export const applyImport = (callId: string, previewId: string): Promise<ImportStatus> =>
  api.post<ImportStatus>(`/api/calls/${encodeURIComponent(callId)}/enrolments/import/apply`, { previewId });
