import type { Flow } from '@domain/flow-schemas';
import { api } from '@/lib/api';

/** GET /api/flows/{id}: one flow and where its export stands. */
export const getFlow = (id: string) => api.get<Flow>(`/api/flows/${encodeURIComponent(id)}`);
