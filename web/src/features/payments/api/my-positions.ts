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

/**
 * POST /api/me/positions/{id}/pay: opens (or resumes) the checkout of the position (MyPay's, or pagoPA Checkout on
 * GPD); answers where to go.
 * The portal page to come back to is a path: the server puts it on the portal's own address.
 */
export const payPosition = (
  iud: string,
  returnPath: string,
): Promise<{ url: string; idSession: string; resumed: boolean }> =>
  api.post<{ url: string; idSession: string; resumed: boolean }>(`/api/me/positions/${encodeURIComponent(iud)}/pay`, {
    returnPath,
  });

/** POST /api/me/payments/return: MyPay's outcome of the session the citizen came back from. */
export const paymentReturn = (idSession: string): Promise<PaymentReturn> =>
  api.post<PaymentReturn>('/api/me/payments/return', { idSession });

/**
 * POST /api/me/payments/cart: several positions paid at once in one checkout (pagoPA Checkout's cart, up to
 * five notices on GPD); answers where to go, as 'Paga' does.
 */
export const payPositions = (
  ids: string[],
  returnPath: string,
): Promise<{ url: string; idSession: string; resumed: boolean }> =>
  api.post<{ url: string; idSession: string; resumed: boolean }>('/api/me/payments/cart', { ids, returnPath });

/** GET /api/me/payments/options: the payment platform and how many notices one checkout can pay. */
export const getPaymentOptions = (): Promise<{ platform: 'mypay' | 'gpd'; cartSize: number }> =>
  api.get<{ platform: 'mypay' | 'gpd'; cartSize: number }>('/api/me/payments/options');
