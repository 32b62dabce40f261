import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION } from '../../lib/local/gpd/model.ts';
import { noticeDataMessages } from '../../functions/domain/payment-notice.ts';
import { as } from '../support/api.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import { gpdAdmin, onGpd } from '../support/gpd.ts';
import { inbox } from '../support/mail.ts';
import { renderFirstPage } from '../support/pdf-render.ts';
import { approvedSubscriber, mypayConfiguration, settledFlow, storedPositions } from '../support/positions.ts';

/**
 * pagoPA's notice on GPD (issue 37), over the real local stack started with PAYMENT_PLATFORM=gpd (project
 * integration-gpd): a month exported to the GPD simulator, then its notice, printed by the portal, e-mailed
 * (aws-ses-v2-local receives the PDF); its QR code reads back pagoPA's payload with the position's notice number and amount. On MyPay (project integration) MyPay's own PDFs are
 * covered by notices.test.ts.
 */
type Client = Awaited<ReturnType<typeof as>>;
let operator: Client;
const november = { mese: 11, anno: 2026 };

beforeAll(async () => {
  if (!onGpd()) return;
  operator = await as('operator');
  expect((await operator.put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  if (onGpd()) await gpdAdmin('reset', {});
});

async function exportedPosition(lastName: string) {
  const { call } = await openCall(operator);
  const person = await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 });
  const started = await operator.post(`/api/calls/${call.id}/exports`, november);
  expect(started.status).toBe(201);
  expect(await settledFlow(operator, started.json.id)).toMatchObject({ step: 'COMPLETATO', accepted: 1 });
  const [position] = await storedPositions(call.id, '2026-11');
  expect(position!.nav).toMatch(/^3\d{17}$/);
  return { call, person, position: position! };
}

const payload = (position: Record<string, unknown>) =>
  `PAGOPA|002|${position.nav}|${DEFAULT_ORGANIZATION.fiscalCode}|${String(position.importoDovuto).padStart(2, '0')}`;

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
    expect(attached.text).toContain(DEFAULT_ORGANIZATION.companyName);
    expect(attached.text).toContain(String(position.titolo));
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
    const [after] = await storedPositions(call.id, '2026-11');
    expect(after).toMatchObject({ isEmailSent: false, dataIsEmailSent: null });
  });
});
