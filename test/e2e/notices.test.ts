import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import path from 'node:path';
import { expectAccessible, launchBrowser, newPage, screenshot, SCREENSHOTS, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import { inbox } from '../support/mail.ts';
import { keys } from '../../functions/adapters/table.ts';
import { approvedSubscriber, exportMonth, operatorWithMyPay } from '../support/positions.ts';
import { billedMonth } from '../support/months.ts';

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
  await ioAdmin('/admin/reset', {});
  await browser?.close();
});

async function ioAdmin(path: string, body: object) {
  const response = await fetch(`${inject('ioUrl')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

describe('Flussi MyPay: Invia email', () => {
  it('sends the notices of a completed flow and the mails arrive with their PDF', async () => {
    const operator = await as('operator');
    const name = `Bando avvisi ${Date.now().toString(36)}`;
    const { call } = await openCall(operator, name);
    const surnames = ['Marini', 'Fontana'];
    for (const lastName of surnames)
      await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 });
    const { flowId } = await exportMonth(operator, call.id, billedMonth().period);

    await page.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(name)}`);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByText('Email non inviate').waitFor();
    await row.getByRole('button', { name: `Invia email del flusso ${name}` }).click();
    await page.getByText('Rielaborazione avvenuta con successo.').waitFor({ timeout: 30_000 });
    await row.getByText('Email inviate').waitFor();
    await screenshot(page, 'notices-flow-email');
    await expectAccessible(page);
    // Each button's spoken name starts with what it shows (a voice user says "Reinvia email").
    const { violations } = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
    expect(violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);

    const mails = (await inbox()).filter((m) =>
      surnames.some((s) => m.destination.to.some((to) => to.includes(s.toLowerCase()))),
    );
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.subject).toMatch(/^Avviso di pagamento: /);
      const [attachment] = (mail as unknown as { attachments: Array<{ filename: string; contentType: string }> })
        .attachments;
      expect(attachment).toMatchObject({
        contentType: 'application/pdf',
        filename: expect.stringMatching(/^avviso_3\d{17}\.pdf$/),
      });
    }
    // Pressed again it resends (the button now says so).
    await row.getByRole('button', { name: `Reinvia email del flusso ${name}` }).waitFor();

    // The browser reopened while a run goes on: the flow item holds a run not finished (as between two
    // slices of the job), and the page shows it on load, without the button being pressed; the button
    // polls the job, finds it finished and comes back.
    const table = localTable();
    const stored = (await table.item(keys.flow(flowId)))!;
    await table.putItem({ ...stored, emailRun: { ...stored.emailRun, finishedAt: null } });
    const listed = await operator.get(`/api/flows?descrizione=${encodeURIComponent(name)}`);
    expect(listed.json.items[0].emailJob).toEqual({ sent: 2 });
    await page.reload();
    const running = page.getByRole('button', {
      name: new RegExp(`^Invio in corso\\.\\.\\. \\(\\d+ inviat[ae]\\) del flusso ${name}$`),
    });
    await running.waitFor();
    expect(await running.textContent()).toBe('Invio in corso... (2 inviate)');
    expect(await running.isDisabled()).toBe(true);
    await screenshot(page, 'flow-email-running-on-load');
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: `Reinvia email del flusso ${name}` })
      .waitFor({ timeout: 15_000 });
  });
});

/**
 * The IO modal and the payment rows on the operator's user record (issue 26, issue 23): a refusal that would
 * only repeat disables 'Conferma'; 'Inviato su IO' only for a message IO processed; a message IO accepted and
 * then rejected reads as not sent, with why; one still on its way has 'Verifica'. The notice number reads in
 * groups of four and copies as 18 digits.
 */
