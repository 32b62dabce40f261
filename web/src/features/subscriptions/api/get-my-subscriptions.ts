import type { SubscriptionState, SubscriptionSummary } from '@domain/subscriptions';
import { SUBSCRIPTIONS_PAGE_SIZE } from '@domain/subscriptions';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/subscriptions: the citizen's requests, 5 per page, optionally of one state. */
export const getMySubscriptions = (
  state: SubscriptionState | '',
  cursor: string | null,
): Promise<Page<SubscriptionSummary>> =>
  api.get<Page<SubscriptionSummary>>(`/api/subscriptions${query({ state, cursor, limit: SUBSCRIPTIONS_PAGE_SIZE })}`);

export const useMySubscriptions = (state: SubscriptionState | '') =>
  useCursorList<SubscriptionSummary>(['subscriptions', 'mine', state], (cursor) => getMySubscriptions(state, cursor));
