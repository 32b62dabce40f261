import type { SyncStatus } from '@domain/payments';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/positions/sync: 'Sincronizza' starts the recalculation in the background. */
export const startPositionsSync = (callId: string): Promise<SyncStatus> =>
  api.post<SyncStatus>(`/api/calls/${encodeURIComponent(callId)}/positions/sync`, {});
