import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approveUser, exportMonth, operatorWithMyPay } from '../support/positions.ts';

/**
 * Issue 9's citizen path in the browser: Maria Rossi opens her payment from /iscrizioni, presses 'Paga',
 * chooses success on the MyPay simulator's checkout page, comes back and sees 'Pagato'; the operator sees
 * it paid in the user record and on 'Pagamenti', and 'Rendicontazione' finds nothing more to mark.
 */
let browser: Browser;
let citizenPage: Page;
let operatorPage: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  citizenPage = await newPage(browser);
  operatorPage = await newPage(browser);
  await signInAs(citizenPage, 'Maria Rossi — Cittadina con profilo completo');
  await signInAs(operatorPage, 'Laura Bianchi — Operatrice');
});
afterAll(async () => {
  await browser?.close();
});

/** An open call on which Maria is approved, with her November position exported to MyPay. */
async function mariasPosition() {
  const operator = await operatorWithMyPay();
  const mariaId = (await (await as('citizen')).get('/api/me')).json.userId as string;
  const { call } = await openCall(operator, `Bando pagamenti ${Date.now().toString(36)}`);
  await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
  await exportMonth(operator, call.id, { mese: 11, anno: 2026 });
  return { call: call as { id: string; name: string }, mariaId };
}

describe('the citizen pays a position', () => {
  it('opens the payment from Iscrizioni, pays it on MyPay’s checkout and comes back to ‘Pagato’; the operator sees it paid', async () => {
    const { call, mariaId } = await mariasPosition();

    await citizenPage.goto(`${inject('appUrl')}/iscrizioni`);
    await citizenPage.getByRole('heading', { level: 1, name: 'Iscrizioni' }).waitFor();
    await citizenPage.getByRole('link', { name: `Pagamenti per ${call.name}` }).click();
    await citizenPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    const table = citizenPage.getByRole('table', { name: 'I tuoi pagamenti per questo servizio' });
    const row = table.getByRole('row', { name: /Novembre 2026/ });
    await row.getByText('Da pagare').waitFor();
    expect(await row.innerText()).toMatch(/61,71\s€[\s\S]*30\/11\/2026[\s\S]*3\d{17}/);
    await screenshot(citizenPage, 'citizen-payments-to-pay');
    await expectAccessible(citizenPage);

    await row.getByRole('button', { name: /^Paga / }).click();
    // MyPay's checkout (the simulator's page, another site).
    await citizenPage.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    await citizenPage.getByRole('button', { name: 'Paga (esito positivo)' }).click();
    // Back on the portal: the outcome is MyPay's, asked by the server.
    await citizenPage.waitForURL((url) => url.origin === inject('appUrl') && url.pathname === '/iscrizioni/visualizza_servizio');
    await citizenPage.getByText('Pagamento avvenuto con successo: la posizione risulta pagata.').waitFor();
    await row.getByText('Pagato', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Paga / }).count()).toBe(0);
    await expect.poll(() => new URL(citizenPage.url()).searchParams.has('idSession')).toBe(false);
    await screenshot(citizenPage, 'citizen-payments-paid');
    await expectAccessible(citizenPage);

    // The operator's user record and 'Pagamenti' page show it paid.
    await operatorPage.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${mariaId}`);
    // Maria may owe other November positions made by other browser tests: this call's row is the one named
    // after its service ('Servizio <call name> – Novembre 2026').
    const recordRow = operatorPage.getByRole('table', { name: 'Pagamenti dell’utente' }).getByRole('row').filter({ hasText: `${call.name} – Novembre 2026` });
    await recordRow.getByText('Pagato', { exact: true }).waitFor();
    await screenshot(operatorPage, 'user-record-payments');
    await expectAccessible(operatorPage);

    await operatorPage.goto(`${inject('appUrl')}/pagamenti`);
    await operatorPage.getByRole('heading', { level: 1, name: 'Pagamenti' }).waitFor();
    await operatorPage.getByLabel('Codice fiscale').fill('rssmra85c52h501n');
    await operatorPage.getByRole('button', { name: 'Cerca' }).click();
    await expect.poll(() => operatorPage.url()).toContain('fiscalCode=RSSMRA85C52H501N');
    const cards = operatorPage.getByRole('list', { name: 'Pagamenti di RSSMRA85C52H501N' });
    await cards.getByRole('listitem').filter({ hasText: `${call.name} – Novembre 2026` }).getByText('Pagato', { exact: true }).waitFor();
    await screenshot(operatorPage, 'payments-page');
    await expectAccessible(operatorPage);

    // Rendicontazione on the call: MyPay reports it paid, the portal already knew.
    await operatorPage.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await operatorPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    await operatorPage.getByRole('button', { name: 'Rendicontazione' }).click();
    await operatorPage.getByText(/Rendicontazione completata: 0 posizioni segnate come pagate, 1 già pagata,/).waitFor({ timeout: 30_000 });
    await screenshot(operatorPage, 'call-reporting');
    await expectAccessible(operatorPage);
  });

  it('shows the bad fiscal code message on Pagamenti and the empty text for a citizen without payments', async () => {
    await operatorPage.goto(`${inject('appUrl')}/pagamenti`);
    await operatorPage.getByLabel('Codice fiscale').fill('abc');
    await operatorPage.getByRole('button', { name: 'Cerca' }).click();
    await operatorPage.getByText('Il codice fiscale è errato!').waitFor();
    await operatorPage.getByLabel('Codice fiscale').fill('BNCLRA79H61F205F');
    await operatorPage.getByRole('button', { name: 'Cerca' }).click();
    await operatorPage.getByText("Non ci sono pagamenti per l'utente selezionato.").waitFor();
    await expectAccessible(operatorPage);
  });
});
