import type { Subscription } from '@domain/subscriptions';
import { api } from '@/lib/api';
import { useApiQuery } from '@/lib/queries';

/** GET /api/calls/{id}/subscription: the signed-in citizen's request for this call, or null. */
export const getMySubscription = (callId: string): Promise<{ subscription: Subscription | null }> =>
  api.get<{ subscription: Subscription | null }>(`/api/calls/${encodeURIComponent(callId)}/subscription`);

export const useMySubscription = (callId: string | null) =>
  useApiQuery(['subscriptions', 'mine', callId], () => getMySubscription(callId!), { enabled: Boolean(callId) });
