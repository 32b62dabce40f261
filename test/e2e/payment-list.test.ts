import fs from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { currentPeriod } from '../../functions/domain/payments.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { seedBigPaymentList } from '../support/payment-list-seed.ts';
import { approvedSubscriber, mypayConfiguration } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * Lista pagamenti (operator-admin §2): the operator opens it from the call detail, filters, sorts,
 * downloads the Excel and the test opens it; an empty filter says so; a delegate reads the page without
 * write buttons; a 10,000-row export is written by a Web Worker (its timing is in npm run bench:excel).
 */
type Client = Awaited<ReturnType<typeof as>>;
let browser: Browser;
let operatorApi: Client;
const YEAR = currentPeriod(new Date()).anno;
// Letters only: a text with a digit is read as a fiscal code.
const RUN = Date.now()
  .toString(36)
  .slice(-5)
  .toUpperCase()
  .replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!);
let call: { id: string; name: string; year: number; serviceId: string; serviceName: string };
let big: { id: string; name: string };
const surnames = { rossi: `Rossi${RUN}`, bianchi: `Bianchi${RUN}`, verdi: `Verdi${RUN}` };
const appUrl = () => inject('appUrl');
const table = (page: Page) => page.getByRole('table', { name: 'Pagamenti del bando per cittadino' });
const firstRowName = async (page: Page) => (await table(page).getByRole('rowheader').first().textContent())?.trim();

beforeAll(async () => {
  browser = await launchBrowser();
  operatorApi = await as('operator');
  expect((await operatorApi.put('/api/configuration', mypayConfiguration)).status).toBe(200);
  call = (await openCall(operatorApi, `Assistenza ${RUN}`)).call;
  await approvedSubscriber(operatorApi, call, {
    lastName: surnames.rossi,
    firstName: 'Maria',
    iseeValue: 8000,
    weeklyHour: 3,
  });
  await approvedSubscriber(operatorApi, call, {
    lastName: surnames.bianchi,
    firstName: 'Luca',
    iseeValue: 8000,
    weeklyHour: 6,
  });
  await approvedSubscriber(operatorApi, call, {
    lastName: surnames.verdi,
    firstName: 'Anna',
    iseeValue: 8000,
    weeklyHour: 1,
  });
  for (const mese of [1, 2])
    expect(
      (await jobAnswer(operatorApi, `/api/calls/${call.id}/positions/generate`, { mese, anno: YEAR })).json.created,
    ).toBe(3);
  big = (await openCall(operatorApi, `Grande ${RUN}`)).call;
  await seedBigPaymentList(big.id, YEAR, RUN);
}, 240_000);
afterAll(() => browser?.close());

