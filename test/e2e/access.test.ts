import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import {
  expectAccessible,
  launchBrowser,
  newPage,
  screenshot,
  signInAs,
  signInThroughProvider,
} from '../support/browser.ts';

/**
 * What each role sees (issues 21 and 23): the delegate's panel and user record, two operators saving the
 * same ticket, and a reload with an expired token.
 */
let browser: Browser;
const appUrl = () => inject('appUrl');
const DELEGATE = 'Paolo Esposito — Delegato';
const OPERATOR = 'Laura Bianchi — Operatrice';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Paolo Greco's record: the demo's citizen with payments (lib/local/demo-enrolments.ts). */
async function grecoRecord() {
  const found = await (await as('operator')).get('/api/users?lastName=Greco');
  const greco = found.json.items.find((u: { fiscalCode: string }) => u.fiscalCode === 'GRCPLA70A01F205T');
  return `${appUrl()}/lista_utenti/dati_utente?citizen=${encodeURIComponent(greco.id)}`;
}

describe('a delegate', () => {
  for (const width of [1280, 390]) {
    it(`keeps the ISEE card and its count, with 'Visualizza' disabled and a tooltip saying the list is the operators' (${width} px)`, async () => {
      const page = await newPage(browser, width);
      await signInAs(page, DELEGATE);
      await page.getByRole('heading', { level: 1, name: 'Pannello delegato' }).waitFor();
      const card = page.locator('article.dashboard-card', { has: page.getByRole('heading', { name: 'ISEE' }) });
      await card
        .locator('.dashboard-card__badge')
        .getByText(/\d+ Notific/)
        .waitFor();
      expect(await card.getByRole('link').count()).toBe(0);
      const open = card.getByRole('button', { name: 'Visualizza ISEE' });
      expect(await open.getAttribute('aria-disabled')).toBe('true');
      const tooltip = page.getByRole('tooltip', {
        name: 'La lista degli ISEE da verificare è riservata agli operatori.',
      });
      expect(await tooltip.isVisible()).toBe(false);
      await open.focus();
      await tooltip.waitFor({ state: 'visible' });
      expect(await open.getAttribute('aria-describedby')).toBe(await tooltip.getAttribute('id'));
      await screenshot(page, `access-delegate-panel-${width}`);
      await open.click({ force: true }); // a person clicks it all the same
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByRole('heading', { name: 'Autorizzazione negata' }).count()).toBe(0);
      // The users card still leads to the list.
      await page.getByRole('link', { name: 'Visualizza UTENTI' }).click();
      await page.waitForURL((url) => url.pathname === '/lista_utenti');
      await page.goto(appUrl());
      await page.getByRole('heading', { level: 1, name: 'Pannello delegato' }).waitFor();
      await expectAccessible(page);
      await page.context().close();
    });

    it(`sees the record's 'Modifica' buttons disabled, as 'Email' and 'IO' (${width} px)`, async () => {
      const page = await newPage(browser, width);
      await signInAs(page, DELEGATE);
      await page.goto(await grecoRecord());
      await page.getByRole('heading', { level: 2, name: /Paolo Greco/ }).waitFor();
      const payments = page.locator('.amplify-card', {
        has: page.getByRole('heading', { level: 2, name: 'Pagamenti' }),
      });
      const editPayment = payments.getByRole('button', { name: /^Modifica pagamento/ }).first();
      await editPayment.waitFor();
      expect(await editPayment.isDisabled()).toBe(true);
      for (const name of [/^Invio avviso per email/, /^Invio avviso su IO/]) {
        const button = payments.getByRole('button', { name }).first();
        expect(await button.isDisabled(), String(name)).toBe(true);
      }
      expect(await page.getByRole('button', { name: 'Modifica', exact: true }).isDisabled()).toBe(true);
      await screenshot(page, `access-delegate-user-record-${width}`);
      await expectAccessible(page);
      await page.context().close();
    });
  }
});

