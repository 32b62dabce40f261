import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { inbox } from '../support/mail.ts';
import { platformText, resetPlatform } from '../support/platform.ts';
import { approvedSubscriber, mypayConfiguration, settledFlow, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { endOfDayInRome } from '../../functions/domain/notices.ts';
import { noticeDueDay } from '../../functions/domain/payment-notice.ts';
import { italianDay } from '../../functions/domain/period.ts';
import { onGpd } from '../support/gpd.ts';
import { billedMonth } from '../support/months.ts';

/**
 * Payment notices over the real local stack: a month exported through 'Invia a MyPay' (MyPay simulator,
 * local Step Functions), then the notice e-mailed (aws-ses-v2-local: the mail with MyPay's PDF arrives) and
 * sent to IO (the IO simulator receives it), one position or a whole flow. Project integration-gpd runs it on pagoPA
 * GPD: the month published there, the notice the portal prints (gpd-notice.test.ts reads its QR code).
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const month = billedMonth();
const billed = month.period;
const io = () => inject('ioUrl');

async function post(base: string, path: string, body: object) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}
async function ioMessages(fiscalCode: string) {
  return (await (await fetch(`${io()}/admin/messages?fiscal_code=${fiscalCode}`)).json()).messages as Array<{
    id: string;
    content: any;
    feature_level_type: string;
  }>;
}

beforeAll(async () => {
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
beforeEach(async () => {
  await post(io(), '/admin/reset', {});
  await resetPlatform();
});
afterAll(() => post(io(), '/admin/reset', {}));

const settled = (flowId: string) => settledFlow(operator, flowId);

/** An open call with citizens approved and their November exported to MyPay: the flow and the positions. */
/** The due day a notice prints: the month's own on MyPay, the one the export gave GPD on GPD (a late month's is later). */
const printedDueDay = (position: Record<string, unknown>) =>
  onGpd()
    ? noticeDueDay(position as { dataScadenza: string; exportedAt: string | null })
    : (position.dataScadenza as string);

async function exportedMonth(lastNames: string[]) {
  const { call } = await openCall(operator);
  const people = [];
  for (const lastName of lastNames)
    people.push({
      lastName,
      ...(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 })),
    });
  const started = await operator.post(`/api/calls/${call.id}/exports`, billed);
  expect(started.status).toBe(201);
  const flow = await settled(started.json.id);
  expect(flow).toMatchObject({ step: 'COMPLETATO', accepted: lastNames.length });
  const positions = await storedPositions(call.id, month.key);
  return { call, flow, people, positions };
}

/**
 * The notices of one call's positions sent to an address. The demo addresses are shared across files, and other
 * jobs write to them too (the December ISEE reminders reach every active subscriber): only this call's notices count.
 */
const noticesTo = async (address: string, call: { name: string }) =>
  (await inbox()).filter(
    (m) =>
      m.destination.to.some((to) => to.includes(address)) &&
      m.subject.startsWith('Avviso di pagamento: ') &&
      m.subject.includes(call.name),
  );

