import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approveUser, exportMonth, operatorWithMyPay } from '../support/positions.ts';
import { billedMonth, euroDigits, pastMonth, type TestMonth } from '../support/months.ts';
import { jobAnswer } from '../support/jobs.ts';

/**
 * Issue 9's citizen path in the browser: Maria Rossi opens her payment from /iscrizioni, presses 'Paga',
 * chooses success on the MyPay simulator's checkout page, comes back and sees 'Pagato'; the operator sees
 * it paid in the user record and on 'Pagamenti', and 'Rendicontazione' finds nothing more to mark.
 * Issue 21: a payment to reconcile and a late one, as operators and the citizen see them, at 1280 and 390 px.
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

const month = billedMonth();
/** Maria's fee for a month: 2 hours a week at 7,20 € an hour (40% of 18 €), times the month's days / 7 (design §4). */
const feeCents = (m: TestMonth) => Math.round(((7.2 * 2 * m.days) / 7) * 100);

/** An open call on which Maria is approved, with her position of this month exported to MyPay. */
async function mariasPosition(months = [month.period]) {
  const operator = await operatorWithMyPay();
  const mariaId = (await (await as('citizen')).get('/api/me')).json.userId as string;
  const { call } = await openCall(operator, `Bando pagamenti ${Date.now().toString(36)}`);
  await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
  for (const month of months) await exportMonth(operator, call.id, month);
  return { call: call as { id: string; name: string }, mariaId, operator };
}

