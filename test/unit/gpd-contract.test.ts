import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GpdRefused, GpdUnavailable, type GpdConfig } from '../../functions/adapters/gpd/client.ts';
import { makePacer } from '../../functions/adapters/pacer.ts';
import { gpdIupd, gpdIuv, gpdNoticeNumber, gpdPaymentPosition } from '../../functions/domain/gpd.ts';
import {
  DEFAULT_API_KEY,
  DEFAULT_ORGANIZATION,
  startGpdSimulator,
  type GpdSimulatorOptions,
} from '../../lib/local/gpd-simulator.ts';
import { gpdClientOn, gpdCreditor as creditor, gpdDueDay as dueDay } from '../support/gpd-in-process.ts';

/**
 * The GPD adapter (functions/adapters/gpd/client.ts) against the GPD simulator (lib/local/gpd-simulator.ts), started
 * in-process. Each test names the upstream file whose behaviour it holds both to.
 */
let sequence = 0;
const position = (overrides: Partial<Parameters<typeof gpdPaymentPosition>[0]> = {}) => {
  sequence += 1;
  return gpdPaymentPosition(
    {
      iud: `P${String(sequence).padStart(6, '0')}`,
      iuv: gpdIuv('01', sequence),
      fiscalCode: 'RSSMRA80A01H501U',
      fullName: 'Rossi Mario',
      amountCents: 4350,
      description: 'Servizio pasti',
      dueDay,
      ...overrides,
    },
    creditor,
  );
};

