import type { Flow } from '@domain/flow-schemas';
import { api } from '@/lib/api';

/** POST /api/flows/{id}/restart: 'Rielabora' a flow that stopped. */
export const restartFlow = (id: string) => api.post<Flow>(`/api/flows/${encodeURIComponent(id)}/restart`, {});
