import type { PositionView } from '@domain/position-payment';
import { useCursorList } from '@/components/cursor-pagination';
import { api, query, type Page } from '@/lib/api';

/** Positions per page on the user record's payments section. */
export const USER_RECORD_POSITIONS_PAGE_SIZE = 10;
/** Operator-admin §9: payment cards 15 per page. */
export const PAYMENT_CARDS_PAGE_SIZE = 15;

/** GET /api/users/{id}/positions: one user's positions (user record), newest month first. */
export const getUserPositions = (userId: string, cursor: string | null): Promise<Page<PositionView>> =>
  api.get<Page<PositionView>>(
    `/api/users/${encodeURIComponent(userId)}/positions${query({ cursor, limit: USER_RECORD_POSITIONS_PAGE_SIZE })}`,
  );

export const useUserPositions = (userId: string) =>
  useCursorList<PositionView>(['payments', 'of-user', userId], (cursor) => getUserPositions(userId, cursor));

/** GET /api/positions?fiscalCode=: the 'Pagamenti' page's search. */
export const getPositionsByFiscalCode = (fiscalCode: string, cursor: string | null): Promise<Page<PositionView>> =>
  api.get<Page<PositionView>>(`/api/positions${query({ fiscalCode, cursor, limit: PAYMENT_CARDS_PAGE_SIZE })}`);
