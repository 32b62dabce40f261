import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { messages, paymentOutcomeMessages } from '../../functions/domain/messages.ts';
import { as } from '../support/api.ts';
import { randomFiscalCode } from '../support/isee.ts';
import { openCall } from '../support/calls.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * A citizen pays a position through MyPay's checkout (the simulator), over the real local stack; the
 * operators read a citizen's positions; 'Rendicontazione' marks what MyPay reports paid.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
let delegate: Client;
let citizen: Client;
let otherCitizen: Client;
let mariaId: string;
const november = { mese: 11, anno: 2026 };
const simulator = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');

async function admin(action: string, body: object) {
  const response = await fetch(`${simulator()}/admin/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  [operator, delegate, citizen, otherCitizen] = await Promise.all([as('operator'), as('delegate'), as('citizen'), as('newCitizen')]);
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  mariaId = (await citizen.get('/api/me')).json.userId;
  expect(mariaId).toBeTruthy();
});
afterAll(() => admin('reset', {}));

/** An open call on which Maria Rossi (the 'citizen' persona) is approved with 2 hours, and her November position. */
async function mariaOwes() {
  const { call } = await openCall(operator);
  const isee = await operator.post(`/api/users/${mariaId}/isee`, { value: 8000, year: 2026, date: '2026-01-20T10:00:00.000Z', protocollo: 'INPS-ISEE-2026-00000003C-00', scadenza: '2026-12-31', excludeVerification: true });
  expect(isee.status).toBe(201);
  const enrolled = await operator.post(`/api/calls/${call.id}/enrolments`, { userId: mariaId });
  expect(enrolled.status).toBe(201);
  expect((await operator.put(`/api/enrolments/${enrolled.json.id}/state`, { state: 2, weeklyHour: 2 })).status).toBe(200);
  expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, november)).json.created).toBe(1);
  // Her list reads a global index: it shows the new position a moment later, as on a reload.
  const mine = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items;
  await expect.poll(mine).toHaveLength(1);
  return { call, position: (await mine())[0] };
}

/** Waits for an export flow to finish. */
async function exported(flowId: string) {
  for (let i = 0; i < 100; i++) {
    const flow = (await operator.get(`/api/flows/${flowId}`)).json;
    if (flow.step === 'COMPLETATO') return flow;
    if (flow.step === 'ERRORE') throw new Error(`flow failed: ${flow.stato}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('flow did not finish');
}

const returnUrl = (callId: string) => `${inject('appUrl')}/iscrizioni/visualizza_servizio?id=${callId}`;

/** What a browser does on MyPay's checkout page: opens it, presses one button, follows the redirect. */
async function checkout(url: string, esito: 'success' | 'failure' | 'cancel') {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`value="${esito}"`);
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ esito }), redirect: 'manual' });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

