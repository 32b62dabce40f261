/**
 * npm run bench:web — Lighthouse (offline, Debian's Chromium) on the landing page, the citizen home and the
 * operator dashboard, mobile and desktop, a few runs each; prints the median of each figure.
 *
 * It starts the portal as `npm start` does (built web app, demo data, on free ports and a fresh data folder)
 * unless BENCH_URL points at a running one (then BENCH_ISSUER is not needed: the sign-in follows the page).
 * The signed-in pages need a session: the bench signs in through the local provider's login page in the
 * tab Lighthouse then measures (the portal keeps its tokens in sessionStorage, which Lighthouse's storage
 * reset leaves alone; it still clears the HTTP cache and localStorage before every run, so each run is a
 * first visit with the cookie bar showing).
 *
 * Options (environment): BENCH_RUNS (default 3), BENCH_URL, CHROMIUM_PATH (default /usr/bin/chromium),
 * BENCH_JSON (write every run's figures to this file), BENCH_VERBOSE (print each run's layout shifts, the
 * LCP element and its subparts, the long tasks, the requests and the failed opportunities), BENCH_PAGES and
 * BENCH_FORM_FACTORS (comma-separated parts of the names, e.g. "citizen" and "mobile": measure only those),
 * BENCH_WEB_DIST (serve another build of the web app, e.g. a baseline's, to compare back to back).
 * Timings are noisy on a shared 2-core machine: read the medians, and compare runs made back to back.
 */
import fs from 'node:fs/promises';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { identities, loginButtonName } from '../../lib/local/identities.ts';
import { startTestStack } from '../support/stack.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Target {
  page: string;
  /** Test identity to sign in as, or none for an anonymous visitor. */
  sub?: string;
}
const allTargets: Target[] = [
  { page: 'landing' },
  { page: 'citizen home', sub: 'maria.rossi' },
  { page: 'operator dashboard', sub: 'laura.bianchi' },
];
const allFormFactors = ['mobile', 'desktop'] as const;
// BENCH_PAGES / BENCH_FORM_FACTORS (comma-separated, e.g. "landing,citizen" / "mobile") narrow a diagnostic run.
const chosen = (names: string | undefined, name: string) =>
  !names || names.split(',').some((n) => name.includes(n.trim()));
const targets = allTargets.filter((t) => chosen(process.env.BENCH_PAGES, t.page));
const formFactors = allFormFactors.filter((f) => chosen(process.env.BENCH_FORM_FACTORS, f));

interface Figures {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  cls: number;
  tbt: number;
}

async function signIn(page: Page, appUrl: string, sub: string) {
  const identity = identities.find((i) => i.sub === sub)!;
  await page.goto(appUrl, { waitUntil: 'networkidle0' });
  await clickByText(page, 'a, button', 'Accedi');
  await page.waitForFunction(
    () => location.pathname.includes('interaction') || document.querySelectorAll('form button').length > 0,
  );
  await clickByText(page, 'button', loginButtonName(identity));
  await page.waitForFunction(
    (origin: string) => location.origin === origin && !location.pathname.startsWith('/auth/callback'),
    { timeout: 20_000 },
    new URL(appUrl).origin,
  );
  await page.waitForNetworkIdle();
}

async function clickByText(page: Page, selector: string, text: string) {
  await page.waitForFunction(
    (s: string, t: string) =>
      [...document.querySelectorAll(s)].some((e) => e.textContent?.replace(/\s+/g, ' ').trim() === t),
    { timeout: 20_000 },
    selector,
    text,
  );
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0' }).catch(() => undefined),
    page.evaluate(
      (s: string, t: string) => {
        const element = [...document.querySelectorAll<HTMLElement>(s)].find(
          (e) => e.textContent?.replace(/\s+/g, ' ').trim() === t,
        );
        element!.click();
      },
      selector,
      text,
    ),
  ]);
}

