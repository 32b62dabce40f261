import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { signedInTabs } from '../support/signed-in-tabs.ts';
import { newUserBody } from '../support/user-body.ts';

/**
 * Issue 13, what a person notices in the browser: no CSP error in the console, the visible text of a
 * button is part of its name, a long one-word name does not widen the page at 390 px, the cookie bar does
 * not hide the focused control, focus rings show at once.
 */
let browser: Browser;
const appUrl = () => inject('appUrl');
const RUN = Date.now().toString(36);
/** One word of 58 characters, as a service name can be. */
const LONG_NAME = `Assistenzadomiciliaresociosanitariaintegrata${RUN}`.padEnd(58, 'x').slice(0, 58);
let longServiceId = '';
/** A surname of this run only (letters), shared by the users of the 'Torna su' test: their list is theirs alone. */
const SURNAME = `Scorrimento${RUN.replace(/\d/g, (d) => 'abcdefghij'[Number(d)])}`;
const LISTED_USERS = 12;
const OPERATOR = 'Laura Bianchi — Operatrice';
/** The operator's one tab for the file (test/support/signed-in-tabs.ts), sized for each test. */
const tabOf = signedInTabs(() => browser);

beforeAll(async () => {
  browser = await launchBrowser();
  const created = await (
    await as('operator')
  ).post('/api/services', { code: 'LUNGO', name: LONG_NAME, description: 'Un servizio dal nome lungo.' });
  expect(created.status).toBe(201);
  longServiceId = created.json.id;
  const operator = await as('operator');
  for (let i = 0; i < LISTED_USERS; i++) {
    const user = await operator.post(
      '/api/users',
      newUserBody({ firstName: `Utente${'abcdefghijkl'[i]}`, lastName: SURNAME }),
    );
    expect(user.status).toBe(201);
  }
});
afterAll(async () => {
  if (longServiceId) await (await as('operator')).delete(`/api/services/${longServiceId}`);
  await browser?.close();
});

/** Console errors and CSP violations of a page, from its first script on. */
async function watchCsp(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|unsafe-eval/i.test(message.text()))
      errors.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return errors;
}

const widthOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Scrolls so the element's bottom edge is at the window's, then focuses it (as Tab does when it reaches it). */
async function focusAtBottomEdge(element: Locator) {
  await element.evaluate((e) => {
    const { bottom } = e.getBoundingClientRect();
    window.scrollTo({ top: window.scrollY + bottom - window.innerHeight + 4, behavior: 'instant' });
  });
  await element.focus();
}

/** Two frames of the page: what the focus set off (a scroll, 'Torna su' showing) has run by then, or is queued. */
const afterTwoFrames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

type Box = { top: number; bottom: number; left: number; right: number };
const boxOf = (element: Locator) => element.evaluate((e) => e.getBoundingClientRect().toJSON() as Box);