describe('notice by e-mail', () => {
  it('sends the notice with the amount, due date, NAV, beneficiary and MyPay’s PDF; the position records it; a resend moves the date', async () => {
    const { call, positions, people } = await exportedMonth(['Gialli']);
    const position = positions[0]!;
    const email = 'gialli@example.it';
    expect(position.nav).toMatch(/^3\d{17}$/);

    const sent = await operator.post(`/api/positions/${position.iud}/email`, {});
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json).toMatchObject({ iud: position.iud, isEmailSent: true, dataIsEmailSent: expect.any(String) });

    const [mail] = await noticesTo(email, call);
    expect(mail).toBeDefined();
    expect(mail!.subject).toContain(position.titolo);
    const text = mail!.body.text!;
    expect(text).toContain(
      `Importo: ${new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(position.importoDovuto / 100)}`,
    );
    expect(text).toContain(italianDay(printedDueDay(position)));
    expect(text.replace(/\s/g, '')).toContain(position.nav);
    expect(text).toContain(`Gialli`);
    expect(text).toContain(people[0]!.fiscalCode);
    const attachments = (
      mail as unknown as { attachments: Array<{ filename: string; contentType: string; content: string }> }
    ).attachments;
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ filename: `avviso_${position.nav}.pdf`, contentType: 'application/pdf' });
    const pdf = Buffer.from(attachments[0]!.content, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);

    const audit = await localTable().auditOf('position', position.iud);
    expect(audit.at(-1)).toMatchObject({
      action: 'update',
      who: { fiscalCode: 'BNCLRA79H61F205F' },
      before: { isEmailSent: false },
      after: { isEmailSent: true },
    });

    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await operator.post(`/api/positions/${position.iud}/email`, {});
    expect(again.status).toBe(200);
    expect(again.json.dataIsEmailSent > sent.json.dataIsEmailSent).toBe(true);
    expect(await noticesTo(email, call)).toHaveLength(2);
  });

  it('refuses what has no notice: unknown id 404, not exported 409, citizen without e-mail 409; nothing sent, nothing changed', async () => {
    expect((await operator.post('/api/positions/P202611SCONOSCIUTA/email', {})).status).toBe(404);

    const { call } = await openCall(operator);
    await approvedSubscriber(operator, call, { lastName: 'Neri', iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).json.created).toBe(1);
    const [pending] = await storedPositions(call.id, month.key);
    // A position is found by its IUD through gsi2, which lists it a moment after the generation.
    await indexesCaughtUp();
    const before = (await inbox()).length;
    const refused = await operator.post(`/api/positions/${pending!.iud}/email`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(
      platformText('La posizione non ha ancora un avviso di pagamento: inviala prima a MyPay.'),
    );
    const io = await operator.post(`/api/positions/${pending!.iud}/io`, {});
    expect(io.status).toBe(409);
    expect((await inbox()).length).toBe(before);
    expect((await storedPositions(call.id, month.key))[0]).toMatchObject({ isEmailSent: false, ioId: null });

    // A citizen whose record has no e-mail.
    const { positions, people } = await exportedMonth(['Senzamail']);
    const user = await localTable().item({ pk: `USER#${people[0]!.userId}`, sk: 'USER' });
    await localTable().putItem({ ...user, email: null });
    const noEmail = await operator.post(`/api/positions/${positions[0]!.iud}/email`, {});
    expect(noEmail.status, JSON.stringify(noEmail.json)).toBe(409);
    expect(noEmail.json.detail).toContain('e-mail');
  });

  it('delegates and citizens cannot send notices (403)', async () => {
    const { positions } = await exportedMonth(['Azzurri']);
    for (const persona of ['delegate', 'citizen'] as const) {
      const client = await as(persona);
      expect((await client.post(`/api/positions/${positions[0]!.iud}/email`, {})).status).toBe(403);
      expect((await client.post(`/api/positions/${positions[0]!.iud}/io`, {})).status).toBe(403);
    }
  });
});

