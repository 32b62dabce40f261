import { expect } from 'vitest';
import { onPlatform } from '../../functions/domain/payment-platform.ts';
import { gpdAdmin, gpdIupdsOf, onGpd } from './gpd.ts';
import { switchStackMyPay } from './mypay-simulator.ts';

/**
 * What a money-path test does with the stack's payment platform, on either one (issue 37: the integration project
 * runs on MyPay, integration-gpd on pagoPA GPD): each simulator's own switches, its own checkout page.
 */

/** A text of the spec as the stack shows it: the spec's words on MyPay, pagoPA named on GPD (http/handler.ts). */
export const platformText = (text: string) => onPlatform(text, onGpd() ? 'gpd' : 'mypay');

/** Every fault switch of the stack's simulator off. */
export const resetPlatform = () => (onGpd() ? gpdAdmin('reset', {}) : switchStackMyPay('reset', {}));

/**
 * Positions paid outside the portal (a bank's app, a counter with the notice), as each platform then reports them:
 * MyPay in its export of paid positions, GPD with a receipt (its `paid` switch, by the iupd GPD holds each by).
 */
export async function paidOutsidePortal(iuds: string[]) {
  if (!onGpd()) return switchStackMyPay('paid', { iuds });
  const { paid } = (await gpdAdmin('paid', { iupds: await gpdIupdsOf(iuds) })) as { paid: string[] };
  expect(paid).toHaveLength(iuds.length);
}

/**
 * What a browser does on the platform's page that 'Paga' sent the citizen to: MyPay's landing then its checkout page,
 * or pagoPA Checkout's cart page; one button (pay, a failed payment, cancel), and the page sends her back. The
 * address she is sent back to (never followed here).
 */
export async function payOnPlatformPage(
  url: string,
  choice: 'success' | 'failure' | 'cancel' = 'success',
): Promise<URL> {
  let page = url;
  if (!onGpd()) {
    const landing = await fetch(url, { redirect: 'manual' });
    expect(landing.status).toBe(302);
    page = landing.headers.get('location')!;
  }
  const button = onGpd() ? { success: 'OK', failure: 'ERROR', cancel: 'CANCEL' }[choice] : choice;
  expect(await (await fetch(page)).text()).toContain(`value="${button}"`);
  const answer = await fetch(page, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ esito: button }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(onGpd() ? 302 : 303);
  return new URL(answer.headers.get('location')!, page);
}
