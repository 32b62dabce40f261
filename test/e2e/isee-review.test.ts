import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { tinyPng } from '../support/files.ts';
import { attestationPdf, croppedAttestationPhoto } from '../support/isee.ts';

/**
 * The ISEE path of issue 4: the citizen uploads, sees the waiting banner; the operator sees the badge,
 * reviews and confirms; the banner disappears; a refused ISEE shows the refused banner.
 */
let browser: Browser;
let citizen: Page;
let operator: Page;
const appUrl = () => inject('appUrl');
const protocol = `INPS-ISEE-2026-${String(Date.now()).slice(-8)}K-00`;

beforeAll(async () => {
  browser = await launchBrowser();
  citizen = await newPage(browser);
  operator = await newPage(browser);
  await signInAs(citizen, 'Maria Rossi — Cittadina con profilo completo');
  await signInAs(operator, 'Laura Bianchi — Operatrice');
});
afterAll(() => browser?.close());

/**
 * Uploads from /caricamento_ISEE and waits for 'ISEE caricato correttamente'. Answers the wait for the citizen's
 * tab to go home 4 seconds later (spec part 2 §2.7), for the test to await once the operator, in the other tab,
 * has gone on meanwhile.
 */
async function uploadAsCitizen(file: { name: string; mimeType: string; buffer: Buffer }, value: string) {
  await citizen.goto(`${appUrl()}/caricamento_ISEE`);
  await citizen.getByRole('heading', { level: 1, name: 'Caricamento ISEE' }).waitFor();
  await citizen.getByLabel('Documento ISEE').setInputFiles(file);
  await citizen.getByLabel('Valore ISEE (€)').pressSequentially(value);
  await citizen.getByRole('button', { name: 'Carica' }).click();
  await citizen.getByText('ISEE caricato correttamente').waitFor();
  const home = citizen.waitForURL(`${appUrl()}/`, { timeout: 10_000 });
  // Awaited by the test; until then a failure is held here, not reported as unhandled.
  home.catch(() => {});
  return { home };
}

/** Opens the verify page of the citizen's newest ISEE from /lista_isee (Maria Rossi's row). */
async function openReview() {
  await operator.goto(appUrl());
  await operator.getByRole('link', { name: 'Visualizza ISEE' }).click();
  await operator.getByRole('heading', { level: 1, name: 'ISEE da verificare' }).waitFor();
  await operator.getByRole('link', { name: 'Dettaglio ISEE di Maria Rossi' }).last().click();
  await operator.getByRole('heading', { level: 1, name: 'Verifica ISEE' }).waitFor();
}

/** What the verify page shows beside a term of 'Dati letti dal documento'. */
const readValue = async (term: string) =>
  (
    (await operator
      .locator('dt', { hasText: new RegExp(`^${term}$`) })
      .locator('xpath=following-sibling::dd[1]')
      .textContent()) ?? ''
  ).trim();

