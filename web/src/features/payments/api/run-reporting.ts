import type { ReportingResult } from '@domain/position-payment';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/reporting: 'Rendicontazione'. */
export const runReporting = (callId: string): Promise<ReportingResult> => api.post<ReportingResult>(`/api/calls/${encodeURIComponent(callId)}/reporting`, {});