const dirs: string[] = [];
const sims: { close(): Promise<void> }[] = [];
async function setup(simOptions: Partial<GpdSimulatorOptions> = {}, clientOptions: Partial<GpdConfig> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpd-sim-'));
  dirs.push(dataDir);
  const sim = await startGpdSimulator({ port: 0, dataDir, holdMs: 2_000, ...simOptions });
  sims.push(sim);
  const client = gpdClientOn(sim, { timeoutMs: 500, ...clientOptions });
  const admin = (action: string, body: unknown) =>
    fetch(`${sim.url}/admin/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const raw = (method: string, p: string, body?: unknown) =>
    fetch(`${sim.url}${p}`, {
      method,
      headers: { 'ocp-apim-subscription-key': DEFAULT_API_KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { sim, client, admin, raw };
}
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const v1 = `/gpd/debt-positions-service/v1/organizations/${DEFAULT_ORGANIZATION.fiscalCode}`;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );

describe('positions (pagopa-debt-position openapi_external_v1.json, DebtPositionStatus.java, PublishPaymentUtil.java)', () => {
  let ctx: Awaited<ReturnType<typeof setup>>;

  it('creates a position published and payable (VALID), and reads it back by iupd with its notice number', async () => {
    ctx = await setup();
    const p = position();
    const { position: created, created: isNew } = await ctx.client.createPosition(p);
    expect(isNew).toBe(true);
    expect(created.status).toBe('VALID');
    const read = await ctx.client.getPosition(p.iupd);
    expect(read?.paymentOption[0]).toMatchObject({
      iuv: p.paymentOption[0]!.iuv,
      nav: gpdNoticeNumber(p.paymentOption[0]!.iuv),
      amount: 4350,
    });
    expect(await ctx.client.getPosition(gpdIupd('NOPE'))).toBeNull();
  });

  it('after a create whose answer was lost, the retry meets 409 (AppError DEBT_POSITION_UNIQUE_VIOLATION), reads it back, and GPD holds it once', async () => {
    ctx = await setup({ holdMs: 5_000 }, { timeoutMs: 300 });
    const p = position();
    await ctx.admin('faults', { operation: 'create', kind: 'lost-answer', times: 1 });
    const result = await ctx.client.createPosition(p);
    expect(result).toMatchObject({ created: false, position: { iupd: p.iupd, status: 'VALID' } });
    expect(Object.values(ctx.sim.state.positions).filter((x) => x.iupd === p.iupd)).toHaveLength(1);
  });

  it('refuses with 409 a create that clashes with a different position of the same iupd', async () => {
    ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    const other = {
      ...p,
      paymentOption: [
        { ...p.paymentOption[0]!, amount: 999, transfer: [{ ...p.paymentOption[0]!.transfer[0]!, amount: 999 }] },
      ],
    };
    expect(await refusal(ctx.client.createPosition(other))).toMatchObject({
      name: 'GpdRefused',
      status: 409,
      title: 'The debt position violated constraints of uniqueness',
    });
  });

  it('refuses with 400 (ErrorHandler "BAD REQUEST", DebtPositionValidation) a transfer that does not add up to the option, and 403 an IUV outside the segregation code', async () => {
    ctx = await setup();
    const p = position();
    const bad = {
      ...p,
      paymentOption: [{ ...p.paymentOption[0]!, transfer: [{ ...p.paymentOption[0]!.transfer[0]!, amount: 1 }] }],
    };
    const error = (await refusal(ctx.client.createPosition(bad))) as GpdRefused;
    expect(error).toMatchObject({ status: 400, title: 'BAD REQUEST' });
    expect(error.detail).toContain('Amounts congruence error');
    const foreign = position({ iuv: gpdIuv('02', 5) });
    expect(await refusal(ctx.client.createPosition(foreign))).toMatchObject({
      status: 403,
      title: 'The payment position is forbidden',
    });
    expect(Object.keys(ctx.sim.state.positions)).toHaveLength(0);
  });

  it('an update keeps the position payable (toPublish=true); an update without it would put it in DRAFT, and publish makes it VALID again', async () => {
    ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    const changed = {
      ...p,
      paymentOption: [
        { ...p.paymentOption[0]!, amount: 5000, transfer: [{ ...p.paymentOption[0]!.transfer[0]!, amount: 5000 }] },
      ],
    };
    expect(await ctx.client.updatePosition(changed)).toMatchObject({
      status: 'VALID',
      paymentOption: [{ amount: 5000 }],
    });
    const draft = await ctx.raw('PUT', `${v1}/debtpositions/${p.iupd}`, changed);
    expect(((await draft.json()) as { status: string }).status).toBe('DRAFT');
    expect(await ctx.client.publishPosition(p.iupd)).toMatchObject({ status: 'VALID' });
  });

  it('a cancellation invalidates for good (again: the same outcome); a paid position refuses update and invalidate with 409', async () => {
    ctx = await setup();
    const cancelled = position();
    await ctx.client.createPosition(cancelled);
    expect((await ctx.client.invalidatePosition(cancelled.iupd)).status).toBe('INVALID');
    expect((await ctx.client.invalidatePosition(cancelled.iupd)).status).toBe('INVALID');
    expect(await refusal(ctx.client.updatePosition(cancelled))).toMatchObject({ status: 409 });

    const paid = position();
    await ctx.client.createPosition(paid);
    await ctx.admin('paid', { navs: [paid.paymentOption[0]!.nav] });
    expect(await refusal(ctx.client.updatePosition(paid))).toMatchObject({
      status: 409,
      title: 'Existing related payment found or not in updatable state',
    });
    expect(await refusal(ctx.client.invalidatePosition(paid.iupd))).toMatchObject({ status: 409 });
  });
});

describe('bulk create (openapi_external_v2.json createMultiplePositions: at most 100, all or nothing)', () => {
  it('creates 100 at once; with one already there (409 for all) the others still get created, each once', async () => {
    const ctx = await setup();
    const batch = Array.from({ length: 100 }, () => position());
    expect((await ctx.client.createPositions(batch)).created).toHaveLength(100);
    expect(Object.keys(ctx.sim.state.positions)).toHaveLength(100);

    const next = Array.from({ length: 5 }, () => position());
    await ctx.client.createPosition(next[2]!);
    const result = await ctx.client.createPositions(next);
    expect(result.created.sort()).toEqual(next.map((p) => p.iupd).sort());
    expect(Object.keys(ctx.sim.state.positions)).toHaveLength(105);
    await expect(ctx.client.createPositions(Array.from({ length: 101 }, () => position()))).rejects.toThrow(/100/);
  });

  it('refuses 101 positions in one call itself (the simulator answers 400), and with one malformed position creates the others and names the bad one', async () => {
    const ctx = await setup();
    const tooMany = await ctx.raw(
      'POST',
      `/gpd/debt-positions-service/v2/organizations/${DEFAULT_ORGANIZATION.fiscalCode}/debtpositions?toPublish=true`,
      { paymentPositions: Array.from({ length: 101 }, () => position()) },
    );
    expect(tooMany.status).toBe(400);
    const batch = Array.from({ length: 4 }, () => position());
    batch[1] = { ...batch[1]!, companyName: 'x'.repeat(141) };
    const result = await ctx.client.createPositions(batch);
    expect(result.created).toHaveLength(3);
    expect(result.refused.map((r) => [r.iupd, r.error.status])).toEqual([[batch[1]!.iupd, 400]]);
  });
});

describe('list by date window (openapi_external_v1.json getOrganizationDebtPositions; AppError DEBT_POSITION_NOT_RECOVERABLE)', () => {
  it('finds the positions paid in a window of at most 30 days, and refuses a longer one', async () => {
    const ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    await ctx.client.createPosition(position());
    await ctx.admin('paid', { navs: [p.paymentOption[0]!.nav] });
    const today = new Date().toISOString().slice(0, 10);
    const paid = await ctx.client.listPositions({ paymentDateFrom: today, paymentDateTo: today, status: 'PAID' });
    expect(paid.map((x) => x.iupd)).toEqual([p.iupd]);
    expect(paid[0]!.paymentOption[0]).toMatchObject({ status: 'PO_PAID', idReceipt: expect.any(String) });
    expect(
      await refusal(ctx.client.listPositions({ paymentDateFrom: '2026-01-01', paymentDateTo: '2026-03-01' })),
    ).toMatchObject({ status: 400, title: 'The debt positions cannot be recovered' });
  });
});

describe('list in pages (DebtPositionController.getOrganizationDebtPositions, CommonUtil.buildPageInfo, ExclusiveParamGroup)', () => {
  it('pages of at most 50 in the order asked, page_info as GPD fills it; the client follows every page', async () => {
    const ctx = await setup();
    const batch = Array.from({ length: 105 }, () => position());
    await ctx.client.createPositions(batch.slice(0, 100));
    await ctx.client.createPositions(batch.slice(100));
    const list = (query: string) =>
      ctx.raw(
        'GET',
        `/gpd/debt-positions-service/v1/organizations/${DEFAULT_ORGANIZATION.fiscalCode}/debtpositions?${query}`,
      );
    const day = dueDay;
    const last = await list(`limit=50&page=2&orderby=IUPD&ordering=ASC&due_date_from=${day}&due_date_to=${day}`);
    expect(last.status).toBe(200);
    const body = await last.json();
    // items_found is the number on this page (Page.getNumberOfElements), not the total.
    expect(body.page_info).toEqual({ page: 2, limit: 50, items_found: 5, total_pages: 3 });
    expect(body.payment_position_list.map((p: { iupd: string }) => p.iupd)).toEqual(
      batch
        .map((p) => p.iupd)
        .sort()
        .slice(100),
    );
    const descending = await (await list('limit=3&orderby=IUPD&ordering=DESC')).json();
    expect(descending.payment_position_list.map((p: { iupd: string }) => p.iupd)).toEqual(
      batch
        .map((p) => p.iupd)
        .sort()
        .reverse()
        .slice(0, 3),
    );
    // Default: 10 a page.
    expect((await (await list('')).json()).page_info).toMatchObject({ limit: 10, items_found: 10, total_pages: 11 });
    expect((await list('limit=51')).status).toBe(400);
    expect((await list(`due_date_from=${day}&payment_date_from=${day}`)).status).toBe(400);

    const before = ctx.sim.counters.calls.list ?? 0;
    const all = await ctx.client.listPositions({ dueDateFrom: day, dueDateTo: day });
    expect(all.map((p) => p.iupd).sort()).toEqual(batch.map((p) => p.iupd).sort());
    expect((ctx.sim.counters.calls.list ?? 0) - before).toBe(3);
  });
});

describe('faults, rate limit and deadline', () => {
  it('retries a 5xx and gets through; a 5xx that lasts is GpdUnavailable', async () => {
    const ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    await ctx.admin('faults', { operation: 'get', kind: '5xx', times: 2 });
    expect((await ctx.client.getPosition(p.iupd))?.iupd).toBe(p.iupd);
    await ctx.admin('faults', { operation: 'get', kind: '5xx', times: 'always' });
    expect(await refusal(ctx.client.getPosition(p.iupd))).toBeInstanceOf(GpdUnavailable);
  });

  it('a call that hangs ends within the deadline as GpdUnavailable', async () => {
    const ctx = await setup({}, { timeoutMs: 5_000 });
    await ctx.admin('faults', { operation: 'get', kind: 'timeout', times: 'always' });
    const error = await refusal(ctx.client.getPosition(gpdIupd('X1'), { deadline: Date.now() + 300 }));
    expect(error).toBeInstanceOf(GpdUnavailable);
  });

  it('over the limit of calls per key GPD answers 429; the client slows down and every call gets through', async () => {
    const ctx = await setup({ rateLimit: 3, rateWindowMs: 200 }, { pacer: makePacer(1000) });
    const p = position();
    await ctx.client.createPosition(p);
    const reads = await Promise.all(Array.from({ length: 8 }, () => ctx.client.getPosition(p.iupd)));
    expect(reads.every((r) => r?.iupd === p.iupd)).toBe(true);
    expect(ctx.sim.counters.rateLimited).toBeGreaterThan(0);
  });

  it('the quota spent by another system (switch rate-limited): the next calls get 429 without a body, then GPD answers; bad input changes nothing', async () => {
    const ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    expect(await ctx.admin('rate-limited', { times: 'tre' })).toEqual({ error: 'times: a whole number, 0 or more' });
    expect((await ctx.raw('GET', `${v1}/debtpositions/${p.iupd}`)).status).toBe(200);
    expect((await ctx.admin('rate-limited', { times: 2 })).switches.rateLimited).toBe(2);
    const first = await ctx.raw('GET', `${v1}/debtpositions/${p.iupd}`);
    expect([first.status, await first.text()]).toEqual([429, '']);
    expect((await ctx.client.getPosition(p.iupd))?.iupd).toBe(p.iupd);
    expect(ctx.sim.counters.rateLimited).toBe(2);
  });

  it('refuses a wrong key with 401', async () => {
    const ctx = await setup({}, { apiKey: 'wrong' });
    expect(await refusal(ctx.client.getPosition(gpdIupd('X1')))).toMatchObject({ name: 'GpdRefused', status: 401 });
  });
});

describe('Checkout cart and receipts (pagopa-api checkout_v1.json, gpd_payments.json; pagopa-gpd-payments paForNode.xsd)', () => {
  const cartOf = (ps: ReturnType<typeof position>[], tag: string) => ({
    paymentNotices: ps.map((p) => ({
      noticeNumber: p.paymentOption[0]!.nav,
      fiscalCode: creditor.fiscalCode,
      amount: p.paymentOption[0]!.amount,
      companyName: creditor.companyName,
      description: p.paymentOption[0]!.description,
    })),
    returnUrls: {
      returnOkUrl: `http://portal.test/pagamenti/esito/${tag}?esito=ok`,
      returnCancelUrl: `http://portal.test/pagamenti/esito/${tag}?esito=annullato`,
      returnErrorUrl: `http://portal.test/pagamenti/esito/${tag}?esito=errore`,
    },
  });

  it('pays three notices in one cart, comes back to the OK address as given, and the receipts arrive by day', async () => {
    const ctx = await setup();
    const ps = [position(), position(), position()];
    await ctx.client.createPositions(ps);
    const url = await ctx.client.openCart(cartOf(ps, 'c1'));
    expect(url.startsWith(ctx.sim.url)).toBe(true);
    const back = await fetch(url, { method: 'POST', body: new URLSearchParams({ esito: 'OK' }), redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('http://portal.test/pagamenti/esito/c1?esito=ok');
    const today = new Date().toISOString().slice(0, 10);
    const listed = await ctx.client.receipts(today, today);
    expect(listed.map((r) => r.iuv).sort()).toEqual(ps.map((p) => p.paymentOption[0]!.iuv).sort());
    const receipt = await ctx.client.receipt(ps[0]!.paymentOption[0]!.iuv);
    expect(receipt).toMatchObject({
      iuv: ps[0]!.paymentOption[0]!.iuv,
      noticeNumber: ps[0]!.paymentOption[0]!.nav,
      amountCents: 4350,
      debtorFiscalCode: 'RSSMRA80A01H501U',
    });
    expect(receipt!.receiptId).toMatch(/^[0-9a-f]{32}$/);
    expect((await ctx.client.getPosition(ps[1]!.iupd))?.status).toBe('PAID');
  });

  it('a receipt held back is not listed until pagoPA delivers it, while the position already reads PAID', async () => {
    const ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    await ctx.admin('receipts', { hold: true });
    const url = await ctx.client.openCart(cartOf([p], 'c2'));
    await fetch(url, { method: 'POST', body: new URLSearchParams({ esito: 'OK' }), redirect: 'manual' });
    const today = new Date().toISOString().slice(0, 10);
    expect(await ctx.client.receipts(today, today)).toEqual([]);
    expect(await ctx.client.receipt(p.paymentOption[0]!.iuv)).toBeNull();
    expect((await ctx.client.getPosition(p.iupd))?.status).toBe('PAID');
    await ctx.admin('receipts', { hold: false });
    expect((await ctx.client.receipts(today, today)).map((r) => r.iuv)).toEqual([p.paymentOption[0]!.iuv]);
  });

  it('a cancelled checkout goes back to the cancel address and pays nothing; six notices are refused with 400', async () => {
    const ctx = await setup();
    const p = position();
    await ctx.client.createPosition(p);
    const url = await ctx.client.openCart(cartOf([p], 'c3'));
    const back = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ esito: 'CANCEL' }),
      redirect: 'manual',
    });
    expect(back.headers.get('location')).toBe('http://portal.test/pagamenti/esito/c3?esito=annullato');
    expect((await ctx.client.getPosition(p.iupd))?.status).toBe('VALID');
    const six = Array.from({ length: 6 }, () => position());
    expect(await refusal(ctx.client.openCart(cartOf(six, 'c4')))).toMatchObject({ name: 'GpdRefused', status: 400 });
  });
});
