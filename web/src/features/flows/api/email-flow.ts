import type { FlowEmailResult } from '@domain/notice-schemas';
import { api } from '@/lib/api';

/**
 * POST /api/flows/{id}/email: sends (or resends) the notice e-mail of every accepted position of the flow.
 * `done` false (HTTP 202): still running, pressing the button again continues it.
 */
export const emailFlow = (id: string) => api.post<FlowEmailResult>(`/api/flows/${encodeURIComponent(id)}/email`, {});
