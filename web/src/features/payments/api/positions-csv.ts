import type { PeriodInput, PositionsCsv } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/positions/csv: generates the month's positions, answers the MyPay import CSV. */
export const positionsCsv = (callId: string, period: PeriodInput): Promise<PositionsCsv> =>
  api.post<PositionsCsv>(`/api/calls/${encodeURIComponent(callId)}/positions/csv`, period);