async function measure(
  browser: Browser,
  appUrl: string,
  target: Target,
  formFactor: (typeof allFormFactors)[number],
): Promise<Figures> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (target.sub) await signIn(page, appUrl, target.sub);
    const flags: Flags = { output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
    const config = formFactor === 'desktop' ? desktopConfig : undefined;
    const result = await lighthouse(`${appUrl}/`, flags, config, page);
    if (!result) throw new Error('Lighthouse returned nothing');
    const { categories, audits } = result.lhr;
    if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
    const finalUrl = result.lhr.finalDisplayedUrl;
    if (
      target.sub &&
      !(await page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:'))))
    ) {
      throw new Error(`${target.page}: the session was lost (${finalUrl})`);
    }
    if (process.env.BENCH_VERBOSE) {
      const shifts =
        (
          audits['layout-shifts']?.details as
            { items?: { node?: { selector?: string; snippet?: string }; score?: number }[] } | undefined
        )?.items ?? [];
      for (const shift of shifts)
        console.error(
          `  shift ${shift.score?.toFixed(3)} ${shift.node?.selector ?? ''} ${shift.node?.snippet?.slice(0, 80) ?? ''}`,
        );
      type Items = { items?: Record<string, unknown>[] } | undefined;
      const boot = ((audits['bootup-time']?.details as Items)?.items ?? []).slice(0, 5);
      for (const item of boot)
        console.error(
          `  bootup ${Math.round(Number(item.total))} ms (script ${Math.round(Number(item.scripting))}) ${String(item.url).replace(appUrl, '')}`,
        );
      const work = (audits['mainthread-work-breakdown']?.details as Items)?.items ?? [];
      console.error(
        `  main thread: ${work.map((w) => `${w.groupLabel} ${Math.round(Number(w.duration))}`).join(', ')}`,
      );
      // Lighthouse 13: the LCP element and its subparts are in the LCP breakdown insight (a list of two tables).
      const lcpParts = ((audits['lcp-breakdown-insight']?.details as Items)?.items ?? []) as {
        type?: string;
        items?: { label?: string; duration?: number }[];
        selector?: string;
        snippet?: string;
      }[];
      for (const part of lcpParts) {
        if (part.type === 'node')
          console.error(`  lcp element: ${part.selector ?? ''} ${part.snippet?.slice(0, 100) ?? ''}`);
        else if (part.items)
          console.error(
            `  lcp subparts: ${part.items.map((i) => `${i.label} ${Math.round(Number(i.duration))}`).join(', ')}`,
          );
      }
      const longTasks = ((audits['long-tasks']?.details as Items)?.items ?? []).slice(0, 8);
      console.error(
        `  long tasks: ${longTasks.map((t) => `${Math.round(Number(t.startTime))}+${Math.round(Number(t.duration))} ${String(t.url).replace(appUrl, '')}`).join(', ')}`,
      );
      const requests = ((audits['network-requests']?.details as Items)?.items ?? []).filter(
        (r) => !String(r.url).startsWith('data:'),
      );
      console.error(
        `  requests: ${requests.map((r) => `${String(r.url).replace(appUrl, '').slice(0, 40)}@${Math.round(Number(r.networkRequestTime))}-${Math.round(Number(r.networkEndTime))}`).join(', ')}`,
      );
      for (const id of ['render-blocking-insight', 'unused-javascript', 'unused-css-rules', 'font-display-insight']) {
        const audit = audits[id];
        if (audit && audit.score !== null && audit.score < 1) console.error(`  ${id}: ${audit.displayValue ?? ''}`);
      }
    }
    return {
      performance: Math.round((categories.performance.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
      fcp: audits['first-contentful-paint'].numericValue ?? NaN,
      lcp: audits['largest-contentful-paint'].numericValue ?? NaN,
      cls: audits['cumulative-layout-shift'].numericValue ?? NaN,
      tbt: audits['total-blocking-time'].numericValue ?? NaN,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  const stack = process.env.BENCH_URL
    ? null
    : await startTestStack({ web: 'dist', seed: true, webDist: process.env.BENCH_WEB_DIST });
  const appUrl = (process.env.BENCH_URL ?? stack!.appUrl).replace(/\/$/, '');
  const browser = await puppeteer.launch({
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
  const all: Record<string, Figures[]> = {};
  try {
    for (let run = 1; run <= RUNS; run++) {
      for (const target of targets) {
        for (const formFactor of formFactors) {
          const figures = await measure(browser, appUrl, target, formFactor);
          (all[`${target.page}|${formFactor}`] ??= []).push(figures);
          console.error(`run ${run}/${RUNS} ${target.page} ${formFactor}: ${JSON.stringify(figures)}`);
        }
      }
    }
  } finally {
    await browser.close();
    await stack?.close();
  }
  if (process.env.BENCH_JSON) await fs.writeFile(process.env.BENCH_JSON, JSON.stringify(all, null, 2));

  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`\nLighthouse ${RUNS === 1 ? '(1 run)' : `median of ${RUNS} runs`}, ${appUrl}\n`);
  console.log('| page | form factor | performance | FCP / LCP | CLS | TBT | accessibility |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const target of targets) {
    for (const formFactor of formFactors) {
      const runs = all[`${target.page}|${formFactor}`];
      const m = (key: keyof Figures) => median(runs.map((r) => r[key]));
      console.log(
        `| ${target.page} | ${formFactor} | ${m('performance')} | ${seconds(m('fcp'))} / ${seconds(m('lcp'))} s | ${m('cls').toFixed(3)} | ${Math.round(m('tbt'))} ms | ${m('accessibility')} |`,
      );
    }
  }
}

await main();
