import fs from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { currentPeriod, monthNames } from '../../functions/domain/payments.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { inbox } from '../support/mail.ts';
import { approvedSubscriber, approveUser, exportMonth, operatorWithMyPay } from '../support/positions.ts';

/**
 * Issue 9's "Done when", walked in one browser on one stack: the operator filters a call's payments on
 * 'Lista pagamenti', downloads the Excel (opened here with exceljs), edits a description, cancels a position
 * with 0, sends a notice by e-mail (found in the local SES inbox with its PDF) and one to IO (found by the IO
 * simulator), runs 'Sincronizza' and sees the button come back; the citizen (Maria Rossi) opens her payment,
 * pays it on MyPay's checkout, comes back to 'Pagato'; the operator sees it paid.
 */
type Client = Awaited<ReturnType<typeof as>>;
let browser: Browser;
let operatorPage: Page;
let citizenPage: Page;
let operator: Client;
let call: { id: string; name: string };
let mariaId: string;
let gallo: { userId: string; fiscalCode: string };
const period = currentPeriod(new Date());
const month = `${monthNames[period.mese - 1]} ${period.anno}`;
// Letters only: a search text with a digit is read as a fiscal code.
const RUN = Date.now()
  .toString(36)
  .slice(-5)
  .toUpperCase()
  .replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!);
const GALLO = `Gallo${RUN}`;
const MORETTI = `Moretti${RUN}`;
const appUrl = () => inject('appUrl');
const listTable = () => operatorPage.getByRole('table', { name: 'Pagamenti del bando per cittadino' });
const ioMessages = async (fiscalCode: string) =>
  (await (await fetch(`${inject('ioUrl')}/admin/messages?fiscal_code=${fiscalCode}`)).json()).messages as Array<{
    content: { subject: string; payment_data?: { amount: number; notice_number: string } };
  }>;

beforeAll(async () => {
  const started = Date.now();
  browser = await launchBrowser();
  [operatorPage, citizenPage] = await Promise.all([newPage(browser), newPage(browser)]);
  operator = await operatorWithMyPay();
  mariaId = (await (await as('citizen')).get('/api/me')).json.userId as string;
  call = (await openCall(operator, `Bando fatto ${RUN}`)).call;
  await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
  gallo = await approvedSubscriber(operator, call, { lastName: GALLO, iseeValue: 8000, weeklyHour: 3 });
  await approvedSubscriber(operator, call, { lastName: MORETTI, iseeValue: 8000, weeklyHour: 2 });
  await exportMonth(operator, call.id, period);
  await signInAs(operatorPage, 'Laura Bianchi — Operatrice');
  await signInAs(citizenPage, 'Maria Rossi — Cittadina con profilo completo');
  // The cookie notice stays over the page's bottom until dismissed (it would hide rows in the screenshots).
  for (const page of [operatorPage, citizenPage]) await page.getByRole('button', { name: 'Ho capito' }).click();
  console.log(`setup (call, 3 approved, ${month} exported through the flows, 2 sign-ins): ${Date.now() - started} ms`);
}, 120_000);
afterAll(() => browser?.close());

/** The operator's user record of one citizen, opened from the payment list's 'Pagamenti' button. */
async function openRecordFromList(lastName: string) {
  await listTable()
    .getByRole('link', { name: new RegExp(`^Pagamenti: \\d+ da pagare, di ${lastName} Anna`) })
    .click();
  await operatorPage.waitForURL(/\/lista_utenti\/dati_utente\?citizen=/);
  const row = operatorPage
    .getByRole('table', { name: 'Pagamenti dell’utente' })
    .getByRole('row')
    .filter({ hasText: `${call.name} – ${month}` });
  await row.getByText('Da pagare', { exact: true }).waitFor();
  return row;
}

