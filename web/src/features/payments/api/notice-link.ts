import { api } from '@/lib/api';

/**
 * GET /api/positions/{id}/notice: a link of a few minutes to the position's notice PDF, made on request (pagoPA GPD);
 * the citizen's own positions, or any for operators and delegates.
 */
export const getNoticeLink = (iud: string) =>
  api.get<{ url: string }>(`/api/positions/${encodeURIComponent(iud)}/notice`);
