import type { PublicCall } from '@domain/calls';
import { api } from '@/lib/api';
import { useAsync } from '@/components/use-async';

/** GET /api/open-calls/{id}: an OPEN call; any other is a 404 'Il bando selezionato non è presente.' Public. */
export const getOpenCall = (id: string): Promise<PublicCall> => api.get<PublicCall>(`/api/open-calls/${encodeURIComponent(id)}`);

export const useOpenCall = (id: string | null) => useAsync(() => getOpenCall(id!), [id], { enabled: Boolean(id) });