describe('Lista pagamenti', () => {
  let operator: Page;

  it('opens from the call detail with the statistics, Record trovati and the sum, one row per citizen', async () => {
    operator = await newPage(browser);
    await signInAs(operator, 'Laura Bianchi — Operatrice');
    await operator.getByRole('button', { name: 'Ho capito' }).click();
    await operator.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${encodeURIComponent(call.id)}`);
    await operator.getByRole('link', { name: 'Lista pagamenti' }).click();
    await operator.getByRole('heading', { level: 1, name: 'Lista pagamenti' }).waitFor();
    await table(operator).waitFor();
    const totals = (await operatorApi.get(`/api/calls/${call.id}/payment-totals?anno=${YEAR}`)).json;
    const euro = (cents: number) =>
      new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(cents / 100);
    await operator
      .getByTestId('records-found')
      .filter({ hasText: `Record trovati: 3 — Totale: ${euro(totals.dovuto)}` })
      .waitFor();
    const stats = operator.getByTestId('payment-stats');
    expect(await stats.textContent()).toContain(`Dovuto${euro(totals.dovuto)}`);
    expect(await stats.textContent()).toContain(`dal 01/01/${YEAR}`);
    expect(await table(operator).getByRole('row').count()).toBe(4);
    // The badge counts the two pending months; the button opens the user record.
    const rossiRow = table(operator).getByRole('row').filter({ hasText: surnames.rossi });
    expect(await rossiRow.getByTestId('pending-badge').textContent()).toBe('2');
    expect(await rossiRow.getByRole('link', { name: /^Pagamenti: \d+ da pagare, di / }).getAttribute('href')).toMatch(
      /^\/lista_utenti\/dati_utente\?citizen=/,
    );
    await screenshot(operator, 'payment-list');
    await expectAccessible(operator);
  });

  it('filters by surname and sorts by amount and by name, both ways', async () => {
    await operator.getByLabel('Cerca per cognome e nome o codice fiscale').fill(surnames.rossi.toLowerCase());
    await operator.getByRole('button', { name: 'Cerca' }).click();
    await operator.getByTestId('records-found').filter({ hasText: 'Record trovati: 1' }).waitFor();
    expect(await firstRowName(operator)).toBe(`${surnames.rossi} Maria`);
    await operator.getByRole('button', { name: 'Annulla' }).click();
    await operator.getByTestId('records-found').filter({ hasText: 'Record trovati: 3' }).waitFor();

    await operator.getByLabel('Ordina per').selectOption({ label: 'Importo decrescente' });
    await operator.waitForURL(/sort=-importo/);
    await table(operator)
      .getByRole('rowheader', { name: `${surnames.bianchi} Luca` })
      .waitFor();
    expect(await firstRowName(operator)).toBe(`${surnames.bianchi} Luca`); // 6 hours a week
    await operator.getByLabel('Ordina per').selectOption({ label: 'Importo crescente' });
    await operator.waitForURL(/sort=importo/);
    await operator.waitForFunction(() =>
      document.querySelector('table th[scope="row"]')?.textContent?.includes('Verdi'),
    );
    await operator.getByLabel('Ordina per').selectOption({ label: 'Cognome e nome (Z-A)' });
    await operator.waitForURL(/sort=-nome/);
    await operator.waitForFunction(() =>
      document.querySelector('table th[scope="row"]')?.textContent?.includes('Verdi'),
    );
    await operator.getByLabel('Ordina per').selectOption({ label: 'Cognome e nome (A-Z)' });
    await operator.waitForFunction(() =>
      document.querySelector('table th[scope="row"]')?.textContent?.includes('Bianchi'),
    );
  });

  it('Scarica Excel: a real .xlsx, sheet Pagamenti, amounts as euro numbers, the date as a date', async () => {
    const [download] = await Promise.all([
      operator.waitForEvent('download'),
      operator.getByRole('button', { name: 'Scarica Excel' }).click(),
    ]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    expect(download.suggestedFilename()).toBe(`${today}_${call.name}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await fs.readFile((await download.path())!)) as never);
    const sheet = workbook.getWorksheet('Pagamenti')!;
    expect(sheet).toBeDefined();
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(1).getCell(1).value).toBe('Cognome');
    const rows = (await operatorApi.get(`/api/calls/${call.id}/payment-list?anno=${YEAR}`)).json.items;
    const bianchi = rows.find((r: any) => r.cognome === surnames.bianchi);
    const row = [2, 3, 4].map((n) => sheet.getRow(n)).find((r) => r.getCell(1).value === surnames.bianchi)!;
    const amount = row.getCell(6);
    expect(typeof amount.value).toBe('number');
    expect(amount.value).toBe(bianchi.importoTotale / 100);
    expect(amount.numFmt).toContain('€');
    expect(row.getCell(7).value).toBe(2);
    expect(row.getCell(11).value).toBeInstanceOf(Date);
    expect((row.getCell(11).value as Date).toISOString().slice(0, 10)).toBe(today);
  });

  it('an empty filter: Non ci sono pagamenti!, and Scarica Excel has nothing to export', async () => {
    await operator.getByLabel('Cerca per cognome e nome o codice fiscale').fill('zzzz');
    await operator.getByRole('button', { name: 'Cerca' }).click();
    await operator.getByText('Non ci sono pagamenti!').waitFor();
    await operator.getByRole('button', { name: 'Scarica Excel' }).click();
    await operator.getByText('Nessun pagamento selezionato per esportare.').waitFor();
    await expectAccessible(operator);
  });

  it('a prefix matching more rows than are counted says so: Record trovati and the sum are lower bounds', async () => {
    await operator.goto(
      `${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(big.id)}&name=cognome`,
    );
    await operator
      .getByTestId('records-found')
      .filter({
        hasText:
          /^Record trovati: più di 200 — Totale: almeno .+\s€ \(conteggio fermato a 200 record: restringi la ricerca per i valori esatti\)$/,
      })
      .waitFor();
    expect(await table(operator).getByRole('rowheader').count()).toBe(10);
    expect(await firstRowName(operator)).toBe('Cognome00000 Nome');
    await expectAccessible(operator);
    await screenshot(operator, 'payment-list-capped-count');
  });

  it('exports 10,000 rows into one sheet, written off the page’s own thread', async () => {
    await operator.goto(`${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(big.id)}`);
    await operator.getByTestId('records-found').filter({ hasText: 'Record trovati: 10.000' }).waitFor();
    // exceljs writes in a Web Worker: the page stays responsive (it froze for 1.2 s when it wrote on the page).
    const workers: string[] = [];
    operator.on('worker', (worker) => workers.push(worker.url()));
    const [download] = await Promise.all([
      operator.waitForEvent('download', { timeout: 80_000 }),
      operator.getByRole('button', { name: 'Scarica Excel' }).click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await fs.readFile((await download.path())!)) as never);
    expect(workbook.getWorksheet('Pagamenti')!.rowCount).toBe(10_001);
    expect(workers.some((url) => /payments-workbook/.test(url))).toBe(true);
  }, 90_000);

  it('a delegate reads the page: no call to switch to, no write button', async () => {
    const delegate = await newPage(browser);
    await signInAs(delegate, 'Paolo Esposito — Delegato');
    await delegate.getByRole('button', { name: 'Ho capito' }).click();
    await delegate.goto(`${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(call.id)}`);
    await delegate.getByRole('heading', { level: 1, name: 'Lista pagamenti' }).waitFor();
    await table(delegate).waitFor();
    expect(await delegate.getByLabel('Bando', { exact: true }).isDisabled()).toBe(true);
    expect(await delegate.getByRole('button', { name: 'Sincronizza' }).count()).toBe(0);
    expect(await delegate.getByRole('link', { name: 'Indietro' }).count()).toBe(0); // the call detail is not the delegate's
    expect(await operator.getByLabel('Bando', { exact: true }).isDisabled()).toBe(false);
    await screenshot(delegate, 'payment-list-delegate');
    await expectAccessible(delegate);
  });
});