describe('issue 9, done when', () => {
  it('the operator filters, exports Excel, edits, cancels with 0, sends by e-mail and to IO, and runs Sincronizza', async () => {
    // Lista pagamenti, from the call detail; filtered by a surname.
    await operatorPage.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${encodeURIComponent(call.id)}`);
    await operatorPage.getByRole('link', { name: 'Lista pagamenti' }).click();
    await operatorPage.getByRole('heading', { level: 1, name: 'Lista pagamenti' }).waitFor();
    await operatorPage
      .getByTestId('records-found')
      .filter({ hasText: /^Record trovati: 3 / })
      .waitFor();
    await operatorPage.getByLabel('Cerca per cognome e nome o codice fiscale').fill(GALLO.toLowerCase());
    await operatorPage.getByRole('button', { name: 'Cerca' }).click();
    await operatorPage
      .getByTestId('records-found')
      .filter({ hasText: /^Record trovati: 1 / })
      .waitFor();
    expect(await listTable().getByRole('rowheader').allTextContents()).toEqual([`${GALLO} Anna`]);
    await screenshot(operatorPage, 'done-when-1-list-filtered');
    await expectAccessible(operatorPage);

    // Scarica Excel: the filtered rows only, sheet 'Pagamenti', the amount a number of euros.
    const [download] = await Promise.all([
      operatorPage.waitForEvent('download'),
      operatorPage.getByRole('button', { name: 'Scarica Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`_${call.name}\\.xlsx$`));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await fs.readFile((await download.path())!)) as never);
    const sheet = workbook.getWorksheet('Pagamenti')!;
    expect(sheet).toBeDefined();
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).value).toBe(GALLO);
    const listed = (
      await operator.get(`/api/calls/${call.id}/payment-list?anno=${period.anno}&name=${GALLO.toLowerCase()}`)
    ).json.items;
    expect(listed).toHaveLength(1);
    expect(typeof sheet.getRow(2).getCell(6).value).toBe('number');
    expect(sheet.getRow(2).getCell(6).value).toBe(listed[0].importoTotale / 100);
    await operatorPage.getByText('Excel scaricato: 1 riga.').waitFor();

    // Gallo's record: edit the description, then the notice by e-mail and on IO.
    const galloRow = await openRecordFromList(GALLO);
    await galloRow.getByRole('button', { name: new RegExp(`^Modifica pagamento .* di ${GALLO} Anna$`) }).click();
    const edit = operatorPage.getByRole('dialog', { name: 'Modifica pagamento' });
    await edit.getByLabel('Descrizione').fill('Quota rivista dall’ufficio');
    // On a slow network the record's payments come back late after the save: the modal, opened again at
    // once (the table has no description column), must hold the saved text all the same.
    const slowReload = '**/api/users/*/positions*';
    await operatorPage.route(slowReload, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await route.continue();
    });
    const reloaded = operatorPage.waitForResponse((response) => /\/api\/users\/[^/]+\/positions/.test(response.url()));
    await edit.getByRole('button', { name: 'Salva' }).click();
    await edit.waitFor({ state: 'detached' });
    const editGallo = galloRow.getByRole('button', { name: new RegExp(`^Modifica pagamento .* di ${GALLO} Anna$`) });
    await editGallo.click();
    expect(await edit.getByLabel('Descrizione').inputValue()).toBe('Quota rivista dall’ufficio');
    await edit.getByRole('button', { name: 'Annulla' }).click();
    await edit.waitFor({ state: 'detached' });
    await reloaded;
    await operatorPage.unroute(slowReload);

    const mailsBefore = (await inbox()).length;
    await galloRow.getByRole('button', { name: `Invio avviso per email: ${GALLO} Anna` }).click();
    const emailDialog = operatorPage.getByRole('dialog', { name: 'Invio avviso per email' });
    await emailDialog.getByRole('button', { name: 'Conferma' }).click();
    await emailDialog.waitFor({ state: 'detached', timeout: 30_000 });
    await galloRow.getByText(/^Email inviata il /).waitFor();
    const mails = (await inbox())
      .slice(mailsBefore)
      .filter((m) => m.destination.to.some((to) => to.includes(GALLO.toLowerCase())));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Avviso di pagamento: /);
    const [attachment] = (mails[0] as unknown as { attachments: Array<{ filename: string; contentType: string }> })
      .attachments;
    expect(attachment).toMatchObject({
      contentType: 'application/pdf',
      filename: expect.stringMatching(/^avviso_3\d{17}\.pdf$/),
    });
    const nav = attachment!.filename.slice('avviso_'.length, -'.pdf'.length);

    expect(await ioMessages(gallo.fiscalCode)).toEqual([]);
    await galloRow.getByRole('button', { name: `Invio avviso su IO: ${GALLO} Anna` }).click();
    const ioDialog = operatorPage.getByRole('dialog', { name: 'Invio avviso su IO' });
    await ioDialog.getByRole('button', { name: 'Conferma' }).click();
    await ioDialog.waitFor({ state: 'detached', timeout: 30_000 });
    await galloRow.getByText('Inviato su IO', { exact: true }).waitFor();
    const io = await ioMessages(gallo.fiscalCode);
    expect(io).toHaveLength(1);
    expect(io[0]!.content.payment_data).toMatchObject({ notice_number: nav, amount: listed[0].importoTotale });
    await screenshot(operatorPage, 'done-when-2-record-notices-sent');
    await expectAccessible(operatorPage);

    // Back to the list, the filter cleared: Moretti's position cancelled with 0 from his record.
    await operatorPage.goBack();
    await operatorPage.getByRole('button', { name: 'Annulla' }).click();
    await operatorPage
      .getByTestId('records-found')
      .filter({ hasText: /^Record trovati: 3 / })
      .waitFor();
    const morettiRow = await openRecordFromList(MORETTI);
    await morettiRow.getByRole('button', { name: new RegExp(`^Modifica pagamento .* di ${MORETTI} Anna$`) }).click();
    await edit.getByLabel('Importo (€)').fill('0');
    await edit.getByRole('button', { name: 'Salva' }).click();
    await edit.getByText(/annullata definitivamente/).waitFor();
    await edit.getByRole('button', { name: 'Conferma annullamento' }).click();
    await morettiRow.getByText('Annullato', { exact: true }).waitFor();
    expect(
      await morettiRow
        .getByRole('button', { name: new RegExp(`^Modifica pagamento .* di ${MORETTI} Anna$`) })
        .isDisabled(),
    ).toBe(true);

    // Sincronizza on the list: confirmed, disabled 'Importazione in corso...', then back.
    await operatorPage.goBack();
    await listTable().getByRole('rowheader').first().waitFor();
    await operatorPage.getByRole('button', { name: 'Sincronizza' }).click();
    const confirm = operatorPage.getByRole('dialog', { name: 'Sincronizza' });
    await confirm.getByText('Sei sicuro di voler procedere con il ricalcolo delle posizioni debitorie?').waitFor();
    const syncStarted = Date.now();
    await confirm.getByRole('button', { name: 'Conferma' }).click();
    const running = operatorPage.getByRole('button', { name: 'Importazione in corso...' });
    await running.waitFor();
    expect(await running.isDisabled()).toBe(true);
    await screenshot(operatorPage, 'done-when-3-sync-running');
    await operatorPage.getByRole('button', { name: 'Sincronizza' }).waitFor({ timeout: 30_000 });
    expect(await operatorPage.getByRole('button', { name: 'Sincronizza' }).isEnabled()).toBe(true);
    console.log(`Sincronizza: ${Date.now() - syncStarted} ms from the confirmation to the button back`);
    expect((await operator.get(`/api/calls/${call.id}/positions/sync`)).json).toMatchObject({
      isUpdating: false,
      state: 'SUCCEEDED',
    });
    // Moretti's cancelled position no longer counts as owed; Maria's still does.
    await listTable()
      .getByRole('link', { name: `Pagamenti: 0 da pagare, di ${MORETTI} Anna` })
      .waitFor();
    await listTable().getByRole('link', { name: 'Pagamenti: 1 da pagare, di Rossi Maria' }).waitFor();
  }, 180_000);

  it('the citizen pays her position on MyPay’s checkout and sees ‘Pagato’; the operator sees it paid', async () => {
    await citizenPage.goto(`${appUrl()}/iscrizioni`);
    await citizenPage.getByRole('heading', { level: 1, name: 'Iscrizioni' }).waitFor();
    await citizenPage.getByRole('link', { name: `Pagamenti per ${call.name}` }).click();
    await citizenPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    const row = citizenPage
      .getByRole('table', { name: 'I tuoi pagamenti per questo servizio' })
      .getByRole('row', { name: new RegExp(month) });
    await row.getByText('Da pagare').waitFor();
    await screenshot(citizenPage, 'done-when-4-citizen-to-pay');
    await row.getByRole('button', { name: /^Paga / }).click();
    await citizenPage.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    await citizenPage.getByRole('button', { name: 'Paga (esito positivo)' }).click();
    await citizenPage.waitForURL(
      (url) => url.origin === appUrl() && url.pathname === '/iscrizioni/visualizza_servizio',
    );
    await citizenPage.getByText('Pagamento avvenuto con successo: la posizione risulta pagata.').waitFor();
    await row.getByText('Pagato', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Paga / }).count()).toBe(0);
    await screenshot(citizenPage, 'done-when-5-citizen-paid');
    await expectAccessible(citizenPage);

    // The operator: Maria's row on the list owes nothing more, and her record shows it paid.
    await operatorPage.reload();
    await listTable().getByRole('link', { name: 'Pagamenti: 0 da pagare, di Rossi Maria' }).click();
    const paidRow = operatorPage
      .getByRole('table', { name: 'Pagamenti dell’utente' })
      .getByRole('row')
      .filter({ hasText: `${call.name} – ${month}` });
    await paidRow.getByText('Pagato', { exact: true }).waitFor();
    // A notice never sent is no longer a warning once the position is paid: its badges are neutral.
    expect(await paidRow.getByText('Non inviato su IO').count()).toBe(1);
    expect(await paidRow.locator('.amplify-badge--warning').count()).toBe(0);
    expect(new URL(operatorPage.url()).searchParams.get('citizen')).toBe(mariaId);
    await screenshot(operatorPage, 'done-when-6-operator-sees-paid');
    await expectAccessible(operatorPage);
  }, 90_000);
});
