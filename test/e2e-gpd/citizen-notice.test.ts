import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import decodeQR from 'qr/decode.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION } from '../../lib/local/gpd/model.ts';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approveUser, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { gpdAdmin, publishMonth } from '../support/gpd.ts';
import { renderFirstPage } from '../support/pdf-render.ts';
import { billedMonth } from '../support/months.ts';

/**
 * Issue 37 in the browser, on a portal billing through pagoPA GPD: Maria Rossi downloads the pagoPA notice of a month
 * from her payments page ('Avviso PDF', printed by the portal), and the operator finds the same link on her record; the
 * operator's first paint (the prerendered shell) names the platform, 'Flussi pagoPA'.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await gpdAdmin('reset', {});
  await browser?.close();
});

const month = billedMonth();

/** The notice code as pagoPA prints it, in groups of four. */
const grouped = (nav: string) => nav.match(/.{1,4}/g)!.join(' ');

/** Clicks 'Avviso PDF' of the row and reads the PDF the browser downloads. */
async function downloadNotice(page: Page, row: ReturnType<Page['getByRole']>, titolo: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: `Avviso PDF: ${titolo}` }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await fs.readFile((await download.path())!)) };
}

describe('the pagoPA notice of a month, in the browser', () => {
  let mariaId: string;
  let nav: string;
  let titolo: string;
  let importoDovuto: number;
  let callId: string;
  let office: Page | undefined;
  // Maria Rossi's month of a new call, sent to GPD by the export, as the council does every month.
  beforeAll(async () => {
    const operator = await operatorWithMyPay();
    mariaId = (await (await as('citizen')).get('/api/me')).json.userId as string;
    const { call } = await openCall(operator, `Bando avviso pagoPA ${Date.now().toString(36)}`);
    callId = call.id;
    await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, month.period)).status).toBe(200);
    await publishMonth(operator, call.id, month.period);
    const [position] = await storedPositions(call.id, month.key);
    nav = position!.nav as string;
    titolo = position!.titolo as string;
    importoDovuto = position!.importoDovuto as number;
  });

  it('the citizen downloads her month’s notice from her payments page: a PDF with its notice number and QR code', async () => {
    const page = await newPage(browser);
    await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
    await page.goto(`${inject('appUrl')}/iscrizioni/visualizza_servizio?id=${callId}`);
    const table = page.getByRole('table', { name: 'I tuoi pagamenti per questo servizio' });
    const row = table.getByRole('row', { name: new RegExp(month.label) });
    await row.getByText('Da pagare').waitFor();
    const cookies = page.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    await screenshot(page, 'gpd-notice-citizen');
    await expectAccessible(page);

    const pdf = await downloadNotice(page, row, titolo);
    expect(pdf.name).toBe(`avviso-${nav}.pdf`);
    expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe('%PDF-');
    const printed = await renderFirstPage(pdf.bytes);
    expect(printed.text).toContain(`Cod. Avviso ${grouped(nav)}`);
    expect(printed.text).toContain('Maria Rossi');
    expect(decodeQR(printed.image!)).toBe(
      `PAGOPA|002|${nav}|${DEFAULT_ORGANIZATION.fiscalCode}|${String(importoDovuto).padStart(2, '0')}`,
    );
  });

  it('the operator downloads the same notice from the citizen’s record', async () => {
    office = await newPage(browser);
    await signInAs(office, 'Laura Bianchi — Operatrice');
    await office.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${mariaId}`);
    const payments = office.getByRole('table', { name: 'Pagamenti dell’utente' });
    const officeRow = payments.getByRole('row', { name: new RegExp(titolo) });
    await officeRow.getByRole('button', { name: `Avviso PDF: ${titolo}` }).waitFor();
    const cookieBar = office.getByRole('button', { name: 'Ho capito' });
    if (await cookieBar.isVisible()) await cookieBar.click();
    await screenshot(office, 'gpd-notice-operator');
    await expectAccessible(office);
    const same = await downloadNotice(office, officeRow, titolo);
    expect(same.name).toBe(`avviso-${nav}.pdf`);
    expect((await renderFirstPage(same.bytes, 1)).text).toContain(`Cod. Avviso ${grouped(nav)}`);
  });

  it('the operator’s first paint names pagoPA: ‘Flussi pagoPA’ in the prerendered menu', async () => {
    // The operator's tab of the test before, back on the home page (a new one signed in when this test runs alone).
    const page = office ?? (await newPage(browser, 1280));
    if (office) await page.goto(inject('appUrl'));
    else await signInAs(page, 'Laura Bianchi — Operatrice');
    await page.getByRole('heading', { level: 1, name: 'PANNELLO OPERATORE' }).waitFor();
    // What the operator sees before the app's scripts have run.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    const bar = page.locator('#portal-prerender .portal-menu__bar[data-portal-for="OPERATOR"]');
    await bar.waitFor();
    expect((await bar.innerText()).replace(/\s+/g, ' ').trim()).toBe(
      'Home ISEE Utenti Pagamenti Servizi Lista Bandi Fasce Flussi pagoPA Configurazione',
    );
    await screenshot(page, 'gpd-prerender-operator');
  });
});