describe('the citizen pays a position', () => {
  it('lists her own position, pays it on the checkout, and a second return pays nothing twice', async () => {
    const { call, position } = await mariaOwes();
    // Exported to MyPay first (IUV and notice number), as the council does every month.
    const started = await operator.post(`/api/calls/${call.id}/exports`, november);
    expect(started.status).toBe(201);
    await exported(started.json.id);
    // Her list (a global index) shows the export's notice number a moment later, as on a reload.
    const herFirst = async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items[0];
    await expect.poll(async () => (await herFirst()).nav ?? '').toMatch(/^3\d{17}$/);
    const listed = await herFirst();
    expect(listed).toMatchObject({ iud: position.iud, badge: 'Da pagare', payable: true, importoDovuto: position.importoDovuto, dataScadenza: '2026-11-30' });
    // The export brought MyPay's notice back: a short-lived link to this position's PDF.
    const notice = await fetch(listed.noticeUrl as string);
    expect([notice.status, notice.headers.get('content-type'), new URL(listed.noticeUrl as string).pathname]).toEqual([200, 'application/pdf', expect.stringContaining(`/notices/${position.iud}.pdf`)]);
    expect(Buffer.from(await notice.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    // Another citizen sees none of it.
    expect((await otherCitizen.get(`/api/me/positions?callId=${call.id}`)).json.items).toEqual([]);

    const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) });
    expect(paid.status).toBe(200);
    const back = await checkout(paid.json.url, 'success');
    expect(`${back.origin}${back.pathname}`).toBe(`${inject('appUrl')}/iscrizioni/visualizza_servizio`);
    expect(back.searchParams.get('id')).toBe(call.id);
    expect(back.searchParams.get('esito')).toBe('OK');
    const idSession = back.searchParams.get('idSession')!;
    expect(idSession).toBe(paid.json.idSession);

    const first = await citizen.post('/api/me/payments/return', { idSession });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ esito: 'PAID', recorded: true, message: paymentOutcomeMessages.paid, position: { badge: 'Pagato', isPagato: true, payable: false, importoTotalePagato: position.importoDovuto, codIuv: listed.codIuv } });
    const reload = await citizen.post('/api/me/payments/return', { idSession });
    expect(reload.json).toMatchObject({ esito: 'PAID', recorded: false, message: paymentOutcomeMessages.paidBefore });
    const [stored] = await storedPositions(call.id, '2026-11');
    expect(stored).toMatchObject({ isPagato: true, importoTotalePagato: position.importoDovuto });
    expect(stored.dataEsitoSingoloPagamento).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(stored.iur).toMatch(/^IUR/);

    // Paying again is refused; the operator and the delegate see it paid in the user record.
    expect((await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) })).status).toBe(409);
    // The user record's list reads a global index: paid a moment later, as on a reload.
    for (const reader of [operator, delegate]) {
      const badge = async () => (await reader.get(`/api/users/${mariaId}/positions`)).json.items.find((p: { iud: string }) => p.iud === position.iud)?.badge;
      await expect.poll(badge).toBe('Pagato');
    }
  });

  it('leaves the position payable after a refused or cancelled payment, and a forged esito=OK changes nothing', async () => {
    const { call, position } = await mariaOwes();
    for (const [choice, esito, outcome] of [
      ['failure', 'KO', 'FAILED'],
      ['cancel', 'ANNULLATO', 'CANCELLED'],
    ] as const) {
      const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) });
      expect(paid.status).toBe(200);
      const back = await checkout(paid.json.url, choice);
      expect(back.searchParams.get('esito')).toBe(esito);
      // The URL's esito is never trusted: even a body claiming OK gets MyPay's own outcome.
      const answer = await citizen.post('/api/me/payments/return', { idSession: back.searchParams.get('idSession'), esito: 'OK' });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ esito: outcome, recorded: false, position: { badge: 'Da pagare', payable: true, isPagato: false } });
    }
    // A session left on the checkout page (nothing chosen): still in progress, not paid.
    const pending = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) });
    await fetch(pending.json.url);
    expect((await citizen.post('/api/me/payments/return', { idSession: pending.json.idSession })).json).toMatchObject({ esito: 'PENDING', recorded: false, message: paymentOutcomeMessages.pending });
    const [stored] = await storedPositions(call.id, '2026-11');
    expect(stored.isPagato).toBe(false);
  });

  it('answers 404 for another citizen’s position or session, and 400 for bad input, changing nothing', async () => {
    const { call, position } = await mariaOwes();
    const notMine = await otherCitizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) });
    expect(notMine.status).toBe(404);
    expect(notMine.json.detail).toBe(messages.payment.notFound);
    expect((await citizen.post('/api/me/positions/P2026110000000000000000000000000000/pay', { returnUrl: returnUrl(call.id) })).status).toBe(404);

    const paid = await citizen.post(`/api/me/positions/${position.iud}/pay`, { returnUrl: returnUrl(call.id) });
    const back = await checkout(paid.json.url, 'success');
    const idSession = back.searchParams.get('idSession');
    const stolen = await otherCitizen.post('/api/me/payments/return', { idSession });
    expect(stolen.status).toBe(404);
    expect(stolen.json.detail).toBe(messages.payment.sessionNotFound);
    expect((await citizen.post('/api/me/payments/return', { idSession: 'sessione-inventata' })).status).toBe(404);
    expect((await storedPositions(call.id, '2026-11'))[0].isPagato).toBe(false);

    for (const bad of [{}, { returnUrl: 'https://altro-sito.example/iscrizioni/visualizza_servizio' }, { returnUrl: `${inject('appUrl')}/lista_utenti` }]) {
      const refused = await citizen.post(`/api/me/positions/${position.iud}/pay`, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.json.detail).toBe(messages.payment.returnUrl);
    }
    expect((await citizen.post('/api/me/payments/return', {})).status).toBe(400);
    // The owner's return records it, once.
    expect((await citizen.post('/api/me/payments/return', { idSession })).json).toMatchObject({ esito: 'PAID', recorded: true });
  });
});