describe('IO notices on the payment rows', () => {
  const month = billedMonth();
  const period = month.period;
  let people: Record<
    'noIo' | 'delivered' | 'rejected' | 'slow',
    { userId: string; fiscalCode: string; lastName: string }
  >;

  beforeAll(async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando IO ${Date.now().toString(36)}`);
    const names = { noIo: 'Senzaapp', delivered: 'Recapitato', rejected: 'Respinto', slow: 'Inattesa' } as const;
    const made = {} as typeof people;
    for (const [key, lastName] of Object.entries(names))
      made[key as keyof typeof names] = {
        lastName,
        ...(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 })),
      };
    people = made;
    await exportMonth(operator, call.id, period);
    await ioAdmin('/admin/reset', {});
    await ioAdmin('/admin/profiles', { fiscalCode: people.noIo.fiscalCode, state: 'none' });
    await ioAdmin('/admin/outcomes', { fiscalCode: people.rejected.fiscalCode, status: 'REJECTED' });
    await ioAdmin('/admin/outcomes', { fiscalCode: people.slow.fiscalCode, status: 'ACCEPTED' });
  });

  const openRecord = async (target: Page, userId: string) => {
    await target.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`);
    const row = target.getByRole('row', { name: new RegExp(month.label) });
    await row.getByRole('button', { name: /^Invio avviso su IO/ }).waitFor();
    return row;
  };

  it('a citizen without IO: the refusal is shown, Conferma is disabled, and the row says why after closing', async () => {
    const row = await openRecord(page, people.noIo.userId);
    await row.getByRole('button', { name: /^Invio avviso su IO/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Invio avviso su IO' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Il cittadino non ha attivato l’app IO' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Conferma' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Annulla' }).isEnabled()).toBe(true);
    // The message wraps inside the modal, though the modal opens from a row's cell that does not wrap.
    expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    await dialog.screenshot({ path: path.join(SCREENSHOTS, 'io-refused-modal-1280.png') });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await row.getByText('Non inviato su IO', { exact: true }).waitFor();
    await row.getByText('IO: il cittadino non ha attivato l’app IO').waitFor();
    // Opened again, the operator may try again (the citizen may have activated IO since).
    await row.getByRole('button', { name: /^Invio avviso su IO/ }).click();
    expect(await dialog.getByRole('button', { name: 'Conferma' }).isEnabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Annulla' }).click();
  });

  it('a message IO processed reads "Inviato su IO"; the notice number is grouped and copies without spaces', async () => {
    const row = await openRecord(page, people.delivered.userId);
    const nav = (await (await as('operator')).get(`/api/users/${people.delivered.userId}/positions`)).json.items[0]
      .nav as string;
    expect(nav).toMatch(/^3\d{17}$/);
    const shown = row.locator('.notice-number__digits');
    // Groups of four, as the PDF and the e-mail print it.
    expect(await shown.evaluate((el) => [...el.children].map((c) => c.textContent))).toEqual(nav.match(/.{1,4}/g));
    expect(await shown.evaluate((el) => getComputedStyle(el.children[1]!).marginInlineStart)).not.toBe('0px');
    // Selected and copied, or copied with the button: 18 digits, no spaces.
    expect(
      await shown.evaluate((el) => (window.getSelection()!.selectAllChildren(el), window.getSelection()!.toString())),
    ).toBe(nav);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('appUrl') });
    await row.getByRole('button', { name: `Copia il numero avviso ${nav.match(/.{1,4}/g)!.join(' ')}` }).click();
    await row.getByText('Copiato').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(nav);

    await row.getByRole('button', { name: /^Invio avviso su IO/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Invio avviso su IO' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('Inviato su IO', { exact: true }).waitFor();
    await screenshot(page, 'io-delivered-row-1280');
  });

  it('accepted by IO and then rejected: not sent, with the reason, and Conferma disabled', async () => {
    const row = await openRecord(page, people.rejected.userId);
    await row.getByRole('button', { name: /^Invio avviso su IO/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Invio avviso su IO' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'L’app IO ha accettato il messaggio ma poi lo ha rifiutato' })
      .waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('button', { name: 'Conferma' }).isDisabled()).toBe(true);
    await dialog.screenshot({ path: path.join(SCREENSHOTS, 'io-rejected-modal-1280.png') });
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await row.getByText('Non inviato su IO', { exact: true }).waitFor();
    await row.getByText(/IO: messaggio rifiutato \(profilo non attivo/).waitFor();
    await screenshot(page, 'io-rejected-row-1280');
    await expectAccessible(page);
  });

  it('still on its way: "In consegna su IO" with Verifica, which reads it once IO has processed it; the same at 390 px', async () => {
    // The operator's signed-in tab, narrowed to a phone's width.
    const phone = page;
    await phone.setViewportSize({ width: 390, height: 900 });
    const row = await openRecord(phone, people.slow.userId);
    await row.getByRole('button', { name: /^Invio avviso su IO/ }).click();
    const dialog = phone.getByRole('dialog', { name: 'Invio avviso su IO' });
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'io-modal-390.png') });
    expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
    await row.getByText('In consegna su IO', { exact: true }).waitFor();
    await row.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'io-pending-row-390.png') });
    await expectAccessible(phone);
    await ioAdmin('/admin/outcomes', { fiscalCode: people.slow.fiscalCode, status: 'PROCESSED' });
    await row.getByRole('button', { name: /^Verifica su IO/ }).click();
    await row.getByText('Inviato su IO', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Verifica su IO/ }).count()).toBe(0);

    await openRecord(phone, people.noIo.userId);
    await phone.getByRole('heading', { name: 'Pagamenti' }).scrollIntoViewIfNeeded();
    await phone.screenshot({ path: path.join(SCREENSHOTS, 'io-refused-row-390.png') });
    await phone.setViewportSize({ width: 1280, height: 900 });
  });
});
