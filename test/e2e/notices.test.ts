import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import { inbox } from '../support/mail.ts';
import { keys } from '../../functions/adapters/table.ts';
import { approvedSubscriber, exportMonth, operatorWithMyPay } from '../support/positions.ts';

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
  await operatorWithMyPay();
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
    const { flowId } = await exportMonth(operator, call.id, { mese: 11, anno: 2026 });

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

    // The browser reopened while a run goes on: the flow item holds a run not finished (as between two
    // slices of the job), and the page shows it on load, without the button being pressed; the button
    // polls the job, finds it finished and comes back.
    const table = localTable();
    const stored = (await table.item(keys.flow(flowId)))!;
    await table.putItem({ ...stored, emailRun: { ...stored.emailRun, finishedAt: null } });
    const listed = await operator.get(`/api/flows?descrizione=${encodeURIComponent(name)}`);
    expect(listed.json.items[0].emailJob).toEqual({ sent: 2 });
    await page.reload();
    const running = page.getByRole('button', { name: `Invio delle email del flusso ${name} in corso` });
    await running.waitFor();
    expect(await running.textContent()).toBe('Invio in corso... (2 inviate)');
    expect(await running.isDisabled()).toBe(true);
    await screenshot(page, 'flow-email-running-on-load');
    await page.getByRole('row', { name: new RegExp(name) }).getByRole('button', { name: `Reinvia le email del flusso ${name}` }).waitFor({ timeout: 15_000 });
  });
});
