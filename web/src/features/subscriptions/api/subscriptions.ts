import type { SubscribeInput, Subscription, SubscriptionState, SubscriptionSummary } from '@domain/subscriptions';
import { SUBSCRIPTIONS_PAGE_SIZE, USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE } from '@domain/subscriptions';
import { api, query, type Page } from '@/lib/api';
import { useAsync } from '@/components/use-async';
import { useCursorList } from '@/components/cursor-pagination';

const enc = encodeURIComponent;

/** GET /api/calls/{id}/subscription: the signed-in citizen's request for this call, or null. */
export const useMySubscription = (callId: string | null) =>
  useAsync(() => api.get<{ subscription: Subscription | null }>(`/api/calls/${enc(callId!)}/subscription`), [callId], { enabled: Boolean(callId) });

/** POST /api/calls/{id}/subscriptions (201). Refusals are 400 with the reason in Italian. */
export const subscribe = (callId: string, input: SubscribeInput) => api.post<Subscription>(`/api/calls/${enc(callId)}/subscriptions`, input);

/** GET /api/subscriptions: the citizen's requests, 5 per page, optionally of one state. */
export const useMySubscriptions = (state: SubscriptionState | '') =>
  useCursorList<SubscriptionSummary>(
    (cursor) => api.get<Page<SubscriptionSummary>>(`/api/subscriptions${query({ state, cursor, limit: SUBSCRIPTIONS_PAGE_SIZE })}`),
    { resetKey: state },
  );

/** GET /api/users/{id}/subscriptions: a user's requests on the operator's user record, 3 per page. */
export const useUserSubscriptions = (userId: string) =>
  useCursorList<SubscriptionSummary>(
    (cursor) => api.get<Page<SubscriptionSummary>>(`/api/users/${enc(userId)}/subscriptions${query({ cursor, limit: USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE })}`),
    { resetKey: userId },
  );