describe('the portal in the browser', () => {
  it('logs no CSP refusal on the landing page, nor on a page whose form loads zod', async () => {
    const page = await newPage(browser);
    const errors = await watchCsp(page);
    await page.goto(appUrl());
    await page.getByRole('region', { name: 'Bacheca' }).getByRole('link').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);

    await signInAs(page, 'Laura Bianchi — Operatrice');
    await page.goto(`${appUrl()}/fasce/nuova_fascia`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Conferma' }).click();
    await page.getByText('Il campo non può essere vuoto!').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('names the citizen home’s "Vedi i bandi" buttons starting with their visible text', async () => {
    const page = await newPage(browser);
    await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
    const services = page.getByRole('region', { name: 'Servizi' });
    await services.getByRole('heading', { level: 3, name: 'Pasti a domicilio' }).waitFor();
    const cards = await services.getByRole('listitem').count();
    expect(await services.getByRole('link', { name: /^Vedi i bandi di / }).count()).toBe(cards);
    const { violations } = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
    expect(violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
  });

  it('does not scroll sideways at 390 px with a 58-character one-word service name', async () => {
    expect(LONG_NAME).toHaveLength(58);
    const visitor = await newPage(browser, 390);
    await visitor.goto(appUrl());
    await visitor.getByRole('heading', { level: 3, name: LONG_NAME }).waitFor();
    expect(await widthOf(visitor)).toBeLessThanOrEqual(390);
    await screenshot(visitor, 'long-name-landing-390');

    const citizen = await newPage(browser, 390);
    await signInAs(citizen, 'Maria Rossi — Cittadina con profilo completo');
    await citizen.getByRole('heading', { level: 3, name: LONG_NAME }).waitFor();
    expect(await widthOf(citizen)).toBeLessThanOrEqual(390);
    await citizen.goto(`${appUrl()}/sessione_servizi?id=${encodeURIComponent(longServiceId)}`);
    await citizen.getByRole('heading', { level: 1, name: LONG_NAME }).waitFor();
    expect(await widthOf(citizen)).toBeLessThanOrEqual(390);
    await screenshot(citizen, 'long-name-service-calls-390');

    const operator = await tabOf(OPERATOR, { width: 390, height: 900 });
    await operator.goto(`${appUrl()}/servizi/visualizza_servizio?id=${encodeURIComponent(longServiceId)}`);
    await operator.getByRole('heading', { level: 1, name: LONG_NAME }).waitFor();
    expect(await widthOf(operator)).toBeLessThanOrEqual(390);
    await screenshot(operator, 'long-name-service-detail-390');
  });

  it('keeps a focused control fully above the cookie bar', async () => {
    const page = await newPage(browser, 390);
    await page.goto(appUrl());
    const bar = page.getByRole('region', { name: 'Informativa sui cookie' });
    await bar.waitFor();
    const buttons = page.getByRole('button', { name: /^Richiedi / });
    await buttons.first().waitFor();
    // Each card's button, at the bottom edge of the window (where the bar is) when it gets the focus: it
    // must end fully visible above the bar.
    for (let i = 0; i < (await buttons.count()); i++) {
      await focusAtBottomEdge(buttons.nth(i));
      await afterTwoFrames(page);
      // The page scrolls in the frame after the focus: on a busy machine, some time after it.
      const hiddenBelowBar = async () => (await boxOf(buttons.nth(i))).bottom - (await bar.boundingBox())!.y;
      await expect
        .poll(hiddenBelowBar, { message: `button ${i + 1} under the bar`, timeout: 5_000 })
        .toBeLessThanOrEqual(0);
      expect((await boxOf(buttons.nth(i))).top).toBeGreaterThanOrEqual(0);
    }
    await screenshot(page, 'cookie-bar-focus-390');
  });

  // At 1280 px the button sits in the page's margin, beside the rows' actions; at 768 px it floats over them,
  // and only the page's lift keeps a focused action visible.
  it.each([1280, 768])('keeps a focused control clear of the floating "Torna su" button at %i px', async (width) => {
    const page = await tabOf(OPERATOR, { width, height: 420 });
    // The cookie bar, until the operator's tab has dismissed it once.
    const cookies = page.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    await page.goto(`${appUrl()}/lista_utenti?lastName=${SURNAME}`);
    const table = page.getByRole('region', { name: 'Elenco degli utenti' });
    const rows = table
      .getByRole('table')
      .getByRole('row')
      .filter({ has: page.getByRole('button').or(page.getByRole('link')) });
    await rows.nth(LISTED_USERS - 1).waitFor();
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
    const backToTop = page.getByRole('button', { name: 'Torna su' });
    await backToTop.waitFor();
    // Each row's last action (the one at the right edge, near the floating button) reached by Tab at the
    // bottom edge of the window: where the button shows (the page scrolled by more than 300 px), the
    // action must not lie under it.
    let checked = 0;
    for (let i = 0; i < (await rows.count()); i++) {
      const action = rows.nth(i).getByRole('button').or(rows.nth(i).getByRole('link')).last();
      await focusAtBottomEdge(action);
      await afterTwoFrames(page);
      // 'Torna su' appears with the scroll, and the page then lifts the action above it: a few frames later.
      const underBackToTop = async () => {
        const floating = await backToTop.evaluateAll(
          (shown) => (shown[0]?.getBoundingClientRect().toJSON() as Box | undefined) ?? null,
        );
        const box = await boxOf(action);
        return (
          floating !== null &&
          box.left < floating.right &&
          floating.left < box.right &&
          box.top < floating.bottom &&
          floating.top < box.bottom
        );
      };
      await expect
        .poll(underBackToTop, { message: `row ${i + 1}: its last action under "Torna su"`, timeout: 5_000 })
        .toBe(false);
      // Where the table is wider than the window, it scrolls sideways to show the whole action, not its half.
      const cutByTable = async () => {
        const [shown, box] = [await boxOf(table), await boxOf(action)];
        return box.left < shown.left || box.right > shown.right;
      };
      await expect
        .poll(cutByTable, { message: `row ${i + 1}: its last action cut by the table's edge`, timeout: 5_000 })
        .toBe(false);
      if (await backToTop.isVisible()) checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    await screenshot(page, `back-to-top-focus-${width}`);
  });

  it('shows the focus ring of a field at once, as for a button', async () => {
    const page = await tabOf(OPERATOR);
    await page.goto(`${appUrl()}/fasce/nuova_fascia`);
    const field = page.getByRole('textbox').first();
    await field.waitFor();
    const ring = () =>
      field.evaluate((element) => {
        const style = getComputedStyle(element);
        return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow} | ${style.borderColor}`;
      });
    const atOnce = await field.evaluate((element) => {
      (element as HTMLElement).focus();
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow} | ${style.borderColor}`;
    });
    await page.waitForTimeout(500);
    expect(atOnce).toBe(await ring());
    expect(atOnce).toContain('solid 3px');
  });
});
