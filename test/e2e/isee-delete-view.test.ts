import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { localTable } from '../support/dynamo.ts';
import { attestationPdf, stageIseeFile } from '../support/isee.ts';

/**
 * The two ISEE leftovers of issue 11: the citizen opens her own uploaded document from /profilo, and an
 * operator deletes an ISEE from the user record through 'Rimozione ISEE' (refused, with the server's
 * message, while the ISEE counts as used for a fee).
 */
let browser: Browser;
let citizen: Page;
let operator: Page;
let userId: string;
let iseeId: string;
const appUrl = () => inject('appUrl');
// A value no other e2e file uploads, so the row is this file's own whatever ran before.
const VALUE = 1234.56;
const VALUE_TEXT = /1\.234,56\s€/;
const FILE_NAME = 'attestazione-e2e-profilo.pdf';

beforeAll(async () => {
  browser = await launchBrowser();
  const maria = await as('citizen');
  userId = (await maria.get('/api/me')).json.userId;
  const pdf = await attestationPdf({
    fullName: 'Maria Rossi',
    fiscalCode: 'RSSMRA85C52H501N',
    protocol: 'INPS-ISEE-2026-00999111Z-00',
    value: '1.234,56',
  });
  const uploaded = await maria.post('/api/isee', {
    document: await stageIseeFile(maria, pdf, FILE_NAME),
    value: VALUE,
  });
  expect(uploaded.status).toBe(201);
  iseeId = uploaded.json.id;
  citizen = await newPage(browser);
  operator = await newPage(browser);
  await signInAs(citizen, 'Maria Rossi — Cittadina con profilo completo');
  await signInAs(operator, 'Laura Bianchi — Operatrice');
});
afterAll(async () => {
  await localTable()
    .markIseeUsedForFee(iseeId, null)
    .catch(() => undefined);
  await browser?.close();
});

/** Closes the cookie bar, which would cover the bottom of the pictures. */
async function dismissCookies(page: Page) {
  const cookies = page.getByRole('button', { name: 'Ho capito' });
  if (await cookies.isVisible()) await cookies.click();
}

describe('the citizen’s own ISEE document', () => {
  it('opens from /profilo in the in-page viewer, through a link of a few minutes', async () => {
    await citizen.goto(`${appUrl()}/profilo`);
    await citizen.getByRole('heading', { level: 2, name: 'ISEE caricati' }).waitFor();
    await dismissCookies(citizen);
    const open = citizen.getByRole('button', {
      name: new RegExp(`^Visualizza documento dell'ISEE \\d{4} di ${VALUE_TEXT.source}`),
    });
    await open.click();
    const dialog = citizen.getByRole('dialog', { name: /^Documento dell'ISEE \d{4}$/ });
    const frame = dialog.locator(`iframe[title="Documento ISEE: ${FILE_NAME}"]`);
    await frame.waitFor();
    const src = (await frame.getAttribute('src'))!;
    // The link the API signed for this citizen: short-lived, and it serves her PDF.
    expect(Number(new URL(src).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
    const pdf = await citizen.request.get(src);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    const tab = dialog.getByRole('link', { name: `Apri ${FILE_NAME} in una nuova scheda` });
    expect(await tab.getAttribute('target')).toBe('_blank');
    expect(await tab.getAttribute('href')).toBe(src);
    await citizen.waitForTimeout(1000);
    await screenshot(citizen, 'isee-citizen-document');
    await expectAccessible(citizen);
    await dialog.getByRole('button', { name: 'Chiudi' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The focus is back on the button that opened the dialog.
    await expect.poll(() => citizen.evaluate(() => document.activeElement?.textContent)).toBe('Visualizza documento');
  });
});

describe('an operator deletes an ISEE from the user record', () => {
  const record = () => operator.goto(`${appUrl()}/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`);
  const deleteButton = () =>
    operator.getByRole('button', { name: new RegExp(`^Elimina ISEE \\d{4} di ${VALUE_TEXT.source}`) });
  const question = /^Confermi di voler rimuovere l'ISEE \d{4} di 1\.234,56\s€\?$/;

  it('an ISEE already used for a fee stays, and the dialog’s outcome says why', async () => {
    await localTable().markIseeUsedForFee(iseeId, new Date().toISOString());
    await record();
    await operator.getByRole('heading', { level: 1, name: 'Dati utente' }).waitFor();
    await dismissCookies(operator);
    await deleteButton().click();
    const dialog = operator.getByRole('dialog', { name: 'Rimozione ISEE' });
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.getByText('Non è possibile eliminare un ISEE già usato per calcolare una quota.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await deleteButton().count()).toBe(1);
    await screenshot(operator, 'isee-delete-refused');
    await expectAccessible(operator);
    await localTable().markIseeUsedForFee(iseeId, null);
  });

  it('confirmed, the row goes and the user’s summary follows; Annulla changes nothing', async () => {
    await record();
    await operator.getByText('ISEE da validare', { exact: true }).waitFor();
    await deleteButton().click();
    const dialog = operator.getByRole('dialog', { name: 'Rimozione ISEE' });
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Annulla' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await deleteButton().count()).toBe(1);

    await deleteButton().click();
    await dialog.getByText(question).waitFor();
    await screenshot(operator, 'isee-delete-dialog');
    await expectAccessible(operator);
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.getByText('L’ISEE è stato rimosso.').waitFor();
    await deleteButton().waitFor({ state: 'detached' });
    // Her newest ISEE no longer waits for review: the record's state and the users list follow.
    await operator.getByText('Attivo', { exact: true }).waitFor();
    // The focus goes to the ISEE card's title: the row and its button are gone.
    await expect.poll(() => operator.evaluate(() => document.activeElement?.textContent)).toBe('ISEE');
    await screenshot(operator, 'isee-delete-done');
    await expectAccessible(operator);

    await citizen.goto(`${appUrl()}/profilo`);
    await citizen.getByRole('heading', { level: 2, name: 'ISEE caricati' }).waitFor();
    await citizen
      .getByRole('table', { name: 'ISEE caricati' })
      .or(citizen.getByText('Non è stato caricato nessun ISEE.'))
      .first()
      .waitFor();
    expect(
      await citizen
        .getByRole('button', { name: new RegExp(`^Visualizza documento dell'ISEE \\d{4} di ${VALUE_TEXT.source}`) })
        .count(),
    ).toBe(0);
  });

  it('a delegate finds the record’s delete disabled', async () => {
    const delegate = await newPage(browser);
    await signInAs(delegate, 'Paolo Esposito — Delegato');
    await delegate.goto(`${appUrl()}/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`);
    await delegate.getByRole('heading', { level: 1, name: 'Dati utente' }).waitFor();
    const buttons = delegate.getByRole('button', { name: /^Elimina ISEE/ });
    await buttons.first().waitFor();
    for (const button of await buttons.all()) expect(await button.isDisabled()).toBe(true);
    await delegate.context().close();
  });
});