describe('two operators save the same ticket', () => {
  it('the second, on the page opened before the first saved, is told to reload and nothing of theirs is written', async () => {
    const operator = await as('operator');
    const maria = (await operator.get('/api/users?fiscalCode=RSSMRA85C52H501N')).json.items[0];
    const created = await operator.post('/api/tickets', {
      userId: maria.id,
      categoria: 'Altro',
      dettagli: 'Richiesta di un appuntamento.',
    });
    const url = `${appUrl()}/lista_utenti/dati_utente/ticket/dettaglio?id=${created.json.id}`;
    const [first, second] = [await newPage(browser), await newPage(browser, 390)];
    for (const page of [first, second]) {
      await signInAs(page, OPERATOR);
      await page.goto(url);
      await page.getByLabel('Dettagli').waitFor();
    }
    await first.getByLabel('Assegnato a').fill('Laura Bianchi');
    await first.getByRole('button', { name: 'Salva' }).click();
    await first.getByText('Il ticket è stato aggiornato.').waitFor();
    await screenshot(first, 'access-ticket-saved-1280');

    await second.getByLabel('Dettagli').fill('Richiamare la cittadina.');
    await second.getByRole('button', { name: 'Salva' }).click();
    await second.getByText('Il record è stato modificato da un altro operatore: ricarica la pagina.').waitFor();
    await screenshot(second, 'access-ticket-stale-copy-390');
    const stored = (await operator.get(`/api/tickets/${created.json.id}`)).json;
    expect(stored).toMatchObject({ assegnatoA: 'Laura Bianchi', dettagli: 'Richiesta di un appuntamento.' });
    await expectAccessible(second);
    await Promise.all([first.context().close(), second.context().close()]);
  });
});

/** Spoils the stored access token, as one the API no longer accepts (expired). */
async function spoilToken(page: Page) {
  await page.evaluate(() => {
    for (const key of Object.keys(sessionStorage)) {
      const value = sessionStorage.getItem(key)!;
      if (!value.includes('access_token')) continue;
      const user = JSON.parse(value);
      user.access_token = `${user.access_token.slice(0, -6)}AAAAAA`;
      sessionStorage.setItem(key, JSON.stringify(user));
    }
  });
}

describe('a reload with an expired token', () => {
  for (const width of [1280, 390]) {
    it(`keeps the page the person was on behind 'SESSIONE SCADUTA' until Home is chosen (${width} px)`, async () => {
      const page = await newPage(browser, width);
      await signInAs(page, OPERATOR);
      await page.goto(`${appUrl()}/lista_utenti`);
      await page.getByRole('heading', { level: 1, name: 'Lista utenti' }).waitFor();
      await spoilToken(page);
      await page.reload();
      const expired = page.getByRole('dialog', { name: 'SESSIONE SCADUTA' });
      await expired.getByText('Esegui nuovamente il login').waitFor();
      // Behind it, the same page and the same header: not 'Autorizzazione negata', not 'Accedi'.
      await page
        .getByRole('heading', { level: 1, name: 'Lista utenti', includeHidden: true })
        .waitFor({ state: 'attached' });
      await screenshot(page, `access-session-expired-reload-${width}`);
      expect(await page.getByText('Autorizzazione negata', { exact: true }).count()).toBe(0);
      expect(await page.locator('.portal-header').getByText('Accedi').count()).toBe(0);
      expect(await page.locator('.portal-header').getByText('Laura Bianchi').count()).toBe(1);
      expect(new URL(page.url()).pathname).toBe('/lista_utenti');

      await expired.getByRole('button', { name: 'Home' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page
        .getByRole('button', { name: 'Accedi' })
        .or(page.getByRole('link', { name: 'Accedi' }))
        .first()
        .waitFor();
      expect(await page.getByRole('dialog', { name: 'SESSIONE SCADUTA' }).count()).toBe(0);
      await page.context().close();
    });
  }

  it('Login from the dialog signs in again through the identity provider', async () => {
    const page = await newPage(browser);
    await signInThroughProvider(page, OPERATOR);
    await page.goto(`${appUrl()}/lista_utenti`);
    await page.getByRole('heading', { level: 1, name: 'Lista utenti' }).waitFor();
    await spoilToken(page);
    await page.reload();
    await page.getByRole('dialog', { name: 'SESSIONE SCADUTA' }).getByRole('button', { name: 'Login' }).click();
    // The provider still knows the operator (its own session): straight back, signed in with a new token.
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'SESSIONE SCADUTA' }).count()).toBe(0);
    await page.context().close();
  });
});
