import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { keys } from '../../functions/adapters/table.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { localTable } from '../support/dynamo.ts';
import { approvedSubscriber, mypayConfiguration } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * The payment edit modal and 'Sincronizza' in the browser, on the call detail's 'Posizioni debitorie'
 * (where they live until the payment list page takes them): the operator edits a description, cancels a
 * position with 0, and runs Sincronizza, watching the button read 'Importazione in corso...' and come back.
 */
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await signInAs(page, 'Laura Bianchi — Operatrice');
  expect((await (await as('operator')).put('/api/configuration', mypayConfiguration)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

describe('payment edit modal and Sincronizza', () => {
  it('edits a description, cancels a position with 0, and runs Sincronizza until the button comes back', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando pagamenti ${Date.now().toString(36)}`);
    await approvedSubscriber(operator, call, { lastName: 'Gallo', iseeValue: 8000, weeklyHour: 3 });
    await approvedSubscriber(operator, call, { lastName: 'Moretti', iseeValue: 8000, weeklyHour: 2 });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, {})).json.created).toBe(2);

    await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await page.getByRole('heading', { level: 2, name: 'Posizioni debitorie' }).waitFor();
    const gallo = page.getByRole('row', { name: /Gallo Anna/ });
    await gallo.getByText('Da pagare').waitFor();

    // Edit: a bad description is refused beside the field, then a new one is saved.
    await gallo.getByRole('button', { name: 'Modifica pagamento di Gallo Anna' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifica pagamento' });
    await dialog.getByLabel('Descrizione').fill('');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.getByText('Il campo descrizione è obbligatorio!').waitFor();
    await dialog.getByLabel('Descrizione').fill('Quota rivista dall’ufficio');
    await dialog.getByText('26/300 caratteri').waitFor();
    await screenshot(page, 'payment-edit-dialog');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await gallo.getByText('Quota rivista dall’ufficio').waitFor();
    await page.getByText('Pagamento modificato.').waitFor();

    // Cancel with 0: asked to confirm first, then the badge reads 'Annullato' and the row cannot be edited.
    const moretti = page.getByRole('row', { name: /Moretti Anna/ });
    await moretti.getByRole('button', { name: 'Modifica pagamento di Moretti Anna' }).click();
    await dialog.getByLabel('Importo (€)').fill('0');
    await dialog.getByRole('button', { name: 'Salva' }).click();
    await dialog.getByText(/annullata definitivamente/).waitFor();
    await screenshot(page, 'payment-edit-cancel-confirm');
    await dialog.getByRole('button', { name: 'Conferma annullamento' }).click();
    await moretti.getByText('Annullato').waitFor();
    expect(await moretti.getByRole('button', { name: 'Modifica pagamento di Moretti Anna' }).isDisabled()).toBe(true);
    expect(await moretti.getByRole('cell', { name: '0,00 €' }).count()).toBe(1);

    // Sincronizza: confirmation, then disabled 'Importazione in corso...' until the status poll (10 s) says done.
    await page.getByRole('button', { name: 'Sincronizza' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sincronizza' });
    await confirm.getByText('Sei sicuro di voler procedere con il ricalcolo delle posizioni debitorie?').waitFor();
    const started = Date.now();
    await confirm.getByRole('button', { name: 'Conferma' }).click();
    const running = page.getByRole('button', { name: 'Importazione in corso...' });
    await running.waitFor();
    expect(await running.isDisabled()).toBe(true);
    await screenshot(page, 'payment-sync-running');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sincronizza' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Sincronizza' }).isEnabled()).toBe(true);
    // It came back on the 10-second poll, not before.
    expect(Date.now() - started).toBeGreaterThan(9_000);
    expect((await operator.get(`/api/calls/${call.id}/positions/sync`)).json).toMatchObject({
      isUpdating: false,
      state: 'SUCCEEDED',
    });
    await screenshot(page, 'payment-sync-done');
  }, 120_000);

  it('after a reload the button asks the status: a recalculation still running keeps it disabled until it ends', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando ricarica ${Date.now().toString(36)}`);
    // A run of this call in progress, as another operator's click (or the tab closed meanwhile) leaves it.
    const now = new Date().toISOString();
    const job = {
      id: 'e2e-job',
      kind: 'sync-positions',
      key: call.id,
      state: 'RUNNING',
      input: { callId: call.id },
      cursor: null,
      done: 0,
      total: 2,
      error: null,
      startedAt: now,
      updatedAt: now,
      endedAt: null,
    };
    await localTable().putItem({
      ...keys.job('sync-positions', call.id),
      ...job,
      actor: {
        sub: 'x',
        role: 'OPERATOR',
        fiscalCode: null,
        firstName: 'A',
        lastName: 'B',
        fullName: 'A B',
        email: null,
        workingEntityId: null,
      },
    });
    await page.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    const running = page.getByRole('button', { name: 'Importazione in corso...' });
    await running.waitFor();
    expect(await running.isDisabled()).toBe(true);
    await page.reload();
    await running.waitFor();
    // The run ends: the next poll brings the button back.
    await localTable().putItem({
      ...(await localTable().item(keys.job('sync-positions', call.id)))!,
      state: 'SUCCEEDED',
      done: 2,
      endedAt: new Date().toISOString(),
    });
    await page.getByRole('button', { name: 'Sincronizza' }).waitFor({ timeout: 30_000 });
  });
});
