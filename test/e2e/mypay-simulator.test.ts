import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMyPay } from '../../functions/adapters/mypay.ts';
import type { MyPay } from '../../functions/adapters/ports/mypay.ts';
import {
  DEFAULT_ENTITY,
  IMPORT_COLUMNS,
  startMyPaySimulator,
  type MyPaySimulator,
} from '../../lib/local/mypay-simulator.ts';
import { expectAccessible, launchBrowser, newPage, screenshot } from '../support/browser.ts';
import { freePort } from '../support/ports.ts';

/**
 * The MyPay simulator's own pages in a real browser: the tester's page with imports, positions and the
 * fault switches, and the checkout a citizen is sent to by paaSILInviaDovuti.
 */
let browser: Browser;
let page: Page;
let simulator: MyPaySimulator;
let mypay: MyPay;
let dataDir: string;
let portal: http.Server;
let returnUrl: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mypay-e2e-'));
  simulator = await startMyPaySimulator({ port: await freePort(), dataDir, holdMs: 2000 });
  mypay = makeMyPay({
    endpoint: simulator.endpoint,
    codIpaEnte: DEFAULT_ENTITY.codIpa,
    password: DEFAULT_ENTITY.password,
    timeoutMs: 2000,
  });
  // Stands in for the portal's return page.
  portal = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="it"><head><title>Esito</title></head><body><main><h1>Esito del pagamento</h1></main></body></html>',
    );
  });
  const port = await freePort();
  await new Promise<void>((resolve) => portal.listen(port, '127.0.0.1', resolve));
  returnUrl = `http://localhost:${port}/pagamenti/esito`;
  browser = await launchBrowser();
  page = await newPage(browser);
});
afterAll(async () => {
  await browser?.close();
  await simulator?.close();
  portal?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function importRows(count: number) {
  const rows = Array.from({ length: count }, (_, i) =>
    [
      `E2E-${i}`,
      '',
      'F',
      'RSSMRA85C52H501N',
      'Maria Rossi',
      '',
      '',
      '',
      '',
      '',
      'IT',
      '',
      '2026-12-31',
      `${10 + i}.50`,
      '',
      'SERVIZI_SOCIALI',
      'ALL',
      `Quota ${i + 1}`,
      '9/0101100IM',
      '',
      'true',
      'I',
    ].join(';'),
  );
  // MyPay wants the CSV inside named as the ZIP (FlussoService.validateFile).
  const zip = zipSync({ 'C_DEMO-E2E1-1_3.csv': strToU8([IMPORT_COLUMNS.join(';'), ...rows].join('\n')) });
  const authorization = await mypay.authorize();
  await mypay.upload(authorization, zip, `${DEFAULT_ENTITY.codIpa}-E2E1-1_3.zip`);
  for (let i = 0; i < 20; i++) {
    if ((await mypay.importStatus(authorization.requestToken)).stato === 'IMPORT_ESEGUITO') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('import not done');
}

describe('MyPay simulator pages', () => {
  it('shows imports and positions, and a fault switch set on the page makes the next call fail', async () => {
    await importRows(3);
    await page.goto(simulator.url);
    await expect.poll(() => page.getByRole('heading', { name: 'Simulatore MyPay' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('cell', { name: 'C_DEMO-E2E1-1_3.zip' }).isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: 'E2E-2' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'mypay-simulator-home');

    await page.getByLabel('Operazione').selectOption('paaSILAutorizzaImportFlusso');
    await page.getByLabel('Tipo').selectOption('5xx');
    await page.getByRole('button', { name: 'Attiva' }).click();
    await expect.poll(() => page.getByText('"target":"paaSILAutorizzaImportFlusso"').isVisible()).toBe(true);
    await expect(mypay.authorize()).rejects.toMatchObject({ name: 'MyPayUnavailable' });
    expect((await mypay.authorize()).requestToken).toBeTruthy();
  });

  it('takes the citizen from MyPay’s landing through the checkout and back to the portal with the outcome', async () => {
    // E2E-0 was imported by the test above: paid as MyPay4 lets a council pay an imported position (paaSILVerificaAvviso's landing).
    const state = await (await fetch(`${simulator.url}/admin/state`)).json();
    const session = (await mypay.openPositionCheckout(
      state.positions[`${DEFAULT_ENTITY.codIpa}|E2E-0`].iuv,
      returnUrl,
    ))!;
    await page.goto(session.url);
    await expect.poll(() => page.getByText('10,50 €').first().isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'mypay-simulator-checkout');
    // Modello unico: no cart before pagoPA's receipt, so MyPay cannot tell yet.
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'UNKNOWN', payments: [] });

    await page.getByRole('button', { name: 'Paga (esito positivo)' }).click();
    await page.waitForURL((url) => url.pathname === '/pagamenti/esito');
    const back = new URL(page.url());
    expect(back.searchParams.get('idSession')).toBe(session.idSession);
    expect(back.searchParams.get('esito')).toBe('OK');
    const outcome = await mypay.paymentOutcome(session.idSession);
    expect(outcome).toMatchObject({ status: 'PAID', payments: [{ iud: 'E2E-0', amountCents: 1050 }] });

    await page.goto(simulator.url);
    await expect.poll(() => page.getByRole('row', { name: /E2E-0/ }).textContent()).toContain('PAGATO');
  });
});
