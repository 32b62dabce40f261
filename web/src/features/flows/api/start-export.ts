import type { ExportRequest, Flow } from '@domain/flow-schemas';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/exports: 'Invia a MyPay' for a month (one citizen for the single payment). */
export const startExport = (callId: string, request: ExportRequest) =>
  api.post<Flow>(`/api/calls/${encodeURIComponent(callId)}/exports`, request);