describe('notice to the IO app', () => {
  it('sends the message with the amount in cents and the NAV, no payee; IO processes it: ioId and "PROCESSED" stored; audited', async () => {
    const { positions } = await exportedMonth(['Viola']);
    const position = positions[0]!;
    const sent = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const [message] = await ioMessages(position.fiscalCode);
    expect(message).toBeDefined();
    expect(sent.json).toMatchObject({ ioId: message!.id, ioStatus: 'PROCESSED' });
    expect(message!.feature_level_type).toBe('STANDARD');
    // The payee is the one IO set when it processed the message: the service's organisation, the council.
    expect(message!.content.payment_data).toEqual({
      amount: position.importoDovuto,
      notice_number: position.nav,
      invalid_after_due_date: false,
      payee: { fiscal_code: '80012340123' },
    });
    expect(Number.isInteger(message!.content.payment_data.amount)).toBe(true);
    // The month's last day; on GPD, for a month sent after it, the day the export gave GPD (the one its notice prints).
    expect(message!.content.due_date).toBe(endOfDayInRome(printedDueDay(position)));
    if (!onGpd()) expect(message!.content.due_date).toBe(month.dueDayEnd);
    expect((await localTable().auditOf('position', position.iud)).at(-1)).toMatchObject({
      after: { ioId: message!.id, ioStatus: 'PROCESSED' },
    });
  });

  it('accepted by IO, then rejected: 409 saying it was not delivered; the message kept as REJECTED', async () => {
    const { positions } = await exportedMonth(['Rifiutato']);
    const position = positions[0]!;
    await post(io(), '/admin/outcomes', { fiscalCode: position.fiscalCode, status: 'REJECTED' });
    const refused = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(
      'L’app IO ha accettato il messaggio ma poi lo ha rifiutato: il cittadino non ha un profilo IO attivo o ha bloccato i messaggi del Comune. Il messaggio non è stato recapitato.',
    );
    const [message] = await ioMessages(position.fiscalCode);
    expect(message).toMatchObject({ status: 'REJECTED' });
    expect((await storedPositions(position.callId, month.key))[0]).toMatchObject({
      ioId: message!.id,
      ioStatus: 'REJECTED',
    });
  });

  it('still on its way after the waits: 200 with ACCEPTED; "Verifica" later reads PROCESSED', async () => {
    const { positions } = await exportedMonth(['Attesa']);
    const position = positions[0]!;
    await post(io(), '/admin/outcomes', { fiscalCode: position.fiscalCode, status: 'ACCEPTED' });
    const sent = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ ioId: expect.any(String), ioStatus: 'ACCEPTED' });
    const pending = await operator.post(`/api/positions/${position.iud}/io/status`, {});
    expect(pending.json.ioStatus).toBe('ACCEPTED');
    await post(io(), '/admin/outcomes', { fiscalCode: position.fiscalCode, status: 'PROCESSED' });
    const checked = await operator.post(`/api/positions/${position.iud}/io/status`, {});
    expect(checked.status).toBe(200);
    expect(checked.json).toMatchObject({ ioId: sent.json.ioId, ioStatus: 'PROCESSED' });
    expect((await storedPositions(position.callId, month.key))[0]!.ioStatus).toBe('PROCESSED');
    // Nothing sent, nothing to check.
    const { positions: others } = await exportedMonth(['Maisentito']);
    expect((await operator.post(`/api/positions/${others[0]!.iud}/io/status`, {})).status).toBe(409);
  });

  it('IO’s configuration refusals are Italian reasons, not 500s, and change nothing: the amount ceiling (422), a trial key (502), the portal’s IP not allowed (502), IO asking to wait past the time left (503)', async () => {
    const { positions } = await exportedMonth(['Soglia']);
    const position = positions[0]!;
    const attempt = async () => {
      const answer = await operator.post(`/api/positions/${position.iud}/io`, {});
      return { status: answer.status, detail: String(answer.json.detail) };
    };
    await post(io(), '/admin/service', { maxAllowedPaymentAmount: 0 });
    expect(await attempt()).toMatchObject({
      status: 422,
      detail: expect.stringMatching(/^L’app IO non accetta l’importo di .+ al massimo 0,00\s€/),
    });

    await post(io(), '/admin/reset', {});
    await post(io(), '/admin/service', {
      groups: ['ApiLimitedMessageWrite', 'ApiLimitedProfileRead', 'ApiMessageRead'],
      authorizedRecipients: ['VRDGPP90P07F839R'],
    });
    expect(await attempt()).toMatchObject({
      status: 502,
      detail: expect.stringContaining('la chiave del servizio è di prova'),
    });

    await post(io(), '/admin/reset', {});
    await post(io(), '/admin/service', { authorizedCidrs: ['10.20.0.0/16'] });
    expect(await attempt()).toMatchObject({ status: 502, detail: expect.stringContaining('indirizzo IP del portale') });

    await post(io(), '/admin/reset', {});
    await post(io(), '/admin/faults', { operation: 'messages', kind: '429', retryAfter: 60, times: 'always' });
    expect(await attempt()).toMatchObject({ status: 503, detail: expect.stringContaining('attendere 60 secondi') });

    expect(await ioMessages(position.fiscalCode)).toHaveLength(0);
    expect((await storedPositions(position.callId, month.key))[0]).toMatchObject({ ioId: null });
  });

  it('a citizen without IO is reported (409), the position gets ioId -1; one who blocks the council likewise; no message', async () => {
    const { positions } = await exportedMonth(['Senzaio', 'Bloccato']);
    const [first, second] = positions;
    await post(io(), '/admin/profiles', { fiscalCode: first!.fiscalCode, state: 'none' });
    await post(io(), '/admin/profiles', { fiscalCode: second!.fiscalCode, state: 'blocked' });
    const none = await operator.post(`/api/positions/${first!.iud}/io`, {});
    expect(none.status).toBe(409);
    expect(none.json.detail).toBe('Il cittadino non ha attivato l’app IO: il messaggio non può essere inviato.');
    const blocked = await operator.post(`/api/positions/${second!.iud}/io`, {});
    expect(blocked.status).toBe(409);
    expect(blocked.json.detail).toContain('disattivato');
    const stored = await storedPositions(positions[0]!.callId, month.key);
    expect(stored.map((p) => p.ioId)).toEqual(['-1', '-1']);
    expect(stored.map((p) => p.ioStatus).sort()).toEqual(['NO_PROFILE', 'SENDER_NOT_ALLOWED']);
    expect(await ioMessages(first!.fiscalCode)).toHaveLength(0);
    expect(await ioMessages(second!.fiscalCode)).toHaveLength(0);

    // The citizen activates IO: the send goes and the real id replaces -1.
    await post(io(), '/admin/reset', {});
    const ok = await operator.post(`/api/positions/${first!.iud}/io`, {});
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ ioId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/), ioStatus: 'PROCESSED' });
    // A resend refused later (the citizen left IO) does not hide the message delivered before.
    await post(io(), '/admin/profiles', { fiscalCode: first!.fiscalCode, state: 'none' });
    expect((await operator.post(`/api/positions/${first!.iud}/io?resend=true`, {})).json.detail).toBe(
      'Il cittadino non ha attivato l’app IO: il messaggio non può essere inviato.',
    );
    const kept = (await storedPositions(first!.callId, month.key)).find((p) => p.iud === first!.iud);
    expect(kept).toMatchObject({ ioId: ok.json.ioId, ioStatus: 'PROCESSED' });
  });

  it('never twice: a message whose answer was lost reads ‘Invio non confermato’ and is not resent by itself; a second send asks for confirmation and says when the first went; IO down for good is a 503', async () => {
    const { positions } = await exportedMonth(['Arancio']);
    const position = positions[0]!;
    // The profile check is retried (it creates nothing); the message is created by IO, its answer lost.
    await post(io(), '/admin/faults', { operation: 'profiles', kind: '5xx', times: 1 });
    await post(io(), '/admin/faults', { operation: 'messages', kind: 'lost-answer', times: 1 });
    const lost = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect(lost.status).toBe(409);
    expect(lost.json.detail).toMatch(/^Invio non confermato: /);
    expect(await ioMessages(position.fiscalCode)).toHaveLength(1);
    const unconfirmed = (await storedPositions(position.callId, month.key))[0]!;
    expect(unconfirmed).toMatchObject({ ioStatus: 'UNCONFIRMED', dataIoSent: expect.any(String) });
    expect((await localTable().auditOf('position', position.iud)).at(-1)).toMatchObject({
      after: { ioStatus: 'UNCONFIRMED' },
    });

    // Pressed again: not sent, the operator is told when the first one went.
    const again = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(
      /^Un invio su IO del \d{2}\/\d{2}\/\d{4} alle \d{2}:\d{2} non è stato confermato/,
    );
    expect(await ioMessages(position.fiscalCode)).toHaveLength(1);
    // Confirmed after checking with the citizen: a second message, recorded.
    const confirmed = await operator.post(`/api/positions/${position.iud}/io?resend=true`, {});
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    expect(confirmed.json).toMatchObject({ ioId: expect.any(String), ioStatus: 'PROCESSED' });
    expect(await ioMessages(position.fiscalCode)).toHaveLength(2);
    const sentAgain = await operator.post(`/api/positions/${position.iud}/io`, {});
    expect([sentAgain.status, sentAgain.json.detail]).toEqual([
      409,
      expect.stringMatching(/^L’avviso è già stato inviato su IO il /),
    ]);

    await post(io(), '/admin/faults', { operation: '*', kind: '5xx', times: 'always' });
    const down = await operator.post(`/api/positions/${position.iud}/io?resend=true`, {});
    expect(down.status).toBe(503);
    expect(down.json.detail).toBe('L’app IO non risponde: riprova più tardi.');
    expect((await storedPositions(position.callId, month.key))[0]!.ioId).toBe(confirmed.json.ioId);
  });

  it('refuses bad input and changes nothing: resend must be true or false (400)', async () => {
    const { positions } = await exportedMonth(['Parametro']);
    const answer = await operator.post(`/api/positions/${positions[0]!.iud}/io?resend=forse`, {});
    expect([answer.status, answer.json.detail]).toEqual([400, expect.any(String)]);
    expect(await ioMessages(positions[0]!.fiscalCode)).toHaveLength(0);
  });
});

