import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { keys } from '../../functions/adapters/table.ts';
import { localTable } from '../support/dynamo.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { billedMonth } from '../support/months.ts';

const month = billedMonth();

/**
 * Issue 8's path in the browser: the operator sends a call's month to MyPay (the simulator) and watches
 * it advance in the dialog, finds the flow on 'Flussi MyPay' with its files, and restarts a flow that
 * stopped on an injected fault.
 */
let browser: Browser;
let page: Page;
const simulator = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');
const admin = (action: string, body: object) =>
  fetch(`${simulator()}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await signInAs(page, 'Laura Bianchi — Operatrice');
  expect((await (await as('operator')).put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  await admin('reset', {});
  await browser?.close();
});

/** A call with three approved citizens whose November fee is due. */
async function callToExport(name: string) {
  const operator = await as('operator');
  const { call } = await openCall(operator, name);
  const people = [];
  for (const lastName of ['Galli', 'Conti', 'Greco'])
    people.push(await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 }));
  return Object.assign(call as { id: string; name: string }, { people });
}

async function sendFromCallDetail(call: { id: string; name: string }) {
  await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
  await page.getByRole('heading', { level: 1, name: call.name }).waitFor();
  await page.getByRole('button', { name: 'Invia a MyPay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invia a MyPay' });
  await dialog.getByLabel('Mese').selectOption(String(month.mese));
  await dialog.getByLabel('Anno').selectOption(String(month.anno));
  await dialog.getByRole('button', { name: 'Invia' }).click();
  return dialog;
}

describe('Invia a MyPay and Flussi MyPay', () => {
  it('sends a month, shows it advance to approval with one rejected row, and lists the flow with its files', async () => {
    const call = await callToExport(`Bando MyPay ${Date.now().toString(36)}`);
    const operator = await as('operator');
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, month.period)).json.created).toBe(3);
    const [toReject] = await storedPositions(call.id, month.key);
    await admin('reject', { iuds: [toReject!.iud] });

    const dialog = await sendFromCallDetail(call);
    await dialog.getByText('Flusso inviato correttamente a MyPay').waitFor({ timeout: 30_000 });
    expect(await dialog.locator('dl').innerText()).toMatch(/Accettate\s+2[\s\S]*Scartate\s+1/);
    await screenshot(page, 'flows-send-done');
    await expectAccessible(page);

    await dialog.getByRole('link', { name: 'Vai ai flussi' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flussi MyPay' }).waitFor();
    await page.getByLabel('Titolo').fill(call.name);
    await page.getByRole('button', { name: 'Cerca' }).click();
    await expect.poll(() => page.url()).toContain('descrizione=');
    const row = page.getByRole('row', { name: new RegExp(call.name) });
    await row.getByText('Flusso approvato').waitFor();
    await row.getByRole('button', { name: 'Esiti' }).click();
    for (const label of ['Avvisi', 'IUV', 'Scartati'])
      expect(await row.getByRole('button', { name: `${label} del flusso ${call.name}` }).isEnabled()).toBe(true);
    await screenshot(page, 'flows-page');
    await expectAccessible(page);
    await admin('reset', {});
  });

  it('the call detail lists the positions ‘Invia a MyPay’ generated, without a reload', async () => {
    const call = await callToExport(`Bando da aggiornare ${Date.now().toString(36)}`);
    await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    const positions = page.getByRole('region', { name: 'Posizioni debitorie' });
    await positions.getByText('Non ci sono pagamenti!').waitFor();
    const dialog = await sendFromCallDetail(call);
    await dialog.getByText('Flusso inviato correttamente a MyPay').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Chiudi' }).click();
    for (const lastName of ['Galli', 'Conti', 'Greco'])
      await positions.getByRole('row').filter({ hasText: lastName }).getByText('Da pagare').waitFor();
    await screenshot(page, 'call-detail-after-export');
  });

  it('a flow stopped by MyPay being down reads "Errore flusso interno"; Rielabora finishes it', async () => {
    const call = await callToExport(`Bando guasto ${Date.now().toString(36)}`);
    await admin('faults', { operation: 'paaSILChiediStatoImportFlusso', kind: '5xx', times: 'always' });
    const dialog = await sendFromCallDetail(call);
    await dialog.getByText(/MyPay non risponde/).waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Chiudi' }).click();
    await admin('reset', {});

    await page.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(call.name)}`);
    const row = page.getByRole('row', { name: new RegExp(call.name) });
    await row.getByText('Errore flusso interno').waitFor();
    await screenshot(page, 'flows-failed');
    await row.getByRole('button', { name: `Rielabora il flusso ${call.name}` }).click();
    await page.getByText('Rielaborazione avvenuta con successo.').waitFor();
    await row.getByText('Flusso approvato').waitFor({ timeout: 30_000 });
    const positions = await storedPositions(call.id, month.key);
    expect(positions.map((p) => p.statoExport)).toEqual(['ESPORTATA', 'ESPORTATA', 'ESPORTATA']);
    await screenshot(page, 'flows-restarted');
  });

  it('MyPay failing the import reads "Errore flusso" with what it means, never its code; Rielabora sends it again', async () => {
    const call = await callToExport(`Bando rifiutato ${Date.now().toString(36)}`);
    await admin('import', { mode: 'failed', code: 'PAA_IMPORT_NO_MATCH_MD5', times: 1 });
    const dialog = await sendFromCallDetail(call);
    await dialog.getByText(/l’impronta MD5 non corrisponde/).waitFor({ timeout: 60_000 });
    expect(await dialog.innerText()).not.toContain('PAA_');
    await dialog.getByRole('button', { name: 'Chiudi' }).click();

    // The same signed-in tab at both widths.
    for (const width of [1280, 390]) {
      const narrow = page;
      await narrow.setViewportSize({ width, height: 900 });
      await narrow.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(call.name)}`);
      const row = narrow.getByRole('row', { name: new RegExp(call.name) });
      await row.getByText('Errore flusso', { exact: true }).waitFor();
      await row.getByText(/l’impronta MD5 non corrisponde/).waitFor();
      expect(await row.innerText()).not.toMatch(/PAA_|IMPORT_/);
      await screenshot(narrow, `flows-mypay-failed-${width}`);
      await expectAccessible(narrow);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const row = page.getByRole('row', { name: new RegExp(call.name) });
    await row.getByRole('button', { name: `Rielabora il flusso ${call.name}` }).click();
    await row.getByText('Flusso approvato').waitFor({ timeout: 30_000 });
  });

  it('an import MyPay keeps in IMPORT_IN_ELAB (GPD) reads as waiting, then suspended with Rielabora, never as failed', async () => {
    const call = await callToExport(`Bando in attesa ${Date.now().toString(36)}`);
    await admin('import', { mode: 'stuck', times: 1 });
    const dialog = await sendFromCallDetail(call);
    await dialog.getByText('In elaborazione...').waitFor({ timeout: 30_000 });
    await screenshot(page, 'flows-send-waiting');
    await dialog.getByText(/MyPay sta ancora elaborando il flusso/).waitFor({ timeout: 60_000 });
    expect(await dialog.innerText()).not.toContain('Errore flusso');
    await dialog.getByRole('button', { name: 'Chiudi' }).click();

    await page.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(call.name)}`);
    const row = page.getByRole('row', { name: new RegExp(call.name) });
    await row.getByText('In elaborazione...').waitFor();
    await row.getByText('In attesa dell’esito di MyPay').waitFor();
    expect(await row.innerText()).not.toContain('Errore flusso');
    await screenshot(page, 'flows-waiting-1280');
    await expectAccessible(page);
    // pagoPA has the positions now: Rielabora asks MyPay again and collects, the file not sent twice.
    await admin('import', { mode: 'release' });
    await row.getByRole('button', { name: `Rielabora il flusso ${call.name}` }).click();
    await row.getByText('Flusso approvato').waitFor({ timeout: 30_000 });
  });

  it('holds back a citizen MyPay would refuse or whose stored address would run as a formula, with the reason, in the CSV check and the export', async () => {
    const call = await callToExport(`Bando trattenute ${Date.now().toString(36)}`);
    const [civic, formula] = call.people;
    const user = async (userId: string) => (await localTable().item(keys.user(userId)))!;
    await localTable().putItem({ ...(await user(civic!.userId)), addressNumber: '12°' });
    await localTable().putItem({ ...(await user(formula!.userId)), address: '=HYPERLINK("http://evil.example","x")' });

    // 'Verifica / genera CSV': the two are not in the file, and the dialog says why.
    await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await page.getByRole('button', { name: 'Verifica / genera CSV' }).click();
    const check = page.getByRole('dialog', { name: 'Verifica / genera CSV' });
    await check.getByLabel('Mese').selectOption(String(month.mese));
    await check.getByLabel('Anno').fill(String(month.anno));
    await Promise.all([
      page.waitForEvent('download'),
      check.getByRole('button', { name: 'Genera e scarica CSV' }).click(),
    ]);
    const table = check.getByRole('table', { name: 'Posizioni trattenute (non nel CSV)' });
    await table
      .getByRole('row', { name: new RegExp(civic!.fiscalCode) })
      .getByText(/numero civico “12°” non è accettato da MyPay/)
      .waitFor();
    await table
      .getByRole('row', { name: new RegExp(formula!.fiscalCode) })
      .getByText(/il campo indirizzo inizia con =/)
      .waitFor();
    await check.getByText(/1 posizione da inviare/).waitFor();
    await screenshot(page, 'call-csv-held-back');
    await expectAccessible(page);
    await check.getByRole('button', { name: 'Chiudi' }).click();

    const dialog = await sendFromCallDetail(call);
    await dialog.getByText('Flusso inviato correttamente a MyPay').waitFor({ timeout: 30_000 });
    await dialog.getByText('2 posizioni trattenute: dati da correggere prima dell’invio').click();
    await dialog.getByText(/numero civico “12°”/).waitFor();
    await screenshot(page, 'flows-send-held-back');
    await dialog.getByRole('button', { name: 'Chiudi' }).click();
    const narrow = page;
    await narrow.setViewportSize({ width: 390, height: 900 });
    await narrow.goto(`${inject('appUrl')}/flussi_mypay?descrizione=${encodeURIComponent(call.name)}`);
    const row = narrow.getByRole('row', { name: new RegExp(call.name) });
    await row.getByText('2 posizioni trattenute: dati da correggere prima dell’invio').click();
    await row.getByText(/il campo indirizzo inizia con =/).waitFor();
    await screenshot(narrow, 'flows-held-back-390');
    await expectAccessible(narrow);
    await narrow.setViewportSize({ width: 1280, height: 900 });
  });

  it('a month with nothing new to send lists no flow: the dialog says so', async () => {
    const call = await callToExport(`Bando nulla ${Date.now().toString(36)}`);
    const operator = await as('operator');
    const flowsOfCall = async () =>
      (await operator.get(`/api/flows?descrizione=${encodeURIComponent(call.name)}`)).json.items.length;
    const first = await sendFromCallDetail(call);
    await first.getByText('Flusso inviato correttamente a MyPay').waitFor({ timeout: 30_000 });
    await first.getByRole('button', { name: 'Chiudi' }).click();
    const again = await sendFromCallDetail(call);
    await again.getByText('Nessuna posizione da inviare per questo mese.').waitFor();
    await screenshot(page, 'flows-nothing-to-send');
    await expectAccessible(page);
    expect(await flowsOfCall()).toBe(1);
  });
});
