import type { FlowEmailResult } from '@domain/notice-schemas';
import { api } from '@/lib/api';

/**
 * POST /api/flows/{id}/email: starts (or joins) the background job that sends the notice e-mail of every
 * accepted position of the flow; the answer is its progress (`done` false while it runs: HTTP 202).
 */
export const emailFlow = (id: string) => api.post<FlowEmailResult>(`/api/flows/${encodeURIComponent(id)}/email`, {});

/** GET /api/flows/{id}/email: how far the flow's e-mail run is. */
export const getFlowEmail = (id: string) => api.get<FlowEmailResult>(`/api/flows/${encodeURIComponent(id)}/email`);
