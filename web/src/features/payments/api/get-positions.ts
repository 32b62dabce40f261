import type { Period, Position } from '@domain/payments';
import { api, query, type Page } from '@/lib/api';

/** GET /api/calls/{id}/positions: one page of a call's month. */
export const getPositions = (callId: string, period: Period, cursor?: string): Promise<Page<Position>> =>
  api.get<Page<Position>>(
    `/api/calls/${encodeURIComponent(callId)}/positions${query({ mese: period.mese, anno: period.anno, cursor })}`,
  );
