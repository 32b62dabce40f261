import fs from 'node:fs/promises';
import Papa from 'papaparse';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { MYPAY_CSV_COLUMNS } from '../../functions/domain/mypay-csv.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approvedSubscriber } from '../support/positions.ts';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await signInAs(page, 'Laura Bianchi — Operatrice');
});
afterAll(() => browser?.close());

const dialog = () => page.getByRole('dialog');

describe('MyPay configuration and the CSV of a month', () => {
  it('the operator reads the configuration, edits it (all eight required) and confirms it', async () => {
    await page
      .getByRole('navigation', { name: /principale|menu/i })
      .getByRole('link', { name: 'Configurazione' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Configurazione' }).waitFor();
    const tipoDovuto = page.getByLabel('Tipo dovuto (tipoDovuto)');
    await expect.poll(() => tipoDovuto.inputValue()).toBe('SERVIZI_SOCIALI'); // the demo configuration
    expect(await tipoDovuto.getAttribute('readonly')).not.toBeNull();
    await screenshot(page, 'configuration-view');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Modifica' }).click();
    await tipoDovuto.fill('');
    await page.getByLabel('Dati specifici riscossione (datiSpecificiRiscossione)').fill('   ');
    await page.getByRole('button', { name: 'Conferma' }).click();
    await expect.poll(() => page.getByText('Il campo non può essere vuoto!').count()).toBe(2);
    expect(await dialog().isVisible()).toBe(false);
    await screenshot(page, 'configuration-required');
    await expectAccessible(page);

    await tipoDovuto.fill('SERVIZI_SOCIALI_E2E');
    await page.getByLabel('Dati specifici riscossione (datiSpecificiRiscossione)').fill('9/0101100IM/');
    await page.getByLabel('Tipo identificativo univoco (tipoIdentificativoUnivoco)').selectOption('F');
    await page.getByRole('button', { name: 'Conferma' }).click();
    await dialog().getByRole('heading', { name: 'Modifica configurazione' }).waitFor();
    await screenshot(page, 'configuration-confirm');
    await dialog().getByRole('button', { name: 'Conferma' }).click();
    await page.getByText('Configurazione salvata correttamente.').waitFor();
    await expect.poll(() => tipoDovuto.getAttribute('readonly')).not.toBeNull();
    expect(await tipoDovuto.inputValue()).toBe('SERVIZI_SOCIALI_E2E');
    await screenshot(page, 'configuration-saved');
    const operator = await as('operator');
    expect((await operator.get('/api/configuration')).json.configuration.tipoDovuto).toBe('SERVIZI_SOCIALI_E2E');
  });

  it('downloads the MyPay CSV of a month from a call with approved subscriptions and shows who was skipped', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando CSV ${Date.now().toString(36)}`);
    const rossi = await approvedSubscriber(operator, call, { lastName: 'Ferrari', iseeValue: 8000, weeklyHour: 3 });
    const greco = await approvedSubscriber(operator, call, { lastName: 'Greco', iseeValue: 5000, weeklyHour: 2 });
    const senzaIsee = await approvedSubscriber(operator, call, { lastName: 'Conti', iseeValue: null, weeklyHour: 2 });

    await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await page.getByRole('heading', { level: 1, name: call.name }).waitFor();
    await page.getByRole('button', { name: 'Verifica / genera CSV' }).click();
    await dialog().getByRole('heading', { name: 'Verifica / genera CSV' }).waitFor();
    // Defaults: the current month and year.
    const now = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Rome',
      year: 'numeric',
      month: 'numeric',
    }).formatToParts(new Date());
    expect(await dialog().getByLabel('Mese').inputValue()).toBe(now.find((p) => p.type === 'month')!.value);
    expect(await dialog().getByLabel('Anno').inputValue()).toBe(now.find((p) => p.type === 'year')!.value);
    await expectAccessible(page);

    await dialog().getByLabel('Anno').fill('duemila');
    await dialog().getByRole('button', { name: 'Genera e scarica CSV' }).click();
    await dialog().getByText('Inserisci un anno valido di quattro cifre.').waitFor();

    await dialog().getByLabel('Mese').selectOption('3');
    await dialog().getByLabel('Anno').fill('2026');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog().getByRole('button', { name: 'Genera e scarica CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('SERVIZI_SOCIALI_2026_03.csv');
    // Downloaded from the API's five-minute link to the exports bucket, not carried inside the JSON answer.
    expect(new URL(download.url()).origin).toBe(new URL(inject('s3Endpoint')).origin);
    expect(new URL(download.url()).searchParams.get('X-Amz-Expires')).toBe('300');
    const text = await fs.readFile((await download.path())!, 'utf8');
    const [header, ...rows] = Papa.parse<string[]>(text.trim(), { delimiter: ';' }).data;
    expect(header).toEqual([...MYPAY_CSV_COLUMNS]);
    const column = (name: string) => header!.indexOf(name);
    expect(
      rows
        .map((r) => [
          r[column('codiceIdentificativoUnivoco')],
          r[column('anagraficaPagatore')],
          r[column('importoDovuto')],
          r[column('tipoDovuto')],
          r[column('azione')],
        ])
        .sort(),
    ).toEqual(
      [
        // 7,20 €/h (40% of 18 €): 3 h × 31 / 7 = 95,66 €; 2 h × 31 / 7 = 63,77 €
        [rossi.fiscalCode, 'Ferrari Anna', '95.66', 'SERVIZI_SOCIALI_E2E', 'I'],
        [greco.fiscalCode, 'Greco Anna', '63.77', 'SERVIZI_SOCIALI_E2E', 'I'],
      ].sort(),
    );
    const summary = dialog().getByTestId('csv-summary');
    await summary
      .getByText('CSV di Marzo 2026 scaricato (SERVIZI_SOCIALI_2026_03.csv): 2 posizioni da inviare.')
      .waitFor();
    const skipped = summary.getByRole('row', { name: new RegExp(senzaIsee.fiscalCode) });
    expect(await skipped.textContent()).toContain('ISEE scaduto o mancante');
    await screenshot(page, 'call-csv-downloaded');
    await expectAccessible(page);

    // Again: the same file, nothing new generated.
    const [again] = await Promise.all([
      page.waitForEvent('download'),
      dialog().getByRole('button', { name: 'Genera e scarica CSV' }).click(),
    ]);
    expect(await fs.readFile((await again.path())!, 'utf8')).toBe(text);
    await summary.getByText(/Posizioni create: 0 · aggiornate: 0 · annullate: 0 · invariate: 2/).waitFor();
    await dialog().getByRole('button', { name: 'Chiudi' }).click();
    expect(await dialog().count()).toBe(0);
  });

  it('a delegate has no configuration page (nor the CSV button: the call detail is denied to delegates)', async () => {
    const delegatePage = await newPage(browser);
    await signInAs(delegatePage, 'Paolo Esposito — Delegato');
    for (const path of ['/configurazione', '/lista_bandi/dettaglio_sessione?id=x']) {
      await delegatePage.goto(`${inject('appUrl')}${path}`);
      await delegatePage.getByRole('heading', { level: 1, name: 'Autorizzazione negata' }).waitFor();
    }
    expect(await delegatePage.getByRole('link', { name: 'Configurazione' }).count()).toBe(0);
    expect(await delegatePage.getByRole('button', { name: 'Verifica / genera CSV' }).count()).toBe(0);
    await delegatePage.context().close();
  });
});
