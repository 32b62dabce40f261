import { api } from '@/lib/api';
import type { CsvFile } from './types';

/** GET /api/calls/{id}/enrolments/csv: the call's list as CSV, named after the call by the API. */
export const exportEnrolments = (callId: string): Promise<CsvFile> =>
  api.get<CsvFile>(`/api/calls/${encodeURIComponent(callId)}/enrolments/csv`);