describe('a citizen’s ISEE, from upload to review', () => {
  it('the citizen uploads an attestation PDF and sees the waiting banner', async () => {
    await citizen.goto(`${appUrl()}/caricamento_ISEE`);
    await citizen.getByRole('button', { name: 'Carica' }).click();
    await citizen.getByText('Non è stato caricato nessun documento').waitFor();
    await citizen.getByText('Il campo non può essere vuoto!').waitFor();
    await citizen.getByLabel('Valore ISEE (€)').pressSequentially('12a345,678');
    expect(await citizen.getByLabel('Valore ISEE (€)').inputValue()).toBe('12345,67');
    await screenshot(citizen, 'isee-citizen-upload-errors');
    await expectAccessible(citizen);

    // 19.382,70 / 1,57 = 12.345,67: ISE, scale and ISEE agree.
    const pdf = await attestationPdf({
      fullName: 'Maria Rossi',
      fiscalCode: 'RSSMRA85C52H501N',
      protocol,
      value: '12.345,67',
      ise: '19.382,70',
      scale: '1,57',
    });
    const { home } = await uploadAsCitizen(
      { name: 'attestazione-isee.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) },
      '12345,67',
    );
    await home;
    await citizen.getByText('ISEE in attesa di validazione').waitFor();
    await citizen
      .getByText(/non è possibile iscriversi ai bandi/)
      .first()
      .waitFor();
    await screenshot(citizen, 'isee-citizen-home-waiting');
    await expectAccessible(citizen);
  });

  it('the operator sees the badge, reviews the document, copies the value and confirms', async () => {
    await operator.goto(appUrl());
    const badge = operator.locator('.dashboard-card', { hasText: 'ISEE' }).first().locator('.dashboard-card__badge');
    await expect.poll(async () => Number.parseInt((await badge.textContent()) ?? '0', 10)).toBeGreaterThanOrEqual(1);
    await openReview();
    await operator.locator('iframe[title^="Documento ISEE"]').waitFor();
    // The reading starts when the file is stored: either it is done, or the page says it is running.
    const read = operator.getByRole('button', { name: 'Copia valore' });
    const running = operator.getByText('Elaborazione valore ISEE...');
    await read.or(running).first().waitFor();
    await screenshot(operator, 'isee-verify');
    await expectAccessible(operator);
    const value = operator.getByLabel('Valore dichiarato (€)');
    await value.fill('');
    await operator.getByRole('button', { name: 'Conferma' }).click();
    await operator.getByText('Il campo non può essere vuoto!').waitFor();
    if (
      (await read.isVisible().catch(() => false)) ||
      (await read
        .waitFor({ timeout: 20_000 })
        .then(() => true)
        .catch(() => false))
    ) {
      await expect
        .poll(() => operator.getByTestId('fiscal-code-check').textContent())
        .toContain('presente nel documento');
      await operator.getByText(protocol).waitFor();
      // What the document says, and that ISEE = ISE / scala di equivalenza.
      expect(await readValue('ISE')).toMatch(/^19\.382,70\s€$/);
      expect(await readValue('Scala di equivalenza')).toBe('1,57');
      expect(await readValue('ISEE ordinario')).toMatch(/^12\.345,67\s€ ✔ pari a ISE \/ scala$/);
      expect(await operator.getByText(/valori non coerenti/i).count()).toBe(0);
      await read.click();
      expect(await value.inputValue()).toBe('12345,67');
      await screenshot(operator, 'isee-verify-read');
    } else {
      // The document reader (another part of the issue) is not wired in this build: the page keeps saying so.
      await running.waitFor();
      await value.fill('12345,67');
    }
    await operator.getByRole('button', { name: 'Conferma' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Caricamento ISEE' });
    await dialog.getByText("Confermi di voler caricare l'ISEE?").waitFor();
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.waitForURL(`${appUrl()}/lista_isee`);
  });

  it('the citizen’s banner disappears once the ISEE is validated', async () => {
    await citizen.goto(appUrl());
    await citizen.getByRole('heading', { level: 1, name: 'Ciao, Maria' }).waitFor();
    await citizen.waitForTimeout(1000);
    expect(await citizen.getByText('ISEE in attesa di validazione').count()).toBe(0);
    expect(await citizen.getByText('ISEE rifiutato').count()).toBe(0);
    expect(await citizen.getByText('ISEE non caricato').count()).toBe(0);
  });

  it('an attestation whose ISEE is not ISE / scale is flagged, and its value is not proposed', async () => {
    // 25.000,00 / 1,57 = 15.923,57, not the 12.345,67 printed: an edited document (or a misread one).
    const pdf = await attestationPdf({
      fullName: 'Maria Rossi',
      fiscalCode: 'RSSMRA85C52H501N',
      protocol,
      value: '12.345,67',
      ise: '25.000,00',
      scale: '1,57',
    });
    const { home } = await uploadAsCitizen(
      { name: 'attestazione-modificata.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) },
      '9000',
    );
    await openReview();
    await home;
    await operator.getByRole('button', { name: 'Copia valore' }).waitFor({ timeout: 20_000 });
    await operator.getByText(/valori non coerenti: ISEE diverso da ISE \/ scala di equivalenza/i).waitFor();
    expect(await readValue('ISE')).toMatch(/^25\.000,00\s€$/);
    expect(await readValue('ISEE ordinario')).toMatch(/^12\.345,67\s€$/);
    expect(await operator.getByTestId('coherence-check').count()).toBe(0);
    // The declared value stays the citizen's until the operator copies or types another on purpose.
    expect(await operator.getByLabel('Valore dichiarato (€)').inputValue()).toBe('9000,00');
    // The cookie bar would cover the values in the picture.
    const cookies = operator.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    await screenshot(operator, 'isee-verify-incoherent');
    await expectAccessible(operator);
    await operator.getByRole('button', { name: 'Rifiuta' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Rifiuto ISEE' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.waitForURL(`${appUrl()}/lista_isee`);
  });

  it('a photo whose ISE and scale cannot be read shows its ISEE as not verified, never as reliable', async () => {
    const photo = await croppedAttestationPhoto({ fiscalCode: 'RSSMRA85C52H501N', protocol, value: '12.345,67' });
    const { home } = await uploadAsCitizen(
      { name: 'foto-attestazione.png', mimeType: 'image/png', buffer: photo },
      '12345,67',
    );
    await openReview();
    await home;
    // OCR on this machine takes a while.
    await operator.getByRole('button', { name: 'Copia valore' }).waitFor({ timeout: 80_000 });
    await operator.getByText('Valore non verificato: ISE o scala di equivalenza non letti').waitFor();
    expect(await readValue('ISEE ordinario')).toMatch(/^12\.345,67\s€ \? non verificato$/);
    expect(await readValue('ISE')).toBe('—');
    expect(Number.parseInt(await readValue('Affidabilità'), 10)).toBeLessThanOrEqual(50);
    const cookies = operator.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    await screenshot(operator, 'isee-verify-unverified-photo');
    await expectAccessible(operator);
    await operator.getByRole('button', { name: 'Rifiuta' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Rifiuto ISEE' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.waitForURL(`${appUrl()}/lista_isee`);
  }, 150_000);

  it('a photographed ISEE refused by the operator shows the refused banner', async () => {
    const { home } = await uploadAsCitizen(
      { name: 'foto-isee.png', mimeType: 'image/png', buffer: Buffer.from(tinyPng()) },
      '9000',
    );
    // The citizen's tab goes home and shows the banner while the operator opens the review.
    await Promise.all([home.then(() => citizen.getByText('ISEE in attesa di validazione').waitFor()), openReview()]);
    await operator.locator('img[alt^="Documento ISEE"]').waitFor();
    await operator.getByRole('button', { name: 'Rifiuta' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Rifiuto ISEE' });
    await dialog.getByText("Confermi di voler rifiutare l'ISEE?").waitFor();
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await operator.waitForURL(`${appUrl()}/lista_isee`);
    await citizen.goto(appUrl());
    await citizen.getByText('ISEE rifiutato').waitFor();
    await screenshot(citizen, 'isee-citizen-home-refused');
    await expectAccessible(citizen);
  });

  it('the refused ISEE opens read-only from the user record', async () => {
    await operator.goto(`${appUrl()}/lista_utenti?lastName=rossi&firstName=maria`);
    await operator.getByRole('link', { name: 'Dettaglio utente Maria Rossi', exact: true }).click();
    await operator.getByRole('heading', { level: 1, name: 'Dati utente' }).waitFor();
    await operator.getByRole('cell', { name: 'RIFIUTATO' }).first().waitFor();
    await screenshot(operator, 'user-record');
    await expectAccessible(operator);
    await operator
      .getByRole('link', { name: /^Dettaglio ISEE/ })
      .first()
      .click();
    await operator.getByRole('heading', { level: 1, name: 'Visualizza ISEE' }).waitFor();
    await operator.locator('img[alt^="Documento ISEE"]').waitFor();
    await expectAccessible(operator);
  });
});

describe('users screens', () => {
  it('/lista_utenti?loaded=true opens with "Da validare" checked, and the delete rule holds', async () => {
    await operator.goto(`${appUrl()}/lista_utenti?loaded=true`);
    await operator.getByRole('heading', { level: 1, name: 'Lista utenti' }).waitFor();
    expect(await operator.getByLabel('Da validare').isChecked()).toBe(true);
    await operator.getByRole('cell', { name: 'Ferrari', exact: true }).waitFor();
    expect(await operator.getByRole('cell', { name: 'Bruno', exact: true }).count()).toBe(0);
    await operator.getByText('Da validare', { exact: true }).click();
    expect(await operator.getByLabel('Da validare').isChecked()).toBe(false);
    await operator.getByLabel('Cognome').fill('bru');
    await operator.getByLabel('Cognome').press('Enter');
    await operator.waitForURL(/lastName=bru/);
    await operator.getByRole('cell', { name: 'Bruno', exact: true }).waitFor();
    expect(await operator.getByRole('button', { name: 'Elimina utente Anna Bruno' }).isEnabled()).toBe(true);
    await operator.getByLabel('Cognome').fill('ferr');
    await operator.getByLabel('Cognome').press('Enter');
    await operator.getByTitle('Non è possibile cancellare un utente se ha dati collegati!').first().waitFor();
    await screenshot(operator, 'users-list');
    await expectAccessible(operator);
  });

  it('the new-user form shows its rules', async () => {
    await operator.goto(`${appUrl()}/lista_utenti/nuovo_utente`);
    await operator.getByRole('heading', { level: 1, name: 'Nuovo utente' }).waitFor();
    expect(await operator.getByLabel('Nazione').inputValue()).toBe('IT');
    expect(await operator.getByLabel('Provincia').locator('option').count()).toBeGreaterThan(100);
    await operator.getByLabel('Codice fiscale').fill('RSSMRA85C52H501X');
    await operator.getByLabel('E-mail', { exact: true }).fill('non-una-mail');
    await operator.getByRole('button', { name: 'Conferma' }).click();
    await operator.getByText('Il codice fiscale è errato!').waitFor();
    await operator.getByText("Il formato dell'email non è corretto!").waitFor();
    await screenshot(operator, 'user-new-errors');
    await expectAccessible(operator);
  });

  it('a first-time citizen is asked to complete the profile', async () => {
    const page = await newPage(browser);
    await signInAs(page, 'Giuseppe Verdi — Cittadino al primo accesso');
    await page.getByText('Completa il tuo profilo').first().waitFor();
    await page.getByText('ISEE non caricato').waitFor();
    await screenshot(page, 'citizen-first-sign-in');
    await expectAccessible(page);
    await page.goto(`${appUrl()}/profilo?scroll=true`);
    await page.getByRole('heading', { level: 2, name: 'ISEE caricati' }).waitFor();
    expect(await page.getByLabel('Nome', { exact: true }).isEditable()).toBe(false);
    expect(await page.getByLabel('Codice fiscale').isEditable()).toBe(false);
    await screenshot(page, 'citizen-profile');
    await expectAccessible(page);
    // The incomplete profile opens in edit mode: 'Indietro' closes the fields and gives the focus to 'Modifica'.
    const focused = () =>
      page.evaluate(() => document.activeElement?.textContent || document.activeElement?.getAttribute('name'));
    await page.getByRole('button', { name: 'Indietro' }).click();
    await expect.poll(focused).toBe('Modifica');
    expect(await page.getByLabel('Data di nascita').isEditable()).toBe(false);
    // 'Modifica' opens them again, the focus on the first field the citizen may change.
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('birthDate');
    await page.context().close();
  });
});
