import type { Position } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/positions/{id}/io: the position's notice to the IO app; the answer carries the new ioId and IO's status. */
export const sendIoNotice = (iud: string) => api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/io`, {});

/** POST /api/positions/{id}/io/status ('Verifica'): IO's status of the message sent, read now and recorded. */
export const checkIoNotice = (iud: string) => api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/io/status`, {});
