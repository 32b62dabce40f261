import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { inbox } from '../support/mail.ts';
import { approvedSubscriber, mypayConfiguration } from '../support/positions.ts';

/**
 * Issue 9's flow e-mail in the browser: on 'Flussi MyPay' the operator sends the notices of a completed
 * flow; the page says 'Rielaborazione avvenuta con successo.' and each citizen's mail, with MyPay's PDF,
 * is in the local SES inbox.
 */
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await signInAs(page, 'Laura Bianchi — Operatrice');
  expect((await (await as('operator')).put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

describe('Flussi MyPay: Invia email', () => {
  it('sends the notices of a completed flow and the mails arrive with their PDF', async () => {
    const operator = await as('operator');
    const name = `Bando avvisi ${Date.now().toString(36)}`;
    const { call } = await openCall(operator, name);
    const surnames = ['Marini', 'Fontana'];
    for (const lastName of surnames) await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 });
    const started = await operator.post(`/api/calls/${call.id}/exports`, { mese: 11, anno: 2026 });
    expect(started.status).toBe(201);
    await expect.poll(async () => (await operator.get(`/api/flows/${started.json.id}`)).json.step, { timeout: 30_000 }).toBe('COMPLETATO');

    await page.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(name)}`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByText('Email non inviate').waitFor();
    await row.getByRole('button', { name: `Invia le email del flusso ${name}` }).click();
    await page.getByText('Rielaborazione avvenuta con successo.').waitFor({ timeout: 30_000 });
    await row.getByText('Email inviate').waitFor();
    await screenshot(page, 'notices-flow-email');
    await expectAccessible(page);

    const mails = (await inbox()).filter((m) => surnames.some((s) => m.destination.to.some((to) => to.includes(s.toLowerCase()))));
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.subject).toMatch(/^Avviso di pagamento: /);
      const [attachment] = (mail as unknown as { attachments: Array<{ filename: string; contentType: string }> }).attachments;
      expect(attachment).toMatchObject({ contentType: 'application/pdf', filename: expect.stringMatching(/^avviso_3\d{17}\.pdf$/) });
    }
    // Pressed again it resends (the button now says so).
    await row.getByRole('button', { name: `Reinvia le email del flusso ${name}` }).waitFor();
  });
});
