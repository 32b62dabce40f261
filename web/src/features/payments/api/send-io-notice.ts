import type { Position } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/positions/{id}/io: the position's notice to the IO app; the answer carries the new ioId. */
export const sendIoNotice = (iud: string) => api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/io`, {});
