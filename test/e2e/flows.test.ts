import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approvedSubscriber, mypayConfiguration, storedPositions } from '../support/positions.ts';

/**
 * Issue 8's path in the browser: the operator sends a call's month to MyPay (the simulator) and watches
 * it advance in the dialog, finds the flow on 'Flussi MyPay' with its files, and restarts a flow that
 * stopped on an injected fault.
 */
let browser: Browser;
let page: Page;
const simulator = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');
const admin = (action: string, body: object) =>
  fetch(`${simulator()}/admin/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

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
  for (const lastName of ['Galli', 'Conti', 'Greco']) await approvedSubscriber(operator, call, { lastName, iseeValue: 8000, weeklyHour: 2 });
  return call as { id: string; name: string };
}

async function sendFromCallDetail(call: { id: string; name: string }) {
  await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
  await page.getByRole('heading', { level: 1, name: call.name }).waitFor();
  await page.getByRole('button', { name: 'Invia a MyPay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invia a MyPay' });
  await dialog.getByLabel('Mese').selectOption('11');
  await dialog.getByLabel('Anno').selectOption('2026');
  await dialog.getByRole('button', { name: 'Invia' }).click();
  return dialog;
}

describe('Invia a MyPay and Flussi MyPay', () => {
  it('sends a month, shows it advance to approval with one rejected row, and lists the flow with its files', async () => {
    const call = await callToExport(`Bando MyPay ${Date.now().toString(36)}`);
    const operator = await as('operator');
    expect((await operator.post(`/api/calls/${call.id}/positions/generate`, { mese: 11, anno: 2026 })).json.created).toBe(3);
    const [toReject] = await storedPositions(call.id, '2026-11');
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
    for (const label of ['Avvisi', 'IUV', 'Scartati']) expect(await row.getByRole('button', { name: `${label} del flusso ${call.name}` }).isEnabled()).toBe(true);
    await screenshot(page, 'flows-page');
    await expectAccessible(page);
    await admin('reset', {});
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
    const positions = await storedPositions(call.id, '2026-11');
    expect(positions.map((p) => p.statoExport)).toEqual(['ESPORTATA', 'ESPORTATA', 'ESPORTATA']);
    await screenshot(page, 'flows-restarted');
  });
});