const simulatorAdmin = (action: string, body: object) =>
  fetch(`${inject('myPayEndpoint').replace(/\/pa\/services.*$/, '')}/admin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the citizen pays a position', () => {
  it('opens the payment from Iscrizioni, pays it on MyPay’s checkout and comes back to ‘Pagato’; the operator sees it paid', async () => {
    const { call, mariaId } = await mariasPosition();

    await citizenPage.goto(`${inject('appUrl')}/iscrizioni`);
    await citizenPage.getByRole('heading', { level: 1, name: 'Iscrizioni' }).waitFor();
    await citizenPage.getByRole('link', { name: `Pagamenti per ${call.name}` }).click();
    await citizenPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    const table = citizenPage.getByRole('table', { name: 'I tuoi pagamenti per questo servizio' });
    const row = table.getByRole('row', { name: new RegExp(month.label) });
    await row.getByText('Da pagare').waitFor();
    expect(await row.innerText()).toMatch(
      new RegExp(`${euroDigits(feeCents(month))}\\s€[\\s\\S]*${month.dueDayItalian}[\\s\\S]*3\\d{17}`),
    );
    await screenshot(citizenPage, 'citizen-payments-to-pay');
    await expectAccessible(citizenPage);

    await row.getByRole('button', { name: /^Paga / }).click();
    // MyPay's landing, then the checkout (the simulator's pages, another site).
    await citizenPage.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    await citizenPage.getByRole('button', { name: 'Paga (esito positivo)' }).click();
    // Back on the portal: the outcome is MyPay's, asked by the server.
    await citizenPage.waitForURL(
      (url) => url.origin === inject('appUrl') && url.pathname === '/iscrizioni/visualizza_servizio',
    );
    await citizenPage.getByText('Pagamento avvenuto con successo: la posizione risulta pagata.').waitFor();
    await row.getByText('Pagato', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Paga / }).count()).toBe(0);
    await expect.poll(() => new URL(citizenPage.url()).searchParams.has('idSession')).toBe(false);
    await screenshot(citizenPage, 'citizen-payments-paid');
    await expectAccessible(citizenPage);

    // The operator's user record and 'Pagamenti' page show it paid.
    await operatorPage.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${mariaId}`);
    // Maria may owe other positions of this month made by other browser tests: this call's row is the one named
    // after its service ('Servizio <call name> – Novembre 2026').
    const recordRow = operatorPage
      .getByRole('table', { name: 'Pagamenti dell’utente' })
      .getByRole('row')
      .filter({ hasText: `${call.name} – ${month.label}` });
    await recordRow.getByText('Pagato', { exact: true }).waitFor();
    await screenshot(operatorPage, 'user-record-payments');
    await expectAccessible(operatorPage);

    await operatorPage.goto(`${inject('appUrl')}/pagamenti`);
    await operatorPage.getByRole('heading', { level: 1, name: 'Pagamenti' }).waitFor();
    await operatorPage.getByLabel('Codice fiscale').fill('rssmra85c52h501n');
    await operatorPage.getByRole('button', { name: 'Cerca' }).click();
    await expect.poll(() => operatorPage.url()).toContain('fiscalCode=RSSMRA85C52H501N');
    const cards = operatorPage.getByRole('list', { name: 'Pagamenti di RSSMRA85C52H501N' });
    await cards
      .getByRole('listitem')
      .filter({ hasText: `${call.name} – ${month.label}` })
      .getByText('Pagato', { exact: true })
      .waitFor();
    await screenshot(operatorPage, 'payments-page');
    await expectAccessible(operatorPage);

    // Rendicontazione on the call: MyPay reports it paid, the portal already knew.
    await operatorPage.goto(`${inject('appUrl')}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await operatorPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    await operatorPage.getByRole('button', { name: 'Rendicontazione' }).click();
    await operatorPage
      .getByText(/Rendicontazione completata: 0 posizioni segnate come pagate, 1 già pagata,/)
      .waitFor({ timeout: 30_000 });
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

  it('shows a payment to reconcile and a late one: the payment list (badge, filter, statistics), the user record and the citizen’s page, at 1280 and 390 px', async () => {
    const pastDue = pastMonth();
    const { call, mariaId, operator } = await mariasPosition([pastDue.period, month.period]);
    const mine = (await (await as('citizen')).get(`/api/me/positions?callId=${call.id}`)).json.items as Array<{
      iud: string;
      mese: number;
      importoDovuto: number;
    }>;
    const [late, odd] = [mine.find((p) => p.mese === pastDue.mese)!, mine.find((p) => p.mese === month.mese)!];
    // Last month paid late, as due; this month paid at a counter with another amount: the reporting records both.
    const difference = `-${euroDigits(feeCents(month) - 5000)}\\s€`;
    expect((await simulatorAdmin('paid', { iuds: [late.iud] })).status).toBe(200);
    expect((await simulatorAdmin('paid', { iuds: [odd.iud], amountCents: 5000 })).status).toBe(200);
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({
      marked: 2,
      toReconcile: 1,
    });

    // The file's two signed-in tabs, narrowed for the second round; the cookie notice would hide rows in the screenshots.
    for (const tab of [operatorPage, citizenPage]) await tab.getByRole('button', { name: 'Ho capito' }).click();
    for (const width of [1280, 390]) {
      const page = operatorPage;
      for (const tab of [operatorPage, citizenPage]) await tab.setViewportSize({ width, height: 900 });
      await page.goto(
        `${inject('appUrl')}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(call.id)}&anno=${month.anno}`,
      );
      await page.getByRole('heading', { level: 1, name: 'Lista pagamenti' }).waitFor();
      const rossi = page
        .getByRole('table', { name: 'Pagamenti del bando per cittadino' })
        .getByRole('row', { name: /Rossi Maria/ });
      await rossi.getByTestId('reconcile-badge').waitFor();
      await page
        .getByTestId('payment-stats')
        .getByText(new RegExp(`^1 \\(differenza ${difference}\\)$`))
        .waitFor();
      await page
        .getByRole('search', { name: 'Filtra i pagamenti' })
        .getByText('Pagamento da riconciliare', { exact: true })
        .click();
      expect(await page.getByRole('checkbox', { name: 'Pagamento da riconciliare' }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Cerca' }).click();
      await expect.poll(() => page.url()).toContain('chkDaRiconciliare=true');
      await page
        .getByTestId('records-found')
        .filter({ hasText: /^Record trovati: 1 / })
        .waitFor();
      await screenshot(page, `reconcile-payment-list-${width}`);
      await expectAccessible(page);

      await page.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${mariaId}`);
      const record = page.getByRole('table', { name: 'Pagamenti dell’utente' });
      const oddRow = record.getByRole('row').filter({ hasText: `${call.name} – ${month.label}` });
      await oddRow.getByText('Pagamento da riconciliare').waitFor();
      expect(await oddRow.innerText()).toMatch(
        new RegExp(
          `${euroDigits(feeCents(month))}\\s€[\\s\\S]*50,00\\s€[\\s\\S]*Pagato[\\s\\S]*importo pagato diverso dal dovuto: differenza ${difference}`,
        ),
      );
      const lateRow = record.getByRole('row').filter({ hasText: `${call.name} – ${pastDue.label}` });
      expect(await lateRow.innerText()).toMatch(new RegExp(`${pastDue.dueDayItalian}[\\s\\S]*Pagato`));
      expect(await lateRow.getByText('Pagamento da riconciliare').count()).toBe(0);
      await screenshot(page, `reconcile-user-record-${width}`);
      await expectAccessible(page);

      const citizen = citizenPage;
      await citizen.goto(`${inject('appUrl')}/iscrizioni/visualizza_servizio?id=${encodeURIComponent(call.id)}`);
      const table = citizen.getByRole('table', { name: 'I tuoi pagamenti per questo servizio' });
      const paidOdd = table.getByRole('row', { name: new RegExp(month.label) });
      await paidOdd.getByText('Pagato', { exact: true }).waitFor();
      expect(await paidOdd.innerText()).toMatch(/50,00\s€/);
      // The citizen is not told about the council's reconciliation, and has nothing left to pay.
      expect(await table.getByText('Pagamento da riconciliare').count()).toBe(0);
      expect(await table.getByRole('button', { name: /^Paga / }).count()).toBe(0);
      await table
        .getByRole('row', { name: new RegExp(pastDue.label) })
        .getByText('Pagato', { exact: true })
        .waitFor();
      await screenshot(citizen, `reconcile-citizen-${width}`);
      await expectAccessible(citizen);
    }
    for (const tab of [operatorPage, citizenPage]) await tab.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);

  it('the operator closes a payment to reconcile from the user record (Chiudi riconciliazione): a note is required, then the badge reads Pagamento riconciliato', async () => {
    const { call, mariaId } = await mariasPosition();
    const operator = await as('operator');
    const [odd] = (await (await as('citizen')).get(`/api/me/positions?callId=${call.id}`)).json.items as Array<{
      iud: string;
    }>;
    expect((await simulatorAdmin('paid', { iuds: [odd!.iud], amountCents: 7000 })).status).toBe(200);
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({ toReconcile: 1 });

    const page = operatorPage;
    const cookies = page.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    await page.goto(`${inject('appUrl')}/lista_utenti/dati_utente?citizen=${mariaId}`);
    const row = page
      .getByRole('table', { name: 'Pagamenti dell’utente' })
      .getByRole('row')
      .filter({ hasText: `${call.name} – ${month.label}` });
    await row.getByTestId('reconcile-badge').waitFor();
    await row.getByRole('button', { name: /^Chiudi riconciliazione / }).click();
    const dialog = page.getByRole('dialog', { name: 'Chiudi riconciliazione' });
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    const note = dialog.getByRole('textbox', { name: /^Nota/ });
    await dialog.getByText('Il campo nota è obbligatorio!').waitFor();
    expect(await note.getAttribute('aria-invalid')).toBe('true');
    expect(
      await note.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      ),
    ).toContain('Il campo nota è obbligatorio!');
    await note.fill('Rimborsati 8,29 € il 2/12 con bonifico');
    await screenshot(page, 'reconcile-close-dialog');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Conferma' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row.getByTestId('reconciled-badge').waitFor();
    expect(await row.getByTestId('reconcile-badge').count()).toBe(0);
    expect(await row.getByRole('button', { name: /^Chiudi riconciliazione / }).count()).toBe(0);
    expect(await row.innerText()).toMatch(
      /70,00\s€[\s\S]*Pagato[\s\S]*Pagamento riconciliato[\s\S]*riconciliato da Laura Bianchi il \d{2}\/\d{2}\/\d{4}[\s\S]*Nota: Rimborsati 8,29 € il 2\/12 con bonifico/,
    );
    await screenshot(page, 'reconcile-closed-user-record');
    await expectAccessible(page);
    // The payment list's filter no longer finds it.
    const filtered = (
      await operator.get(`/api/calls/${call.id}/payment-list?anno=${month.anno}&chkDaRiconciliare=true`)
    ).json;
    expect(filtered.count).toBe(0);
  }, 120_000);
});
