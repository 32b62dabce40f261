import { expect } from 'vitest';
import { inject } from './stack-context.ts';
import { exportMonth, storedPositions } from './positions.ts';
import { as } from './api.ts';
import { makeGpdClient } from '../../functions/adapters/gpd/client.ts';
import { iudOfIupd, iupdOfPosition } from '../../functions/domain/gpd.ts';
import { DEFAULT_API_KEY, DEFAULT_ORGANIZATION, DEFAULT_RECEIPTS_KEY } from '../../lib/local/gpd/model.ts';

type Client = Awaited<ReturnType<typeof as>>;

/** Whether this test's stack bills through pagoPA GPD (the -gpd projects: test/support/stack-pool.ts platformEnv). */
export const onGpd = () => process.env.PAYMENT_PLATFORM === 'gpd';

/** The GPD simulator of this worker's stack, as the portal's client talks to it (lib/local/runtime.ts's settings). */
export const gpdClient = () =>
  makeGpdClient({
    baseUrl: inject('gpdUrl')!,
    organizationFiscalCode: DEFAULT_ORGANIZATION.fiscalCode,
    apiKey: DEFAULT_API_KEY,
    receiptsKey: DEFAULT_RECEIPTS_KEY,
  });

/** A switch of the GPD simulator (lib/local/gpd-simulator.ts: faults, paid, receipts, reset). */
export async function gpdAdmin(action: string, body: object) {
  const response = await fetch(`${inject('gpdUrl')}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`GPD simulator ${action}: ${response.status}`);
  return response.json();
}

/**
 * A month exported as the council does every month, so its positions can be paid: the export workflow, which on a
 * GPD stack creates each position at GPD, published, with the portal's IUV (the flows' part of issue 37). On GPD
 * each stored position is then checked to be held there with its IUV: nothing is created here behind the export.
 */
export async function publishMonth(operator: Client, callId: string, period: { mese: number; anno: number }) {
  await exportMonth(operator, callId, period);
  if (!onGpd()) return;
  const client = gpdClient();
  const month = `${period.anno}-${String(period.mese).padStart(2, '0')}`;
  for (const item of await storedPositions(callId, month)) {
    const held = await client.getPosition(gpdIupdOf(item));
    if (held?.status !== 'VALID' || held.paymentOption[0]?.iuv !== item.codIuv)
      throw new Error(`the export left ${item.iud} ${held ? `${held.status} at GPD` : 'unknown to GPD'}`);
  }
}

/** The iupd GPD knows a stored position by: the one saved with its IUV (call-first), else the one its IUD gives. */
export const gpdIupdOf = (stored: Record<string, unknown>): string =>
  iupdOfPosition(stored as { iud: string; iupd?: string | null });

/** The iupds the GPD simulator holds for these IUDs (whatever form each took: iudOfIupd reads both). */
export async function gpdIupdsOf(iuds: readonly string[]): Promise<string[]> {
  const state = (await (await fetch(`${inject('gpdUrl')}/admin/state`)).json()) as {
    positions: Record<string, { iupd: string }>;
  };
  const byIud = new Map(Object.values(state.positions).map((p) => [iudOfIupd(p.iupd)?.iud, p.iupd]));
  return iuds.map((iud) => byIud.get(iud) ?? `PSS-${iud}`);
}

/** 'Sincronizza' of a call, pressed and followed until it ends: its last status. */
export async function syncDone(operator: Client, callId: string) {
  expect((await operator.post(`/api/calls/${callId}/positions/sync`, {})).status).toBe(200);
  for (let i = 0; i < 300; i++) {
    const status = (await operator.get(`/api/calls/${callId}/positions/sync`)).json;
    if (!status.isUpdating) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('Sincronizza never ended');
}
