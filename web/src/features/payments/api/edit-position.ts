import type { Position, PositionEditInput } from '@domain/payments';
import { api } from '@/lib/api';

/** PUT /api/positions/{id}: the payment edit modal (description, amount in euro; 0 cancels). */
export const editPosition = (iud: string, input: PositionEditInput): Promise<Position> =>
  api.put<Position>(`/api/positions/${encodeURIComponent(iud)}`, input);