describe('flow e-mail (a background job)', () => {
  it('sends the notice of every accepted position of the flow in the background; the flow records it; pressed while running it joins; pressed again it resends', async () => {
    const { call, flow, positions } = await exportedMonth(['Blu', 'Verde', 'Rosa']);
    expect((await operator.get(`/api/flows/${flow.id}/email`)).json).toMatchObject({
      done: true,
      state: 'NONE',
      sent: 0,
    });
    const [sent, joined] = await Promise.all([
      operator.post(`/api/flows/${flow.id}/email`, {}),
      operator.post(`/api/flows/${flow.id}/email`, {}),
    ]);
    expect(sent.status, JSON.stringify(sent.json)).toBe(202);
    expect(joined.status).toBe(202);
    const final = await until(
      async () => (await operator.get(`/api/flows/${flow.id}/email`)).json,
      (p) => p.done,
    );
    expect(final).toEqual({
      done: true,
      state: 'SUCCEEDED',
      sent: 3,
      skipped: 0,
      failed: 0,
      error: null,
      message: 'Rielaborazione avvenuta con successo.',
    });
    for (const name of ['blu', 'verde', 'rosa']) {
      const mails = await noticesTo(`${name}@example.it`, call);
      // One job for the two presses: each citizen has one e-mail.
      expect(mails).toHaveLength(1);
      expect((mails[0] as unknown as { attachments: unknown[] }).attachments).toHaveLength(1);
    }
    expect((await operator.get(`/api/flows/${flow.id}`)).json.isEmailSent).toBe(true);
    expect((await storedPositions(positions[0]!.callId, month.key)).every((p) => p.isEmailSent)).toBe(true);

    const again = await operator.post(`/api/flows/${flow.id}/email`, {});
    expect(again.status).toBe(202);
    expect(
      await until(
        async () => (await operator.get(`/api/flows/${flow.id}/email`)).json,
        (p) => p.done,
      ),
    ).toMatchObject({ state: 'SUCCEEDED', sent: 3 });
    expect(await noticesTo('blu@example.it', call)).toHaveLength(2);
  });

  it('an unknown flow is a 404', async () => {
    expect((await operator.post('/api/flows/nessunflusso/email', {})).status).toBe(404);
    expect((await operator.get('/api/flows/nessunflusso/email')).status).toBe(404);
  });
});

/** Asks `read` every 300 ms until `ready` says yes (15 s at most). */
async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await read();
    if (ready(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('timed out');
}
