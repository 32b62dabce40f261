import type { Position, ReconciliationCloseInput } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/positions/{id}/reconciliation: 'Chiudi riconciliazione' with the operator's note. */
export const closeReconciliation = (iud: string, input: ReconciliationCloseInput): Promise<Position> =>
  api.post<Position>(`/api/positions/${encodeURIComponent(iud)}/reconciliation`, input);
