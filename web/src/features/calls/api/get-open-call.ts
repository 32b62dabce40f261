import type { PublicCall } from '@domain/calls';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/open-calls/{id}: an OPEN call; any other is a 404 'Il bando selezionato non è presente.' Public. */
export const getOpenCall = (id: string): Promise<PublicCall> =>
  api.get<PublicCall>(`/api/open-calls/${encodeURIComponent(id)}`);

/** GET /api/me/calls/{id}: for the signed-in citizen, an OPEN call or one they are enrolled in, closed or not. */
export const getCitizenCall = (id: string): Promise<PublicCall> =>
  api.get<PublicCall>(`/api/me/calls/${encodeURIComponent(id)}`);

/** A call's page data: the public summary for a visitor, the citizen's view once signed in. */
export const useVisibleCall = (id: string | null, citizen: boolean) =>
  useApiQuery(['calls', 'open', id, citizen], () => (citizen ? getCitizenCall(id!) : getOpenCall(id!)), {
    enabled: Boolean(id),
  });
