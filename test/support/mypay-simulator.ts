import { expect } from 'vitest';
import { inject } from './stack-context.ts';
import { makeMyPay } from '../../functions/adapters/mypay.ts';
import type { MyPayConfig } from '../../functions/adapters/mypay-soap.ts';
import { DEFAULT_ENTITY } from '../../lib/local/mypay-simulator.ts';

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

/**
 * The portal's MyPay client on a simulator the test started, as the simulator's default council (its codIpaEnte
 * and password), polling an export every 20 ms; `options` gives what the test varies.
 */
export const mypayClientOn = (simulator: { endpoint: string }, options: Partial<MyPayConfig> = {}) =>
  makeMyPay({
    endpoint: simulator.endpoint,
    codIpaEnte: DEFAULT_ENTITY.codIpa,
    password: DEFAULT_ENTITY.password,
    timeoutMs: 2000,
    exportPollMs: 20,
    ...options,
  });