describe('operators read a citizen’s payments', () => {
  it('finds a citizen by fiscal code (Pagamenti) and refuses a malformed code', async () => {
    const { position } = await mariaOwes();
    const found = await operator.get('/api/positions?fiscalCode=rssmra85c52h501n&limit=15');
    expect(found.status).toBe(200);
    expect(found.json.items.map((p: { iud: string }) => p.iud)).toContain(position.iud);
    expect((await operator.get(`/api/positions?fiscalCode=${randomFiscalCode()}`)).json).toEqual({ items: [], nextCursor: null });
    // Malformed, or well formed with a wrong check character (the last one: X instead of N).
    for (const code of ['abc', 'RSSMRA85C52H501X']) {
      const bad = await operator.get(`/api/positions?fiscalCode=${code}`);
      expect([bad.status, bad.json.detail]).toEqual([400, messages.payment.fiscalCode]);
    }
    expect((await operator.get('/api/users/utente-inesistente/positions')).status).toBe(404);
    for (const other of [delegate, citizen]) expect((await other.get('/api/positions?fiscalCode=RSSMRA85C52H501N')).status).toBe(403);
  });
});

describe('Rendicontazione', () => {
  it('marks the two positions MyPay reports paid; a second run marks none; only operators run it', async () => {
    const { call } = await openCall(operator);
    const people: { fiscalCode: string }[] = [];
    for (const lastName of ['Neri', 'Gialli', 'Blu']) people.push(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 }));
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, november)).json.created).toBe(3);
    const started = await operator.post(`/api/calls/${call.id}/exports`, november);
    await exported(started.json.id);
    const positions = await storedPositions(call.id, '2026-11');
    const chosen = positions.filter((p) => p.fiscalCode !== people[2]!.fiscalCode).map((p) => p.iud as string);
    await admin('paid', { iuds: chosen });

    for (const other of [delegate, citizen]) expect((await jobAnswer(other, `/api/calls/${call.id}/reporting`, {})).status).toBe(403);
    const first = await jobAnswer(operator, `/api/calls/${call.id}/reporting`, {});
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ inProgress: false, marked: 2, alreadyPaid: 0 });
    expect(first.json.message).toContain('2 posizioni segnate come pagate');
    const after = await storedPositions(call.id, '2026-11');
    expect(after.filter((p) => p.isPagato).map((p) => p.iud).sort()).toEqual([...chosen].sort());
    for (const p of after.filter((p) => p.isPagato)) expect(p.importoTotalePagato).toBe(p.importoDovuto);

    const second = await jobAnswer(operator, `/api/calls/${call.id}/reporting`, {});
    expect(second.json).toMatchObject({ marked: 0, alreadyPaid: 2 });
    expect((await operator.post('/api/calls/bando-inesistente/reporting', {})).status).toBe(404);
  });
});
