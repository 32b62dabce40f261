import type { Position } from '@domain/payments';
import { api } from '@/lib/api';

/**
 * POST /api/positions/{id}/io: the position's notice to the IO app; the answer carries the new ioId and IO's
 * status. `resend`: the operator confirmed a second message for a notice already sent (or maybe sent).
 */
export const sendIoNotice = (iud: string, resend = false) =>
  api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/io${resend ? '?resend=true' : ''}`, {});

/** POST /api/positions/{id}/io/status ('Verifica'): IO's status of the message sent, read now and recorded. */
export const checkIoNotice = (iud: string) =>
  api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/io/status`, {});
