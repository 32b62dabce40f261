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

/** Signs in through the local provider's login page by the identity's button ("<name> — <role>"). */
export async function signInAs(page: Page, buttonName: string | RegExp) {
  await page.goto(inject('appUrl'));
  await page
    .getByRole('link', { name: 'Accedi' })
    .or(page.getByRole('button', { name: 'Accedi' }))
    .first()
    .click();
  await page.getByRole('button', { name: buttonName }).click();
  await page.waitForURL((url) => url.origin === inject('appUrl') && !url.pathname.startsWith('/auth/callback'));
}

export async function screenshot(page: Page, name: string) {
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core with the WCAG 2.1 A and AA rules: the page must have no violation. */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}
