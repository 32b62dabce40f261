import type { SubscribeInput, Subscription } from '@domain/subscriptions';
import { api } from '@/lib/api';

/** POST /api/calls/{id}/subscriptions (201): the citizen's request. Refusals are 400 with the reason in Italian. */
export const subscribe = (callId: string, input: SubscribeInput): Promise<Subscription> =>
  api.post<Subscription>(`/api/calls/${encodeURIComponent(callId)}/subscriptions`, input);
