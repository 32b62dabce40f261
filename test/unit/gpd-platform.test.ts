import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGpdPlatform } from '../../functions/adapters/gpd/platform.ts';
import { dueDateWindows } from '../../functions/adapters/gpd/reporting.ts';
import { gpdCallIupd, gpdIuv } from '../../functions/domain/gpd.ts';
import type { PaymentPlatform, PlatformPosition } from '../../functions/domain/payment-platform.ts';
import { romeDay } from '../../functions/domain/period.ts';
import { startGpdSimulator, type GpdSimulator } from '../../lib/local/gpd-simulator.ts';
import { gpdClientOn, gpdCreditor as creditor, gpdDueDay as dueDay } from '../support/gpd-in-process.ts';

/** GPD behind the payment-platform port (functions/adapters/gpd/platform.ts), against the GPD simulator in-process. */
let sim: GpdSimulator;
let platform: PaymentPlatform;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpd-platform-'));
beforeAll(async () => {
  sim = await startGpdSimulator({ port: 0, dataDir });
  const client = gpdClientOn(sim);
  platform = makeGpdPlatform(client, creditor);
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const position = (n: number, overrides: Partial<PlatformPosition> = {}): PlatformPosition => ({
  iud: `P2026${String(n).padStart(4, '0')}`,
  action: 'create',
  iuv: gpdIuv('01', n),
  fiscalCode: 'RSSMRA80A01H501U',
  fullName: 'Rossi Mario',
  email: null,
  amountCents: 4350,
  description: `Servizio pasti mese ${n}`,
  dueDay,
  ...overrides,
});

/** A position the portal sent today, due at the month's `dueDay`, as 'Sincronizza' names it to the port. */
const sent = (p: Pick<PlatformPosition, 'iud'>) => ({
  iud: p.iud,
  dataScadenza: dueDay,
  exportedAt: new Date().toISOString(),
});
const stateAtGpd = async (iud: string) => (await platform.positionStates([sent({ iud })])).get(iud);
/** The simulator's calls by operation since `before`. */
const callsSince = (before: Record<string, number | undefined>) =>
  Object.fromEntries(
    Object.entries(sim.counters.calls)
      .map(([operation, n]) => [operation, n! - (before[operation] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );

describe('GPD as the payment platform', () => {
  it('exports a batch: creates are accepted with IUV and notice number; a refused one says why in Italian; a second submit of the same batch creates nothing twice', async () => {
    const batch = [position(1), position(2), position(3), position(4, { iuv: gpdIuv('02', 4) })];
    const { results } = await platform.export.submit({ flowId: 'F1', attempt: 1, positions: batch });
    expect(results!.accepted.map((a) => [a.iud, a.nav])).toEqual(
      [1, 2, 3].map((n) => [position(n).iud, `3${gpdIuv('01', n)}`]),
    );
    expect(results!.rejected).toEqual([
      { iud: position(4).iud, code: 'GPD_403', reason: expect.stringContaining('codice di segregazione') },
    ]);
    const again = await platform.export.submit({ flowId: 'F1', attempt: 1, positions: batch.slice(0, 3) });
    expect(again.results!.accepted).toHaveLength(3);
    expect(Object.keys(sim.state.positions)).toHaveLength(3);
  });

  it('updates keep a position payable, a cancellation makes it cancelled for good', async () => {
    await platform.export.submit({
      flowId: 'F2',
      attempt: 1,
      positions: [position(1, { action: 'update', amountCents: 5000 }), position(2, { action: 'cancel' })],
    });
    expect(await stateAtGpd(position(1).iud)).toMatchObject({
      state: 'open',
      payable: true,
      platformState: 'VALID',
    });
    expect(await stateAtGpd(position(2).iud)).toMatchObject({
      state: 'cancelled',
      payable: false,
      platformState: 'INVALID',
    });
    const refused = await platform.export.submit({
      flowId: 'F3',
      attempt: 1,
      positions: [position(2, { action: 'update' })],
    });
    expect(refused.results!.rejected[0]).toMatchObject({ code: 'GPD_409' });
  });

  it('pays two months in one Checkout cart: the return carries the correlation id only, and the outcome comes from the receipts', async () => {
    const notices = [1, 3].map((n) => ({
      iud: position(n).iud,
      iuv: gpdIuv('01', n),
      noticeNumber: `3${gpdIuv('01', n)}`,
      amountCents: n === 1 ? 5000 : 4350,
      description: `Servizio pasti mese ${n}`,
    }));
    const session = await platform.checkout.open({
      notices,
      returnUrl: 'http://portal.test/pagamenti/esito',
      correlationId: 'corr-1',
    });
    expect(await platform.checkout.outcome({ sessionId: session!.sessionId, notices })).toEqual({
      status: 'UNKNOWN',
      payments: [],
    });
    const back = await fetch(session!.url, {
      method: 'POST',
      body: new URLSearchParams({ esito: 'OK' }),
      redirect: 'manual',
    });
    expect(back.headers.get('location')).toBe('http://portal.test/pagamenti/esito?idSession=corr-1&esito=ok');
    const outcome = await platform.checkout.outcome({ sessionId: session!.sessionId, notices });
    expect(outcome.status).toBe('PAID');
    expect(outcome.payments.map((p) => [p.iud, p.amountCents])).toEqual([
      [position(1).iud, 5000],
      [position(3).iud, 4350],
    ]);
    expect(outcome.payments[0]!.receiptId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reports the payments of a day range, by IUD, the ones made outside the portal too', async () => {
    await platform.export.submit({ flowId: 'F4', attempt: 1, positions: [position(5), position(6)] });
    // Paid with the notice in a bank's app: the portal never saw a checkout for it.
    await fetch(`${sim.url}/admin/paid`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ navs: [`3${gpdIuv('01', 5)}`] }),
    });
    const today = romeDay(new Date());
    const paid = await platform.reporting.paidBetween(today, today);
    expect(paid.map((p) => p.iud).sort()).toEqual([position(1).iud, position(3).iud, position(5).iud].sort());
    expect(paid.every((p) => p.paidOn === today)).toBe(true);
    expect(await platform.reporting.paidBetween('2025-01-01', '2025-03-15')).toEqual([]);
  });

  it('a receipt arriving late: the position reads PAID but neither the outcome nor the reporting count it until the receipt is there', async () => {
    await platform.export.submit({ flowId: 'F5', attempt: 1, positions: [position(7)] });
    const notice = {
      iud: position(7).iud,
      iuv: gpdIuv('01', 7),
      noticeNumber: `3${gpdIuv('01', 7)}`,
      amountCents: 4350,
      description: 'Servizio pasti mese 7',
    };
    const admin = (body: object) =>
      fetch(`${sim.url}/admin/receipts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await admin({ hold: true });
    const session = await platform.checkout.open({
      notices: [notice],
      returnUrl: 'http://portal.test/iscrizioni',
      correlationId: 'corr-7',
    });
    await fetch(session!.url, { method: 'POST', body: new URLSearchParams({ esito: 'OK' }), redirect: 'manual' });
    expect((await stateAtGpd(notice.iud))!.platformState).toBe('PAID');
    expect(await platform.checkout.outcome({ sessionId: 'corr-7', notices: [notice] })).toEqual({
      status: 'UNKNOWN',
      payments: [],
    });
    const today = romeDay(new Date());
    expect((await platform.reporting.paidBetween(today, today)).map((p) => p.iud)).not.toContain(notice.iud);
    await admin({ hold: false });
    const outcome = await platform.checkout.outcome({ sessionId: 'corr-7', notices: [notice] });
    expect(outcome.status).toBe('PAID');
    expect(outcome.payments[0]).toMatchObject({ iud: notice.iud, amountCents: 4350, psp: 'Banca Simulata S.p.A.' });
    const reported = (await platform.reporting.paidBetween(today, today)).find((p) => p.iud === notice.iud);
    // The same receipt either way: the settlement records it once.
    expect(reported).toMatchObject({ receiptId: outcome.payments[0]!.receiptId, amountCents: 4350 });
  });

  it('reads the states of a month’s positions from GPD’s list, page after page, not one call per position', async () => {
    const month = Array.from({ length: 120 }, (_, i) => position(100 + i));
    await platform.export.submit({ flowId: 'F6', attempt: 1, positions: month });
    // Paid at a counter with the notice: the last by iupd, on the list's third page. Invalidated: one on the second.
    await fetch(`${sim.url}/admin/paid`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ navs: [`3${gpdIuv('01', 219)}`] }),
    });
    await platform.export.submit({ flowId: 'F7', attempt: 1, positions: [position(160, { action: 'cancel' })] });
    // Changed after the month's end: GPD's due date moved on, out of the month's window; read by its iupd.
    const later = `${new Date().getUTCFullYear() + 1}-04-30`;
    await platform.export.submit({
      flowId: 'F8',
      attempt: 1,
      positions: [position(170, { action: 'update', amountCents: 5100, dueDay: later })],
    });
    const before = { ...sim.counters.calls };
    const never = position(999);
    const states = await platform.positionStates([...month, never].map(sent));
    // 125 positions due that day at GPD (these 120 but the moved one, and 6 of the tests above): 3 pages of 50.
    expect(callsSince(before)).toEqual({ list: 3, get: 2 });
    expect(states.size).toBe(120);
    expect(states.has(never.iud)).toBe(false);
    expect(states.get(position(219).iud)).toMatchObject({
      state: 'paid',
      platformState: 'PAID',
      payments: [{ iud: position(219).iud, iuv: gpdIuv('01', 219), amountCents: 4350 }],
    });
    expect(states.get(position(160).iud)).toMatchObject({ state: 'cancelled', platformState: 'INVALID' });
    expect(states.get(position(170).iud)).toMatchObject({ state: 'open', payable: true, platformState: 'VALID' });
    expect(states.get(position(100).iud)).toMatchObject({ state: 'open', payable: true, payments: [] });

    // A few positions in a long list: once the pages left outnumber them, each is read by its iupd instead.
    const fewBefore = { ...sim.counters.calls };
    const few = await platform.positionStates([sent(position(219))]);
    expect(callsSince(fewBefore)).toEqual({ list: 1, get: 1 });
    expect(few.get(position(219).iud)).toMatchObject({ state: 'paid' });
  });

  it('reads one call’s positions with call-first iupds from its own pages, not those of every call and office due that day', async () => {
    // Another due day, its window to itself: three calls of 60 positions and another office's 500, all due then.
    const day = `${new Date().getUTCFullYear() + 1}-02-28`;
    const ofCall = (callId: string, first: number) =>
      Array.from({ length: 60 }, (_, i) => {
        const iud = `P2027${String(first + i).padStart(6, '0')}`;
        return position(first + i, { iud, iupd: gpdCallIupd(callId, iud), dueDay: day });
      });
    const calls = [ofCall('bando-mensa', 1000), ofCall('bando-trasporto', 2000), ofCall('bando-centro', 3000)];
    const office = Array.from({ length: 500 }, (_, i) =>
      position(5000 + i, { iud: `ALTRO${String(i).padStart(4, '0')}`, dueDay: day }),
    );
    for (const [i, batch] of [...calls, office].entries())
      await platform.export.submit({ flowId: `F9-${i}`, attempt: 1, positions: batch });
    const trasporto = calls[1]!;
    await fetch(`${sim.url}/admin/paid`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ navs: [`3${trasporto[59]!.iuv}`] }),
    });
    await platform.export.submit({ flowId: 'F10', attempt: 1, positions: [{ ...trasporto[7]!, action: 'cancel' }] });

    const before = { ...sim.counters.calls };
    const asSent = (p: PlatformPosition) => ({
      iud: p.iud,
      iupd: p.iupd,
      dataScadenza: day,
      exportedAt: new Date().toISOString(),
    });
    const states = await platform.positionStates(trasporto.map(asSent));
    const pages = Math.ceil((3 * 60 + 500) / 50);
    const made = callsSince(before);
    // 14 pages due that day; the call's 60 span two or three of them, found by halving the pages (about log2 14).
    expect(made.get).toBeUndefined();
    expect(made.list).toBeLessThanOrEqual(1 + Math.ceil(Math.log2(pages)) + 3);
    expect(made.list).toBeLessThan(pages / 2);
    expect(states.size).toBe(60);
    expect(states.get(trasporto[59]!.iud)).toMatchObject({ state: 'paid', platformState: 'PAID' });
    expect(states.get(trasporto[7]!.iud)).toMatchObject({ state: 'cancelled', platformState: 'INVALID' });
    expect(states.get(trasporto[0]!.iud)).toMatchObject({ state: 'open', payable: true, payments: [] });

    // The reporting still names them by their IUD.
    const paid = await platform.reporting.paidBetween(romeDay(new Date()), romeDay(new Date()));
    expect(paid.filter((p) => p.iud === trasporto[59]!.iud)).toHaveLength(1);
  });

  it('covers the due days with windows GPD accepts: at most 30 days from first to last, a day of margin each side', () => {
    expect(dueDateWindows([])).toEqual([]);
    expect(dueDateWindows(['2026-03-31', '2026-03-31'])).toEqual([{ from: '2026-03-30', to: '2026-04-01' }]);
    // A month billed late: its positions due 30 days after each send, a window apart from the month's own day.
    expect(dueDateWindows(['2026-12-29', '2026-03-31', '2026-12-01'])).toEqual([
      { from: '2026-03-30', to: '2026-04-01' },
      { from: '2026-11-30', to: '2026-12-30' },
    ]);
    expect(dueDateWindows(['2026-12-01', '2026-12-30'])).toEqual([
      { from: '2026-11-30', to: '2026-12-02' },
      { from: '2026-12-29', to: '2026-12-31' },
    ]);
  });
});
