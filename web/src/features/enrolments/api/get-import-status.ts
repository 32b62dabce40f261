import type { ImportStatus } from '@domain/enrolment';
import { api } from '@/lib/api';

/** GET /api/calls/{id}/enrolments/import: the call's latest import (rows applied of the total). */
export const getImportStatus = (callId: string): Promise<ImportStatus> =>
  api.get<ImportStatus>(`/api/calls/${encodeURIComponent(callId)}/enrolments/import`);
