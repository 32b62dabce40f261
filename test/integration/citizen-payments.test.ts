import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { paymentKeys } from '../../functions/adapters/table.ts';
import { messages, paymentOutcomeMessages, positionOpsMessages } from '../../functions/domain/messages.ts';
import { as } from '../support/api.ts';
import { callFields, openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import { randomFiscalCode } from '../support/isee.ts';
import { approvedSubscriber, mariaWithPosition, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { stackMyPay, switchStackMyPay } from '../support/mypay-simulator.ts';
import { gpdAdmin, onGpd, publishMonth } from '../support/gpd.ts';
import { paidOutsidePortal, payOnPlatformPage, platformText } from '../support/platform.ts';
import { billedMonth, pastMonth } from '../support/months.ts';

/**
 * A citizen pays a position through MyPay (the simulator, which follows MyPay4), over the real local stack;
 * the operators read a citizen's positions; 'Rendicontazione' records what MyPay reports paid; what
 * MyPay collected is never dropped (issue 21). Project integration-gpd runs it on pagoPA GPD (issue 37): the same
 * rules through pagoPA Checkout and GPD's receipts; what only MyPay has (its landing, its modes, a notice paid twice)
 * is asserted on MyPay only.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
let citizen: Client;
let otherCitizen: Client;
let mariaId: string;
const month = billedMonth();
const billed = month.period;
const simulator = stackMyPay;

/** A switch of the stack's simulator (reset and receipts on both; paid again, age on MyPay). */
const admin = (action: string, body: object) => (onGpd() ? gpdAdmin(action, body) : switchStackMyPay(action, body));

beforeAll(async () => {
  [operator, delegate, citizen, otherCitizen] = await Promise.all([
    as('operator'),
    as('delegate'),
    as('citizen'),
    as('newCitizen'),
  ]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  mariaId = (await citizen.get('/api/me')).json.userId;
  expect(mariaId).toBeTruthy();
});
afterAll(() => admin('reset', {}));

/** An open call on which Maria Rossi (the 'citizen' persona) is approved with 2 hours, and her position of `period` (November by default). */
async function mariaOwes(period = billed, options: { exported?: boolean } = { exported: true }) {
  const opened = await openCall(operator);
  const { call } = opened;
  await mariaWithPosition(operator, call.id, mariaId, period);
  // Sent to MyPay first (IUV and notice number), as the council does every month: only then can it be paid.
  if (options.exported !== false) await publishMonth(operator, call.id, period);
  // Her list reads a global index: it shows the position (and the export's notice number) a moment later, as on a reload.
  const mine = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items;
  await expect
    .poll(async () => (await mine()).filter((p: { nav: string | null }) => options.exported === false || p.nav).length)
    .toBe(1);
  return { call, position: (await mine())[0], opened };
}

const monthKey = (period: { mese: number; anno: number }) => `${period.anno}-${String(period.mese).padStart(2, '0')}`;
const returnPath = (callId: string) => `/iscrizioni/visualizza_servizio?id=${callId}`;

/** What a browser does: the platform's page (MyPay's landing and checkout page, or pagoPA Checkout), one button, back to the portal. */
const checkout = payOnPlatformPage;

/** The position item as stored (with what the API never shows). */
const stored = async (callId: string, period = billed) => (await storedPositions(callId, monthKey(period)))[0]!;

/** Half an hour goes by: the portal's hold on the position lapses while the citizen is still on MyPay's page. */
async function holdLapses(callId: string, period = billed) {
  const item = await stored(callId, period);
  await localTable().putItem({ ...item, checkoutUntil: '2000-01-01T00:00:00.000Z' });
  await localTable().deleteItem(paymentKeys.checkoutMarker(callId, monthKey(period), item.iud as string));
}

describe('the citizen pays a position', () => {
  // MyPay's landing, its notice ZIP and its answer on the return; on GPD citizen-cart.test.ts pays through Checkout.
  it.skipIf(onGpd())('lists her own position, pays it on MyPay, and a second return pays nothing twice', async () => {
    const { call, position } = await mariaOwes();
    expect(position).toMatchObject({ badge: 'Da pagare', payable: true, inCorso: false, dataScadenza: month.dueDay });
    expect(position.nav).toMatch(/^3\d{17}$/);
    // The export brought MyPay's notice back: a short-lived link to this position's PDF.
    const notice = await fetch(position.noticeUrl as string);
    expect([notice.status, notice.headers.get('content-type'), new URL(position.noticeUrl as string).pathname]).toEqual(
      [200, 'application/pdf', expect.stringContaining(`/notices/${position.iud}.pdf`)],
    );
    // Another citizen sees none of it.
    expect((await otherCitizen.get(`/api/me/positions?callId=${call.id}`)).json.items).toEqual([]);

    const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    expect(paid.status).toBe(200);
    // paaSILVerificaAvviso's landing (the council's own MyPay credentials, never the Region's).
    expect(new URL(paid.json.url).pathname).toBe('/public/landing/inviaDovuti');
    const back = await checkout(paid.json.url, 'success');
    expect(`${back.origin}${back.pathname}`).toBe(`${inject('appUrl')}/iscrizioni/visualizza_servizio`);
    expect(back.searchParams.get('id')).toBe(call.id);
    expect(back.searchParams.get('esito')).toBe('OK');
    const idSession = back.searchParams.get('idSession')!;
    expect(idSession).toBe(paid.json.idSession);

    const first = await citizen.post('/api/me/payments/return', { idSession });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      esito: 'PAID',
      recorded: true,
      message: paymentOutcomeMessages.paid,
      position: {
        badge: 'Pagato',
        isPagato: true,
        payable: false,
        importoTotalePagato: position.importoDovuto,
        codIuv: position.codIuv,
      },
    });
    const reload = await citizen.post('/api/me/payments/return', { idSession });
    expect(reload.json).toMatchObject({ esito: 'PAID', recorded: false, message: paymentOutcomeMessages.paidBefore });
    const item = await stored(call.id);
    expect(item).toMatchObject({ isPagato: true, importoTotalePagato: position.importoDovuto });
    expect(item.dataEsitoSingoloPagamento).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(item.iur).toMatch(/^IUR/);
    expect(item.checkoutUntil ?? null).toBeNull();

    // Paying again is refused; the operator and the delegate see it paid in the user record.
    expect(
      (await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) })).status,
    ).toBe(409);
    // The user record's list reads a global index: paid a moment later, as on a reload.
    for (const reader of [operator, delegate]) {
      const badge = async () =>
        (await reader.get(`/api/users/${mariaId}/positions`)).json.items.find(
          (p: { iud: string }) => p.iud === position.iud,
        )?.badge;
      await expect.poll(badge).toBe('Pagato');
    }
    // The reporting finds the same receipt: nothing changes.
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
      marked: 0,
      alreadyPaid: 1,
      toReconcile: 0,
    });
  });

  // MyPay's modes of paaSILChiediPagati; GPD's 'Pagamento in verifica' until the receipts: citizen-cart.test.ts.
  it.skipIf(onGpd())(
    'a second Paga while the checkout lives resumes it (never a second payment); with the modello unico a refused, cancelled or paid-but-unreceipted checkout reads ‘Pagamento in verifica’ (not 503, not expired) until MyPay knows; a forged esito=OK changes nothing',
    async () => {
      const { call, position } = await mariaOwes();
      const first = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
      const second = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
      expect(second.json).toEqual({ url: first.json.url, idSession: first.json.idSession, resumed: true });
      // The citizen's list reads a global index: the live checkout shows a moment later, as on a reload.
      const listed = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items[0];
      await expect.poll(listed).toMatchObject({ inCorso: true, badge: 'Da pagare' });
      for (const choice of ['failure', 'cancel'] as const) {
        const back = await checkout(first.json.url, choice);
        expect(back.searchParams.get('esito')).toBe('ERROR');
        // The URL's esito is never trusted: even a body claiming OK gets MyPay's own answer — here, none yet.
        const answer = await citizen.post('/api/me/payments/return', {
          idSession: back.searchParams.get('idSession'),
          esito: 'OK',
        });
        expect(answer.status).toBe(200);
        expect(answer.json).toMatchObject({
          esito: 'PENDING',
          recorded: false,
          message: paymentOutcomeMessages.verifying,
          position: { badge: 'Da pagare', payable: false, inCorso: true, inVerifica: true, isPagato: false },
        });
      }
      // While the outcome is not known she is not invited to pay again: no 'Paga' nor 'Riprendi il pagamento', and a
      // 'Paga' sent anyway says what she can do instead.
      await expect.poll(listed).toMatchObject({ inVerifica: true, payable: false });
      const refused = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
      expect(refused.status).toBe(409);
      expect(refused.json.detail).toMatch(
        /^Pagamento in verifica: .*Se hai pagato non pagare di nuovo.*potrai pagare di nuovo dal /,
      );
      // She pays; pagoPA's receipt has not reached MyPay yet: MyPay cannot tell, for over an hour, and the portal says so.
      await admin('receipts', { hold: true });
      const back = await checkout(first.json.url, 'success');
      const idSession = back.searchParams.get('idSession')!;
      const verifying = { esito: 'PENDING', recorded: false, message: paymentOutcomeMessages.verifying };
      expect((await citizen.post('/api/me/payments/return', { idSession })).json).toMatchObject(verifying);
      await admin('age', { idSession, minutes: 61 }); // PAA_ID_SESSION_NON_VALIDO
      const notValid = await citizen.post('/api/me/payments/return', { idSession });
      expect([notValid.status, notValid.json]).toMatchObject([200, verifying]);
      await admin('age', { idSession, minutes: 5 }); // PAA_PAGAMENTO_SCADUTO
      expect((await citizen.post('/api/me/payments/return', { idSession })).json).toMatchObject(verifying);
      expect((await stored(call.id)).isPagato).toBe(false);
      // The receipt arrives: asked again, the payment is recorded.
      await admin('receipts', { hold: false });
      expect((await citizen.post('/api/me/payments/return', { idSession })).json).toMatchObject({
        esito: 'PAID',
        recorded: true,
        position: { badge: 'Pagato' },
      });
    },
  );

  // What MyPay's landing refuses (its CAP check); pagoPA Checkout has no such check.
  it.skipIf(onGpd())(
    'says what the office must fix instead of sending the citizen to MyPay’s error page: her CAP is not an Italian 5-digit one',
    async () => {
      const { call, position } = await mariaOwes();
      const user = await localTable().item({ pk: `USER#${mariaId}`, sk: 'USER' });
      await localTable().putItem({ ...user, cap: '0018', nation: 'IT' });
      try {
        const refused = await citizen.post(`/api/me/positions/${position.iud}/pay`, {
          returnPath: returnPath(call.id),
        });
        expect(refused.status).toBe(409);
        expect(refused.json.detail).toContain('il CAP «0018»');
        expect(refused.json.detail).toContain('l’ufficio deve correggerlo');
        expect((await stored(call.id)).checkoutUntil ?? null).toBeNull();
      } finally {
        await localTable().putItem(user!);
      }
    },
  );

  it('builds the return address from the portal’s own address: Origin, Host and X-Forwarded-Host decide nothing; a site or a foreign page is a 400', async () => {
    const { call, position } = await mariaOwes();
    const pay = await fetch(`${inject('appUrl')}/api/me/positions/${position.iud}/pay`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${citizen.token}`,
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
      },
      body: JSON.stringify({ returnPath: returnPath(call.id) }),
    });
    expect(pay.status).toBe(200);
    // The page to come back to went to MyPay in paaSILVerificaAvviso (enteSILInviaRispostaPagamentoUrl): MyPay sends her there.
    const back = await checkout(((await pay.json()) as { url: string }).url, 'cancel');
    expect(`${back.origin}${back.pathname}?id=${back.searchParams.get('id')}`).toBe(
      `${inject('appUrl')}/iscrizioni/visualizza_servizio?id=${call.id}`,
    );
    for (const bad of [
      {},
      { returnUrl: 'https://evil.example/iscrizioni/visualizza_servizio' },
      { returnPath: 'https://evil.example/iscrizioni' },
      { returnPath: '//evil.example/iscrizioni' },
      { returnPath: '/lista_utenti' },
    ]) {
      const refused = await citizen.post(`/api/me/positions/${position.iud}/pay`, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.json.detail).toBe(messages.payment.returnUrl);
    }
  });

  it('answers 404 for another citizen’s position or session, 409 for a position not yet sent to MyPay, 400 for bad input, changing nothing', async () => {
    const { call, position } = await mariaOwes();
    const notMine = await otherCitizen.post(`/api/me/positions/${position.iud}/pay`, {
      returnPath: returnPath(call.id),
    });
    expect(notMine.status).toBe(404);
    expect(notMine.json.detail).toBe(messages.payment.notFound);
    expect(
      (
        await citizen.post('/api/me/positions/P2026110000000000000000000000000000/pay', {
          returnPath: returnPath(call.id),
        })
      ).status,
    ).toBe(404);

    const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    const back = await checkout(paid.json.url, 'success');
    const idSession = back.searchParams.get('idSession');
    const stolen = await otherCitizen.post('/api/me/payments/return', { idSession });
    expect(stolen.status).toBe(404);
    expect(stolen.json.detail).toBe(messages.payment.sessionNotFound);
    expect((await citizen.post('/api/me/payments/return', { idSession: 'sessione-inventata' })).status).toBe(404);
    expect((await stored(call.id)).isPagato).toBe(false);
    expect((await citizen.post('/api/me/payments/return', {})).status).toBe(400);
    // The owner's return records it, once.
    expect((await citizen.post('/api/me/payments/return', { idSession })).json).toMatchObject({
      esito: 'PAID',
      recorded: true,
    });

    const notSent = await mariaOwes(pastMonth().period, { exported: false });
    expect(notSent.position).toMatchObject({ payable: false, nav: null });
    const early = await citizen.post(`/api/me/positions/${notSent.position.iud}/pay`, {
      returnPath: returnPath(notSent.call.id),
    });
    expect([early.status, early.json.detail]).toEqual([409, platformText(paymentOutcomeMessages.notIssued)]);
  });
});

describe('a payment MyPay collected never disappears (issue 21)', () => {
  it('refuses to edit or cancel the amount while the checkout lives (409, nothing changed), and Sincronizza and the export of its month', async () => {
    const { call, position } = await mariaOwes();
    const paying = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    expect(paying.status).toBe(200);
    const before = await stored(call.id);
    for (const importo of [10, 0]) {
      const refused = await operator.put(`/api/positions/${position.iud}`, { descrizione: 'Quota rivista', importo });
      expect([refused.status, refused.json.detail]).toEqual([409, platformText(positionOpsMessages.checkoutLive)]);
    }
    const sync = await operator.post(`/api/calls/${call.id}/positions/sync`, {});
    expect([sync.status, sync.json.detail]).toEqual([409, platformText(positionOpsMessages.checkoutLiveCall)]);
    for (const path of ['positions/generate', 'positions/csv', 'exports']) {
      const refused = await operator.post(`/api/calls/${call.id}/${path}`, billed);
      expect([refused.status, refused.json.detail], path).toEqual([
        409,
        platformText(positionOpsMessages.checkoutLiveMonth),
      ]);
    }
    const single = await operator.post(`/api/calls/${call.id}/exports`, {
      ...billed,
      fiscalCode: 'RSSMRA85C52H501N',
    });
    expect(single.status).toBe(409);
    const after = await stored(call.id);
    expect({ ...after, checkoutUntil: undefined }).toEqual({ ...before, checkoutUntil: undefined });
    // The payment arrives: recorded as due; the reporting after it changes nothing.
    const back = await checkout(paying.json.url, 'success');
    expect(
      (await citizen.post('/api/me/payments/return', { idSession: back.searchParams.get('idSession') })).json,
    ).toMatchObject({ esito: 'PAID', recorded: true, position: { badge: 'Pagato', riconciliazione: null } });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
      marked: 0,
      alreadyPaid: 1,
    });
  });

  it('a position cancelled during a checkout whose payment then arrives: recorded, Pagato for the citizen, to reconcile for the operators; the reporting changes nothing', async () => {
    const { call, position } = await mariaOwes();
    const paying = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    await holdLapses(call.id);
    const cancelled = await operator.put(`/api/positions/${position.iud}`, { descrizione: 'Annullata', importo: 0 });
    expect(cancelled.json).toMatchObject({ annullato: true, importoDovuto: 0 });
    // The citizen was still on pagoPA's page: MyPay collects the amount it holds.
    const back = await checkout(paying.json.url, 'success');
    const answer = await citizen.post('/api/me/payments/return', { idSession: back.searchParams.get('idSession') });
    expect(answer.json).toMatchObject({
      esito: 'PAID',
      recorded: true,
      message: paymentOutcomeMessages.paidToReconcile,
      position: { badge: 'Pagato', importoTotalePagato: position.importoDovuto },
    });
    expect(await stored(call.id)).toMatchObject({
      annullato: true,
      isPagato: true,
      importoTotalePagato: position.importoDovuto,
      riconciliazione: { motivo: 'ANNULLATA', differenza: position.importoDovuto },
    });
    const mine = async () =>
      (await operator.get(`/api/users/${mariaId}/positions`)).json.items.find(
        (p: { iud: string }) => p.iud === position.iud,
      );
    await expect.poll(mine).toMatchObject({ badge: 'Pagato', riconciliazione: { motivo: 'ANNULLATA' } });
    // The payment list: the row, its filter and the statistics box.
    for (const query of ['&chkDaRiconciliare=true', '', '&sort=-importo']) {
      const list = (await operator.get(`/api/calls/${call.id}/payment-list?anno=${billed.anno}${query}`)).json;
      expect(
        list.items.map((r: { userId: string; daRiconciliare: number }) => [r.userId, r.daRiconciliare]),
        query,
      ).toEqual([[mariaId, 1]]);
      expect(list.count).toBe(1);
    }
    expect((await operator.get(`/api/calls/${call.id}/payment-totals?anno=${billed.anno}`)).json).toMatchObject({
      daRiconciliare: 1,
      cittadiniDaRiconciliare: 1,
      differenzaDaRiconciliare: position.importoDovuto,
    });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
      marked: 0,
      alreadyPaid: 1,
    });
    expect((await stored(call.id)).pagamenti).toHaveLength(1);
  });

  // pagoPA takes one payment of a notice (a second is refused as a duplicate): MyPay's reporting only.
  it.skipIf(onGpd())(
    'two payments of one position (the checkout, then the notice paid again elsewhere): the second is recorded to reconcile by the reporting; a second run changes nothing',
    async () => {
      const { call, position } = await mariaOwes();
      const paying = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
      const back = await checkout(paying.json.url, 'success');
      expect(
        (await citizen.post('/api/me/payments/return', { idSession: back.searchParams.get('idSession') })).json
          .recorded,
      ).toBe(true);
      await admin('paid', { iuds: [position.iud], again: true });
      const first = await jobAnswer(operator, `/api/calls/${call.id}/reporting`);
      expect(first.json).toMatchObject({ marked: 1, toReconcile: 1, alreadyPaid: 1 });
      expect(await stored(call.id)).toMatchObject({
        importoTotalePagato: 2 * position.importoDovuto,
        riconciliazione: { motivo: 'PAGATA_PIU_VOLTE', differenza: position.importoDovuto },
      });
      const second = await jobAnswer(operator, `/api/calls/${call.id}/reporting`);
      expect(second.json).toMatchObject({ marked: 0, toReconcile: 0, alreadyPaid: 2 });
      await expect
        .poll(async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items[0])
        .toMatchObject({ badge: 'Pagato', importoTotalePagato: 2 * position.importoDovuto });
    },
  );

  it('Chiudi riconciliazione: the operator closes a payment to reconcile with a note; the filter and the statistics drop it, the payments stay, audited; again is 409, a delegate 403, no note 400', async () => {
    const { call, position } = await mariaOwes();
    const paying = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    // A payment to reconcile: on MyPay the notice paid twice; on GPD (one payment a notice) paid once cancelled.
    if (onGpd()) {
      await holdLapses(call.id);
      expect(
        (await operator.put(`/api/positions/${position.iud}`, { descrizione: 'Annullata', importo: 0 })).status,
      ).toBe(200);
    }
    const back = await checkout(paying.json.url, 'success');
    expect(
      (await citizen.post('/api/me/payments/return', { idSession: back.searchParams.get('idSession') })).json.recorded,
    ).toBe(true);
    if (!onGpd()) {
      await admin('paid', { iuds: [position.iud], again: true });
      expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({ toReconcile: 1 });
    }
    const motivo = onGpd() ? 'ANNULLATA' : 'PAGATA_PIU_VOLTE';
    const paidInAll = (onGpd() ? 1 : 2) * position.importoDovuto;
    const toReconcile = await stored(call.id);
    const filtered = async () =>
      (await operator.get(`/api/calls/${call.id}/payment-list?anno=${billed.anno}&chkDaRiconciliare=true`)).json;
    expect((await filtered()).count).toBe(1);
    const close = (client: Client, body: object) => client.post(`/api/positions/${position.iud}/reconciliation`, body);

    const forbidden = await close(delegate, { nota: 'Rimborso' });
    expect(forbidden.status).toBe(403);
    for (const [body, message] of [
      [{ nota: '' }, messages.positions.reconciliationNoteRequired],
      [{ nota: '   ' }, messages.positions.reconciliationNoteRequired],
      [{}, messages.positions.reconciliationNoteRequired],
      [{ nota: 'x'.repeat(501) }, messages.positions.reconciliationNoteTooLong],
    ] as const) {
      const refused = await close(operator, body);
      expect([refused.status, refused.json.detail], JSON.stringify(body).slice(0, 40)).toEqual([400, message]);
    }
    expect(await stored(call.id)).toEqual(toReconcile);

    const nota = 'Rimborsati 66,43 € il 2/12 con bonifico';
    const closed = await close(operator, { nota, updatedAt: toReconcile.updatedAt });
    expect(closed.status).toBe(200);
    expect(closed.json).toMatchObject({
      riconciliazione: null,
      riconciliazioneChiusa: { motivo, differenza: position.importoDovuto, nota },
      importoTotalePagato: paidInAll,
    });
    const after = await stored(call.id);
    expect(after.pagamenti).toEqual(toReconcile.pagamenti);
    // The filter no longer finds it; the statistics box drops it; the user record says who closed it, when and why.
    expect(await filtered()).toMatchObject({ items: [], count: 0 });
    expect((await operator.get(`/api/calls/${call.id}/payment-totals?anno=${billed.anno}`)).json).toMatchObject({
      daRiconciliare: 0,
      cittadiniDaRiconciliare: 0,
      differenzaDaRiconciliare: 0,
    });
    const onRecord = async () =>
      (await operator.get(`/api/users/${mariaId}/positions`)).json.items.find(
        (p: { iud: string }) => p.iud === position.iud,
      );
    await expect.poll(onRecord).toMatchObject({
      badge: 'Pagato',
      riconciliazione: null,
      riconciliazioneChiusa: { nota, chiusaDa: expect.any(String), chiusaIl: expect.any(String) },
    });
    // The citizen reads 'Pagato'; the office's note is not hers.
    const hers = (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items[0];
    expect(hers).toMatchObject({ badge: 'Pagato', riconciliazione: null });
    expect(hers).not.toHaveProperty('riconciliazioneChiusa');
    const audit = await localTable().auditOf('position', position.iud);
    expect(audit.at(-1)).toMatchObject({
      action: 'update',
      before: { riconciliazione: { motivo } },
      after: { riconciliazione: null, riconciliazioneChiusa: { nota } },
    });

    const again = await close(operator, { nota: 'Seconda chiusura' });
    expect([again.status, again.json.detail]).toEqual([409, platformText(positionOpsMessages.notToReconcile)]);
    expect(await stored(call.id)).toEqual(after);
    // The reporting again: the same receipts, nothing reopens.
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
      marked: 0,
      toReconcile: 0,
    });
    expect((await stored(call.id)).riconciliazione).toBeNull();
  });

  // What MyPay holds of a position paid late (its simulator's state).
  it.skipIf(onGpd())('a past-due position paid late keeps its own due date in what MyPay holds', async () => {
    const late = pastMonth(3);
    const { call, position } = await mariaOwes(late.period);
    expect(position.dataScadenza).toBe(late.dueDay);
    const paying = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnPath: returnPath(call.id) });
    await checkout(paying.json.url, 'success');
    const mypay = (await (await fetch(`${simulator()}/admin/state`)).json()).positions[`C_DEMO|${position.iud}`];
    expect(mypay).toMatchObject({ status: 'PAGATO', dueDate: late.dueDay });
  });

  it('the second operator saving on a stale copy gets 409 and changes nothing', async () => {
    const { position } = await mariaOwes(billed, { exported: false });
    const read = position.updatedAt;
    expect(
      (await operator.put(`/api/positions/${position.iud}`, { descrizione: 'Prima', importo: 12, updatedAt: read }))
        .status,
    ).toBe(200);
    const second = await operator.put(`/api/positions/${position.iud}`, {
      descrizione: 'Seconda',
      importo: 13,
      updatedAt: read,
    });
    expect([second.status, second.json.detail]).toEqual([
      409,
      'Il record è stato modificato da un altro operatore: ricarica la pagina.',
    ]);
    const seen = async () =>
      (await citizen.get(`/api/me/positions`)).json.items.find((p: { iud: string }) => p.iud === position.iud);
    await expect.poll(seen).toMatchObject({ descrizione: 'Prima', importoDovuto: 1200 });
    // Still the first operator's once the index has caught up with every write.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await seen()).toMatchObject({ descrizione: 'Prima', importoDovuto: 1200 });
  });
});

describe('calls that are over are not billed (issue 21)', () => {
  async function callIn(state: 2 | 3) {
    const { call, service, band } = await openCall(operator);
    await approvedSubscriber(operator, call, { lastName: 'Neri', iseeValue: 8000, weeklyHour: 2 });
    const changed = await operator.put(`/api/calls/${call.id}`, {
      ...callFields(service.id, call.name),
      year: call.year,
      state: 2,
      bandsId: [band.id],
      files: [],
    });
    expect(changed.status).toBe(200);
    if (state === 3)
      expect(
        (
          await operator.put(`/api/calls/${call.id}`, {
            ...callFields(service.id, call.name),
            year: call.year,
            state: 3,
            bandsId: [band.id],
            files: [],
          })
        ).status,
      ).toBe(200);
    return call;
  }

  it('an ARCHIVED call: generate, CSV, Invia a MyPay, the single payment and Sincronizza answer 409 and write nothing', async () => {
    const call = await callIn(3);
    for (const [path, body] of [
      ['positions/generate', billed],
      ['positions/csv', billed],
      ['exports', billed],
      ['exports', { ...billed, fiscalCode: 'RSSMRA85C52H501N' }],
      ['positions/sync', {}],
    ] as const) {
      const refused = await operator.post(`/api/calls/${call.id}/${path}`, body);
      expect([refused.status, refused.json.detail], path).toEqual([409, platformText(positionOpsMessages.archived)]);
    }
    expect(await storedPositions(call.id, month.key)).toEqual([]);
    expect((await operator.get(`/api/flows?descrizione=${encodeURIComponent(call.name)}`)).json.items ?? []).toEqual(
      [],
    );
  });

  it('a CLOSED call keeps billing its approved subscriptions', async () => {
    const call = await callIn(2);
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(1);
  });
});

describe('operators read a citizen’s payments', () => {
  it('finds a citizen by fiscal code (Pagamenti) and refuses a malformed code', async () => {
    const { position } = await mariaOwes();
    const found = await operator.get('/api/positions?fiscalCode=rssmra85c52h501n&limit=15');
    expect(found.status).toBe(200);
    expect(found.json.items.map((p: { iud: string }) => p.iud)).toContain(position.iud);
    expect((await operator.get(`/api/positions?fiscalCode=${randomFiscalCode()}`)).json).toEqual({
      items: [],
      nextCursor: null,
    });
    // Malformed, or well formed with a wrong check character (the last one: X instead of N).
    for (const code of ['abc', 'RSSMRA85C52H501X']) {
      const bad = await operator.get(`/api/positions?fiscalCode=${code}`);
      expect([bad.status, bad.json.detail]).toEqual([400, messages.payment.fiscalCode]);
    }
    expect((await operator.get('/api/users/utente-inesistente/positions')).status).toBe(404);
    for (const other of [delegate, citizen])
      expect((await other.get('/api/positions?fiscalCode=RSSMRA85C52H501N')).status).toBe(403);
  });
});

describe('Rendicontazione', () => {
  it('marks the two positions MyPay reports paid; a second run marks none; only operators run it', async () => {
    const { call } = await openCall(operator);
    const people: { fiscalCode: string }[] = [];
    for (const lastName of ['Neri', 'Gialli', 'Blu'])
      people.push(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 }));
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(3);
    await publishMonth(operator, call.id, billed);
    const positions = await storedPositions(call.id, month.key);
    const chosen = positions.filter((p) => p.fiscalCode !== people[2]!.fiscalCode).map((p) => p.iud as string);
    await paidOutsidePortal(chosen);

    for (const other of [delegate, citizen])
      expect((await jobAnswer(other, `/api/calls/${call.id}/reporting`, {})).status).toBe(403);
    const first = await jobAnswer(operator, `/api/calls/${call.id}/reporting`, {});
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ inProgress: false, marked: 2, alreadyPaid: 0 });
    expect(first.json.message).toContain('2 posizioni segnate come pagate');
    const after = await storedPositions(call.id, month.key);
    expect(
      after
        .filter((p) => p.isPagato)
        .map((p) => p.iud)
        .sort(),
    ).toEqual([...chosen].sort());
    for (const p of after.filter((p) => p.isPagato)) expect(p.importoTotalePagato).toBe(p.importoDovuto);

    const second = await jobAnswer(operator, `/api/calls/${call.id}/reporting`, {});
    expect(second.json).toMatchObject({ marked: 0, alreadyPaid: 2 });
    expect((await operator.post('/api/calls/bando-inesistente/reporting', {})).status).toBe(404);
  });
});
