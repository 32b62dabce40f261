import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import {
  expectAccessible,
  launchBrowser,
  newPage,
  screenshot,
  signInAs,
  signInThroughProvider,
} from '../support/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function expectDenied(page: Page, path: string) {
  await page.goto(`${inject('appUrl')}${path}`);
  await page.getByRole('heading', { level: 1, name: 'Autorizzazione negata' }).waitFor();
  expect(await page.getByText('Non sei autorizzato a visualizzare questa pagina.').count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Indietro' }).count()).toBe(1);
}

describe('an anonymous visitor', () => {
  it('sees the landing page with the services and is asked to sign in before requesting one', async () => {
    const page = await newPage(browser);
    await page.goto(inject('appUrl'));
    await page.getByRole('heading', { name: 'Bacheca' }).waitFor();
    await page.getByText('Assistenza domiciliare anziani').first().waitFor();
    await screenshot(page, 'anonymous-landing');
    await expectAccessible(page);
    await page
      .getByRole('button', { name: /Richiedi/ })
      .first()
      .click();
    await page
      .getByRole('dialog')
      .getByText('Per poterti iscrivere ai servizi devi effettuare il login con SPID o CIE.')
      .waitFor();
    await screenshot(page, 'anonymous-login-required');
  });

  it('is denied the operator pages and can read the privacy notice', async () => {
    const page = await newPage(browser);
    await expectDenied(page, '/fasce');
    await screenshot(page, 'anonymous-denied');
    await expectAccessible(page);
    await page.goto(`${inject('appUrl')}/privacy_policy`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectAccessible(page);
  });

  it('gets the menu as a dropdown below 992 px', async () => {
    const page = await newPage(browser, 390);
    await page.goto(inject('appUrl'));
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'anonymous-mobile-menu');
    await expectAccessible(page);
  });
});

describe('a delegate', () => {
  it('sees the delegate panel and is denied the operator pages', async () => {
    const page = await newPage(browser);
    await signInAs(page, 'Paolo Esposito — Delegato');
    await page.getByRole('heading', { level: 1, name: 'Pannello delegato' }).waitFor();
    await screenshot(page, 'delegate-panel');
    await expectAccessible(page);
    for (const path of ['/fasce', '/fasce/nuova_fascia', '/servizi', '/servizi/nuovo_servizio', '/lista_bandi'])
      await expectDenied(page, path);
    await screenshot(page, 'delegate-denied');
  });
});

describe('a citizen', () => {
  it('sees the citizen home and is denied the operator pages', async () => {
    const page = await newPage(browser);
    await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
    await page.getByText(/Maria/).first().waitFor();
    expect(await page.getByRole('link', { name: /Profilo/ }).count()).toBeGreaterThan(0);
    await screenshot(page, 'citizen-home');
    await expectAccessible(page);
    for (const path of ['/fasce', '/servizi', '/lista_utenti']) await expectDenied(page, path);
  });

  it('signs out and is anonymous again', async () => {
    const page = await newPage(browser);
    await signInThroughProvider(page, 'Maria Rossi — Cittadina con profilo completo');
    await page
      .getByRole('button', { name: 'Esci' })
      .or(page.getByRole('link', { name: 'Esci' }))
      .first()
      .click();
    await page
      .getByRole('link', { name: 'Accedi' })
      .or(page.getByRole('button', { name: 'Accedi' }))
      .first()
      .waitFor();
    await expectDenied(page, '/iscrizioni');
  });
});

describe('an operator recognised by the working entity', () => {
  it('gets the operator dashboard and no profile link', async () => {
    const page = await newPage(browser);
    await signInAs(page, /Francesca Romano/);
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    expect(await page.getByRole('link', { name: /Profilo/ }).count()).toBe(0);
  });
});
