import type { Position } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/positions/{id}/email: the position's notice by e-mail (MyPay's PDF attached). */
export const emailNotice = (iud: string) => api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/email`, {});
