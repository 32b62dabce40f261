import type { PeriodInput, PositionsCsv, PositionsCsvStatus } from '@domain/payments';
import { api } from '@/lib/api';
import { jobResult } from '@/lib/job-result';

const path = (callId: string) => `/api/calls/${encodeURIComponent(callId)}/positions/csv`;

/**
 * 'Verifica / genera CSV': POST starts the month's generation and its MyPay import CSV as a background job, GET
 * says how it stands; the answer once done (counts, skipped, a short-lived link to the file).
 */
export const positionsCsv = async (callId: string, period: PeriodInput): Promise<PositionsCsv> =>
  jobResult(await api.post<PositionsCsvStatus>(path(callId), period), () => api.get<PositionsCsvStatus>(path(callId)));
