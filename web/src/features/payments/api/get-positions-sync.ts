import type { SyncStatus } from '@domain/payments';
import { api } from '@/lib/api';

/** GET /api/calls/{id}/positions/sync: the import status (isUpdating) of the call's recalculation. */
export const getPositionsSync = (callId: string): Promise<SyncStatus> =>
  api.get<SyncStatus>(`/api/calls/${encodeURIComponent(callId)}/positions/sync`);
