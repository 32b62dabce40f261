import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { gpdPaymentMessages, messages } from '../../functions/domain/messages.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { mypayConfiguration, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { gpdAdmin, onGpd, publishMonth } from '../support/gpd.ts';
import { iseeDates, monthFromNow } from '../support/months.ts';
import { municipality } from '../../web/src/config/municipality.ts';

/**
 * The citizen pays several months at once (issue 37), over the real local stack, on either payment platform (this
 * file runs in the integration project on MyPay and in integration-gpd on pagoPA GPD): on GPD a Checkout cart of up
 * to five notices, the positions 'in verifica' until pagoPA's receipts arrive, then recorded by the reporting with
 * amount, date, PSP and receipt id; on MyPay one notice per checkout. Bad carts change nothing.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let citizen: Client;
let otherCitizen: Client;
let mariaId: string;
// The current month and the two before it (test/support/months.ts).
const months = [-2, -1, 0].map((offset) => monthFromNow(offset).period);
const key = (p: { mese: number; anno: number }) => `${p.anno}-${String(p.mese).padStart(2, '0')}`;

beforeAll(async () => {
  [operator, citizen, otherCitizen] = await Promise.all([as('operator'), as('citizen'), as('newCitizen')]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  mariaId = (await citizen.get('/api/me')).json.userId;
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

/** Maria Rossi approved on a new call, with her positions of this month and the two before exported. */
async function mariaOwesThreeMonths() {
  const { call } = await openCall(operator);
  const isee = await operator.post(`/api/users/${mariaId}/isee`, {
    value: 8000,
    ...iseeDates(),
    protocollo: 'INPS-ISEE-2026-00000003C-00',
    excludeVerification: true,
  });
  expect(isee.status).toBe(201);
  const enrolled = await operator.post(`/api/calls/${call.id}/enrolments`, { userId: mariaId });
  expect((await operator.put(`/api/enrolments/${enrolled.json.id}/state`, { state: 2, weeklyHour: 2 })).status).toBe(
    200,
  );
  for (const period of months) {
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, period)).json.created).toBe(1);
    await publishMonth(operator, call.id, period);
  }
  const mine = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items;
  await expect.poll(async () => (await mine()).filter((p: { nav: string | null }) => p.nav).length).toBe(3);
  return { call, positions: await mine() };
}

const stored = async (callId: string) =>
  (await Promise.all(months.map(async (p) => (await storedPositions(callId, key(p)))[0]!))).sort((a, b) =>
    String(a.iud).localeCompare(String(b.iud)),
  );

describe('several months at once', () => {
  it('bad carts are refused in Italian and change nothing: too many, none, one twice, another citizen’s', async () => {
    const { call, positions } = await mariaOwesThreeMonths();
    const returnPath = `/iscrizioni/visualizza_servizio?id=${call.id}`;
    const ids = positions.map((p: { iud: string }) => p.iud);
    const before = await stored(call.id);
    const six = [...ids, 'P1', 'P2', 'P3'];
    const tooMany = await citizen.post('/api/me/payments/cart', { ids: six, returnPath });
    expect([tooMany.status, tooMany.json.detail]).toEqual([
      400,
      onGpd() ? 'Puoi pagare al massimo 5 avvisi alla volta: selezionane di meno.' : gpdPaymentMessages.cartOne,
    ]);
    const none = await citizen.post('/api/me/payments/cart', { ids: [], returnPath });
    expect([none.status, none.json.detail]).toEqual([400, gpdPaymentMessages.cartEmpty]);
    if (onGpd()) {
      const twice = await citizen.post('/api/me/payments/cart', { ids: [ids[0], ids[0]], returnPath });
      expect([twice.status, twice.json.detail]).toEqual([400, gpdPaymentMessages.cartRepeated]);
    }
    const notHers = await otherCitizen.post('/api/me/payments/cart', { ids: [ids[0]], returnPath });
    expect([notHers.status, notHers.json.detail]).toEqual([404, messages.payment.notFound]);
    expect(await stored(call.id)).toEqual(before);
    expect((await citizen.get('/api/me/payments/options')).json).toEqual(
      onGpd() ? { platform: 'gpd', cartSize: 5 } : { platform: 'mypay', cartSize: 1 },
    );
  });

  it.runIf(onGpd())(
    'pays three months in one pagoPA Checkout cart: in verifica until the receipts arrive, then paid by the reporting with amount, date, PSP and receipt id; once',
    async () => {
      const { call, positions } = await mariaOwesThreeMonths();
      const ids = positions.map((p: { iud: string }) => p.iud);
      const returnPath = `/iscrizioni/visualizza_servizio?id=${call.id}`;
      await gpdAdmin('receipts', { hold: true });
      const cart = await citizen.post('/api/me/payments/cart', { ids, returnPath });
      expect(cart.status).toBe(200);
      // pagoPA Checkout's page names the council the citizen sees on the portal; she pays, and Checkout sends her
      // back to the portal's own page, as given.
      const checkoutPage = await (await fetch(cart.json.url)).text();
      expect(checkoutPage).toContain(municipality.name);
      const paid = await fetch(cart.json.url, {
        method: 'POST',
        body: new URLSearchParams({ esito: 'OK' }),
        redirect: 'manual',
      });
      const back = new URL(paid.headers.get('location')!);
      expect(`${back.origin}${back.pathname}`).toBe(`${inject('appUrl')}/iscrizioni/visualizza_servizio`);
      expect(back.searchParams.get('idSession')).toBe(cart.json.idSession);
      // The return proves nothing: pagoPA's receipts have not reached the council yet.
      const answer = await citizen.post('/api/me/payments/return', { idSession: cart.json.idSession });
      expect(answer.json).toMatchObject({ esito: 'PENDING', recorded: false, message: gpdPaymentMessages.verifying });
      const listed = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items;
      await expect
        .poll(async () => (await listed()).map((p: { inVerifica: boolean; badge: string }) => [p.badge, p.inVerifica]))
        .toEqual(ids.map(() => ['Da pagare', true]));
      expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({ marked: 0 });

      // The receipts arrive; the reporting (daily, or a few minutes after the checkout) records them.
      await gpdAdmin('receipts', { hold: false });
      expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
        marked: 3,
        toReconcile: 0,
        unmatched: 0,
      });
      for (const item of await stored(call.id))
        expect(item).toMatchObject({
          isPagato: true,
          importoTotalePagato: item.importoDovuto,
          iur: expect.stringMatching(/^[0-9a-f]{32}$/),
          pagamenti: [expect.objectContaining({ psp: 'Banca Simulata S.p.A.', importo: item.importoDovuto })],
        });
      await expect
        .poll(async () => (await listed()).map((p: { badge: string }) => p.badge))
        .toEqual(['Pagato', 'Pagato', 'Pagato']);
      // The return after the receipts, and a second reporting, record nothing twice.
      const again = await citizen.post('/api/me/payments/return', { idSession: cart.json.idSession });
      expect(again.json).toMatchObject({ esito: 'PAID', recorded: false });
      expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
        marked: 0,
        alreadyPaid: 3,
      });
      // A paid one cannot be put in a cart again.
      const paidAgain = await citizen.post('/api/me/payments/cart', { ids: [ids[0]], returnPath });
      expect(paidAgain.status).toBe(409);
    },
  );
});
