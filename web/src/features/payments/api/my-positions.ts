import type { PaymentReturn, PositionView } from '@domain/position-payment';
import { api, query, type Page } from '@/lib/api';

/** GET /api/me/positions: the citizen's own positions (of one call), every page followed. */
export async function getMyPositions(callId: string): Promise<PositionView[]> {
  const items: PositionView[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<PositionView> = await api.get<Page<PositionView>>(`/api/me/positions${query({ callId, cursor })}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** POST /api/me/positions/{id}/pay: opens MyPay's checkout for the position; answers where to go. */
export const payPosition = (iud: string, returnUrl: string): Promise<{ url: string; idSession: string }> =>
  api.post<{ url: string; idSession: string }>(`/api/me/positions/${encodeURIComponent(iud)}/pay`, { returnUrl });

/** POST /api/me/payments/return: MyPay's outcome of the session the citizen came back from. */
export const paymentReturn = (idSession: string): Promise<PaymentReturn> => api.post<PaymentReturn>('/api/me/payments/return', { idSession });
