import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';

/**
 * index.html's prerendered shell (web/src/app/prerender.ts, web/public/boot.js) paints the header, the role's
 * home heading and the cookie notice before the app's scripts run; the app then takes its place in one frame.
 * What a person would notice if the two drifted apart: the page jumping when the app arrives, or the wrong
 * page showing for a moment.
 */
let browser: Browser;
const appUrl = () => inject('appUrl');

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the visitor sees first: the page with the app's scripts refused. */
async function withoutTheApp<T>(page: Page, look: () => Promise<T>): Promise<T> {
  await page.route('**/assets/*.js', (route) => route.abort());
  try {
    await page.reload().catch(async (error: Error) => {
      // The app still running in the tab may navigate at that moment (an expired session goes home), which cuts
      // the reload short: what the visitor sees is the next load's, so load again.
      if (!error.message.includes('ERR_ABORTED')) throw error;
      await page.reload();
    });
    await page.locator('#portal-prerender').waitFor();
    return await look();
  } finally {
    await page.unroute('**/assets/*.js');
  }
}

/** The boxes of what the shell draws, to compare with the app's: the same places, so no layout shift. */
const boxes = (page: Page, selectors: string[]) =>
  page.evaluate((list) => {
    const visible = (selector: string) =>
      [...document.querySelectorAll<HTMLElement>(selector)].find((element) => element.getClientRects().length > 0);
    return Object.fromEntries(
      list.map((selector) => {
        const element = visible(selector);
        if (!element) return [selector, null];
        const { x, y, width, height } = element.getBoundingClientRect();
        return [
          selector,
          {
            x: Math.round(x),
            y: Math.round(y),
            width: Math.round(width),
            height: Math.round(height),
            text: element.innerText.replace(/\s+/g, ' ').trim(),
          },
        ];
      }),
    );
  }, selectors);

async function appBoxes(page: Page, selectors: string[]) {
  await page.reload();
  await page.locator('#portal-prerender').waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  return boxes(page, selectors);
}

const SHARED = [
  '.portal-header__slim',
  '.portal-header__center',
  '.portal-brand',
  'nav.portal-menu',
  '.portal-cookiebar',
  '.portal-cookiebar p',
  'main h1',
];

describe('the prerendered shell', () => {
  it('shows a citizen’s home heading and lead where the app draws them, on a phone', async () => {
    const page = await newPage(browser, 412);
    await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
    await page.getByRole('heading', { level: 1, name: 'Ciao, Maria' }).waitFor();
    const selectors = [...SHARED, 'main .portal-page__lead', '.portal-menu__toggle'];
    const shell = await withoutTheApp(page, async () => {
      await screenshot(page, 'prerender-citizen-412');
      return boxes(page, selectors);
    });
    expect(shell['main h1']?.text).toBe('Ciao, Maria');
    expect(shell['main .portal-page__lead']?.text).toMatch(/^Questa è la tua area personale dei servizi sociali/);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    const app = await appBoxes(page, selectors);
    // A tab holding a session does without the OIDC client until it signs out (it reads its stored tokens).
    expect(requests.filter((path) => path.includes('oidc-client-ts'))).toEqual([]);
    expect(requests).toContain('/api/me');
    // The account actions are the app's own (they need it): only the band's height is the shell's.
    expect({ ...shell, '.portal-header__slim': { ...shell['.portal-header__slim'], text: '' } }).toEqual({
      ...app,
      '.portal-header__slim': { ...app['.portal-header__slim'], text: '' },
    });
  });

  it('shows the operator’s heading and menu bar where the app draws them, on a desktop', async () => {
    const page = await newPage(browser, 1280);
    await signInAs(page, 'Laura Bianchi — Operatrice');
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    const selectors = [...SHARED, '.portal-menu__bar'];
    const shell = await withoutTheApp(page, () => boxes(page, selectors));
    expect(shell['main h1']?.text).toBe('PANNELLO OPERATORE');
    expect(shell['.portal-menu__bar']?.text).toBe(
      'Home ISEE Utenti Pagamenti Servizi Lista Bandi Fasce Flussi MyPay Configurazione',
    );
    const app = await appBoxes(page, selectors);
    expect({ ...shell, '.portal-header__slim': { ...shell['.portal-header__slim'], text: '' } }).toEqual({
      ...app,
      '.portal-header__slim': { ...app['.portal-header__slim'], text: '' },
    });
  });

  it('shows no role’s page to a visitor, to an expired session, nor on another page; no cookie bar once accepted', async () => {
    const page = await newPage(browser, 1280);
    await page.goto(appUrl());
    await page.getByRole('button', { name: 'Ho capito' }).click();
    const visitor = await withoutTheApp(page, () => boxes(page, ['main h1', '.portal-cookiebar', '.portal-menu__bar']));
    expect(visitor['main h1']).toBeNull();
    expect(visitor['.portal-cookiebar']).toBeNull();
    expect(visitor['.portal-menu__bar']?.text).toBe('Home');

    await signInAs(page, 'Laura Bianchi — Operatrice');
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    await page.goto(`${appUrl()}/fasce`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const elsewhere = await withoutTheApp(page, () => boxes(page, ['main h1']));
    expect(elsewhere['main h1']).toBeNull();

    await page.goto(appUrl());
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    // Ten hours ago: past the 9-hour session, the app sends the tab to the landing page.
    await page.evaluate(() => sessionStorage.setItem('portale.signedInAt', String(Date.now() - 36_000_000)));
    const expired = await withoutTheApp(page, () => boxes(page, ['main h1']));
    expect(expired['main h1']).toBeNull();
  });

  it('takes "Ho capito" on the shell’s cookie notice, before the app has arrived', async () => {
    const page = await newPage(browser, 412);
    await page.goto(appUrl());
    await withoutTheApp(page, async () => {
      await page.locator('#portal-prerender').getByRole('button', { name: 'Ho capito' }).click();
      await page.locator('#portal-prerender .portal-cookiebar').waitFor({ state: 'hidden' });
    });
    await page.reload();
    await page.locator('#portal-prerender').waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Ho capito' }).count()).toBe(0);
  });
});
