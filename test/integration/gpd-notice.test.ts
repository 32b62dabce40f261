import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { municipality } from '../../web/src/config/municipality.ts';
import { noticeDownloadMessages } from '../../functions/domain/messages.ts';
import { noticeDataMessages } from '../../functions/domain/payment-notice.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { indexesCaughtUp, localTable } from '../support/dynamo.ts';
import { gpdAdmin, onGpd } from '../support/gpd.ts';
import { inbox } from '../support/mail.ts';
import { renderFirstPage } from '../support/pdf-render.ts';
import {
  approveUser,
  approvedSubscriber,
  exportMonth,
  mypayConfiguration,
  settledFlow,
  storedPositions,
} from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { billedMonth, pastMonth } from '../support/months.ts';

/**
 * pagoPA's notice on GPD (issue 37), over the real local stack started with PAYMENT_PLATFORM=gpd (project
 * integration-gpd): a month exported to the GPD simulator, then its notice, printed by the portal, e-mailed
 * (aws-ses-v2-local receives the PDF); its QR code reads back pagoPA's payload with the position's notice number and amount. On MyPay (project integration) MyPay's own PDFs are
 * covered by notices.test.ts.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const month = billedMonth();
const billed = month.period;

beforeAll(async () => {
  if (!onGpd()) return;
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

async function exportedPosition(lastName: string, period = billed) {
  const { call } = await openCall(operator);
  const person = await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 });
  const started = await operator.post(`/api/calls/${call.id}/exports`, period);
  expect(started.status).toBe(201);
  expect(await settledFlow(operator, started.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 1 });
  const [position] = await storedPositions(call.id, `${period.anno}-${String(period.mese).padStart(2, '0')}`);
  expect(position!.nav).toMatch(/^3\d{17}$/);
  return { call, person, position: position! };
}

const payload = (position: Record<string, unknown>) =>
  `PAGOPA|002|${position.nav}|${municipality.fiscalCode}|${String(position.importoDovuto).padStart(2, '0')}`;

describe.runIf(onGpd())('pagoPA notice on GPD', { timeout: 120_000 }, () => {
  it('e-mails the notice printed by the portal, with pagoPA’s QR code', async () => {
    const { call, person, position } = await exportedPosition('Notizia');

    const sent = await operator.post(`/api/positions/${position.iud}/email`, {});
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    expect(sent.json).toMatchObject({ isEmailSent: true });
    const mail = (await inbox()).find(
      (m) => m.destination.to.some((to) => to.includes('notizia@example.it')) && m.subject.includes(call.name),
    ) as unknown as { attachments: { filename: string; contentType: string; content: string }[] };
    expect(mail).toBeDefined();
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({
      filename: `avviso_${position.nav}.pdf`,
      contentType: 'application/pdf',
    });
    const attached = await renderFirstPage(new Uint8Array(Buffer.from(mail.attachments[0]!.content, 'base64')));
    expect(decodeQR(attached.image!)).toBe(payload(position));
    expect(attached.text).toContain(`Cod. Fiscale ${person.fiscalCode}`);
    // The council the citizen sees on the portal (web/src/config/municipality.ts), not a name of the simulator's.
    expect(attached.text).toContain(municipality.name);
    expect(attached.text).toContain(`Cod. Fiscale Ente ${municipality.fiscalCode}`);
    expect(attached.text).toContain(String(position.titolo));
  });

  it('gives the e-mail’s due date as the notice prints it: for a month sent late, the day the export gave GPD', async () => {
    const late = pastMonth();
    const { call, position } = await exportedPosition('Ritardo', late.period);
    expect(position.dataScadenza).toBe(late.dueDay);
    const sent = await operator.post(`/api/positions/${position.iud}/email`, {});
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const mail = (await inbox()).find(
      (m) => m.destination.to.some((to) => to.includes('ritardo@example.it')) && m.subject.includes(call.name),
    ) as unknown as { body: { text: string }; attachments: { content: string }[] };
    const printed = await renderFirstPage(new Uint8Array(Buffer.from(mail.attachments[0]!.content, 'base64')), 0);
    const printedDay = /entro il (\d{2}\/\d{2}\/\d{4})/.exec(printed.text)?.[1];
    // Sent after the month's end: GPD took a later day than the month's last, and the e-mail says that day.
    expect(printedDay).toBeDefined();
    expect(printedDay).not.toBe(late.dueDayItalian);
    expect(mail.body.text).toContain(`Scadenza: ${printedDay}`);
  });

  it('refuses, in Italian, a notice whose debtor has no fiscal code: no e-mail, nothing recorded', async () => {
    const { call, position } = await exportedPosition('Senzacodice');
    await localTable().putItem({ ...position, fiscalCode: '' });

    const refused = await operator.post(`/api/positions/${position.iud}/email`, {});
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toBe(noticeDataMessages.debtorFiscalCode);
    expect(
      (await inbox()).filter(
        (m) => m.destination.to.some((to) => to.includes('senzacodice@example.it')) && m.subject.includes(call.name),
      ),
    ).toEqual([]);
    const [after] = await storedPositions(call.id, month.key);
    expect(after).toMatchObject({ isEmailSent: false, dataIsEmailSent: null });
  });
});

describe.runIf(onGpd())('pagoPA notice on GPD: ‘Avviso PDF’', { timeout: 120_000 }, () => {
  let citizen: Client;
  let mariaId: string;
  beforeAll(async () => {
    if (!onGpd()) return;
    citizen = await as('citizen');
    mariaId = (await citizen.get('/api/me')).json.userId as string;
  });

  /** Maria Rossi's month of a new call, sent to GPD. */
  async function mariasExportedMonth() {
    const { call } = await openCall(operator);
    await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
    await exportMonth(operator, call.id, billed);
    const [position] = await storedPositions(call.id, month.key);
    expect(position!.nav).toMatch(/^3\d{17}$/);
    return { call, position: position! };
  }

  it('gives the citizen her own month’s notice, a PDF with its notice number and QR code; operators and delegates too, never another citizen', async () => {
    const { call, position } = await mariasExportedMonth();
    // Her list reads an index, which shows the export's write a moment later: she reloads until it does.
    await expect
      .poll(async () => (await citizen.get(`/api/me/positions?callId=${call.id}`)).json.items[0])
      .toMatchObject({ iud: position.iud, noticeDownload: true, noticeUrl: null });

    const link = await citizen.get(`/api/positions/${position.iud}/notice`);
    expect(link.status, JSON.stringify(link.json)).toBe(200);
    const pdf = await fetch(link.json.url);
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(pdf.headers.get('content-disposition')).toContain(`avviso-${position.nav}.pdf`);
    const page = await renderFirstPage(new Uint8Array(await pdf.arrayBuffer()));
    expect(page.text).toContain(
      `Cod. Avviso ${String(position.nav)
        .match(/.{1,4}/g)!
        .join(' ')}`,
    );
    expect(decodeQR(page.image!)).toBe(payload(position));

    // Another citizen learns nothing of it: the same 404 as a position that does not exist.
    const other = await (await as('newCitizen')).get(`/api/positions/${position.iud}/notice`);
    expect([other.status, other.json.detail]).toEqual([404, 'La posizione debitoria selezionata non esiste.']);
    expect((await (await as('anonymous')).get(`/api/positions/${position.iud}/notice`)).status).toBe(401);

    const [operatorsView] = (await operator.get(`/api/users/${mariaId}/positions?limit=50`)).json.items.filter(
      (p: { iud: string }) => p.iud === position.iud,
    );
    expect(operatorsView).toMatchObject({ noticeDownload: true });
    for (const persona of ['operator', 'delegate'] as const) {
      const got = await (await as(persona)).get(`/api/positions/${position.iud}/notice`);
      expect(got.status, persona).toBe(200);
      expect((await fetch(got.json.url)).status).toBe(200);
    }
  });

  it('refuses, in Italian, the notice of a month not sent to pagoPA, cancelled or paid, and offers none on the page', async () => {
    const { call } = await openCall(operator);
    await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, billed)).status).toBe(200);
    const [unsent] = await storedPositions(call.id, month.key);
    // A position is found by its IUD through gsi2, which lists it a moment after the generation.
    await indexesCaughtUp();
    const notYet = await citizen.get(`/api/positions/${unsent!.iud}/notice`);
    expect([notYet.status, notYet.json.detail]).toEqual([
      409,
      'L’avviso di pagamento non è ancora disponibile: la posizione non è ancora stata inviata a pagoPA.',
    ]);

    const { call: other, position } = await mariasExportedMonth();
    for (const [fields, detail] of [
      [{ annullato: true, importoDovuto: 0 }, noticeDownloadMessages.cancelled],
      [{ isPagato: true, importoTotalePagato: position.importoDovuto }, noticeDownloadMessages.paid],
    ] as const) {
      await localTable().putItem({ ...position, ...fields });
      const refused = await citizen.get(`/api/positions/${position.iud}/notice`);
      expect([refused.status, refused.json.detail]).toEqual([409, detail]);
      // The citizen's list reads an index, which (as on AWS) may show the change a moment later: she reloads.
      await expect
        .poll(async () => (await citizen.get(`/api/me/positions?callId=${other.id}`)).json.items[0])
        .toMatchObject({ noticeDownload: false, noticeUrl: null });
    }
  });
});
