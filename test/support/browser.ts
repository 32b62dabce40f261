import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { inject } from './stack-context.ts';

export const SCREENSHOTS = path.resolve('test/e2e/screenshots');

/** Debian's chromium, headless, with the flags this machine needs (no background networking). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

export async function newPage(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'it-IT' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/**
 * Signs in as the identity of the local provider's login page whose button reads `buttonName` ("<name> — <role>"),
 * and lands on the portal's home page, signed in. The first time in a worker's stack it goes through the provider
 * (signInThroughProvider) and keeps the tokens the portal stored; later pages of any file that worker runs start
 * with those tokens in their session storage, as a tab holding a session does, and skip the provider's round trip.
 * A test of the sign-in or sign-out itself calls signInThroughProvider.
 */
export async function signInAs(page: Page, buttonName: string | RegExp) {
  const file = savedSessionFile(buttonName);
  const saved = await fs.readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, string>,
    () => null,
  );
  if (saved) return openWithSession(page, saved);
  await signInThroughProvider(page, buttonName);
  // The tokens oidc-client-ts keeps under "oidc.user:<issuer>:<client>" (web/src/lib/auth.tsx).
  const tokens = await page.evaluate(() =>
    Object.fromEntries(Object.entries(window.sessionStorage).filter(([key]) => key.startsWith('oidc.user:'))),
  );
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(tokens));
}

/** Signs in through the local provider's login page by the identity's button ("<name> — <role>"). */
export async function signInThroughProvider(page: Page, buttonName: string | RegExp) {
  await page.goto(inject('appUrl'));
  await page
    .getByRole('link', { name: 'Accedi' })
    .or(page.getByRole('button', { name: 'Accedi' }))
    .first()
    .click();
  await page.getByRole('button', { name: buttonName }).click();
  await page.waitForURL((url) => url.origin === inject('appUrl') && !url.pathname.startsWith('/auth/callback'));
}

/** One file per identity in the worker's stack data folder: it lives as long as the stack that signed the tokens. */
const savedSessionFile = (buttonName: string | RegExp) =>
  path.join(
    inject('dataDir'),
    'e2e-sessions',
    `${createHash('sha256').update(String(buttonName)).digest('hex').slice(0, 16)}.json`,
  );

/**
 * Opens the home page with the saved tokens put in its session storage before the app's scripts run (and the
 * session clock started now, as a sign-in does), then waits, as a sign-in does, for the profile the app reads.
 * The init script is removed once the page has loaded: a later sign-out or reload finds only what the app left.
 */
async function openWithSession(page: Page, tokens: Record<string, string>) {
  const appUrl = inject('appUrl');
  const script = await page.addInitScript(
    ({ origin, entries }) => {
      if (window.location.origin !== origin) return;
      for (const [key, value] of Object.entries(entries)) window.sessionStorage.setItem(key, value);
      window.sessionStorage.setItem('portale.signedInAt', String(Date.now()));
    },
    { origin: new URL(appUrl).origin, entries: tokens },
  );
  try {
    await page.goto(appUrl);
  } finally {
    await script.dispose();
  }
  await page.waitForFunction(() => window.sessionStorage.getItem('portale.lastProfile') !== null);
}

/**
 * A full-page picture for a person to look at. It waits up to a minute, not the page's 15 s: on a busy 2-core machine
 * Chromium once took longer than 15 s to paint a long page (CI, isee-inps), and a slow picture is not a fault of the page.
 */
export async function screenshot(page: Page, name: string) {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, timeout: 60_000 });
}

/**
 * axe-core with the WCAG 2.1 A and AA rules: the page must have no violation. On a page without frames, legacy
 * mode runs the same rules in the page itself, without the blank page and second copy of axe that the default
 * mode opens to merge the results of frames (half of each check's time on a busy machine).
 */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    // Every node of every violation, as before; passes and incomplete keep one node each instead of a selector for
    // every node axe looked at (axe-core's `resultTypes`): 21-23% less time a check, nothing less checked. First:
    // `options()` replaces the options `withTags` sets.
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(page.frames().length === 1)
    .analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}
