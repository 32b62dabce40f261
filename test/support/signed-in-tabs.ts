import type { Browser, Page } from 'playwright-core';
import { newPage, signInAs } from './browser.ts';

export interface Viewport {
  width: number;
  height: number;
}

/**
 * One signed-in tab per identity for a file's tests, as a person keeps one tab open and moves from page to page:
 * the first call for an identity opens a tab and signs in (signInAs, which lands on the home page); later calls
 * give the same tab back, sized as asked, and the test opens the page it checks. A test then pays for that one
 * page, not for a new browser context, the home page and its own page. What the tab keeps between tests is what
 * a person's tab keeps: the session, and the cookie bar once dismissed ('Ho capito' is stored for the origin).
 * `onOpen` runs once on each new tab, after the sign-in (e.g. to dismiss the cookie bar).
 * A test about the sign-in, the cookie bar's first showing or two tabs of one identity opens its own page.
 */
export function signedInTabs(browser: () => Browser, onOpen: (page: Page) => Promise<void> = async () => {}) {
  const tabs = new Map<string, Promise<Page>>();
  return async function tabOf(buttonName: string, viewport: Viewport = { width: 1280, height: 900 }) {
    let tab = tabs.get(buttonName);
    if (!tab) {
      tab = newPage(browser(), viewport.width).then(async (page) => {
        await signInAs(page, buttonName);
        await onOpen(page);
        return page;
      });
      tabs.set(buttonName, tab);
    }
    const page = await tab;
    await page.setViewportSize(viewport);
    return page;
  };
}
