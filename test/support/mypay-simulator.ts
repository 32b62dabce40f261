import { expect } from 'vitest';
import { inject } from './stack-context.ts';

/** The local stack's MyPay simulator: its address, without the SOAP path. */
export const stackMyPay = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');

/** One of the MyPay simulator's switches (lib/local/mypay/admin.ts, POST /admin/<action>): its answer. */
export async function mypayAdmin(base: string, action: string, body: object) {
  const response = await fetch(`${base}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** A switch of the stack's simulator, which must take it (200). */
export async function switchStackMyPay(action: string, body: object) {
  expect((await mypayAdmin(stackMyPay(), action, body)).status).toBe(200);
}
