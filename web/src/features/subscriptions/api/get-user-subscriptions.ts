import type { SubscriptionSummary } from '@domain/subscriptions';
import { USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE } from '@domain/subscriptions';
import { api, query, type Page } from '@/lib/api';
import { useCursorList } from '@/components/cursor-pagination';

/** GET /api/users/{id}/subscriptions: a user's requests on the operator's user record, 3 per page. */
export const getUserSubscriptions = (userId: string, cursor: string | null): Promise<Page<SubscriptionSummary>> =>
  api.get<Page<SubscriptionSummary>>(
    `/api/users/${encodeURIComponent(userId)}/subscriptions${query({ cursor, limit: USER_RECORD_SUBSCRIPTIONS_PAGE_SIZE })}`,
  );

export const useUserSubscriptions = (userId: string) =>
  useCursorList<SubscriptionSummary>(['subscriptions', 'of-user', userId], (cursor) =>
    getUserSubscriptions(userId, cursor),
  );
