import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { approveUser, operatorWithMyPay } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { gpdAdmin, publishMonth } from '../support/gpd.ts';
import { monthFromNow } from '../support/months.ts';

/**
 * Issue 37 in the browser, on a portal billing through pagoPA GPD: Maria Rossi ticks three months on her payments
 * page, pays them at once in one pagoPA Checkout cart (the simulator's page), comes back to 'Pagamento in verifica'
 * while pagoPA's receipts are late, and sees the three months 'Pagato' once the receipts arrive and the reporting
 * has recorded them.
 */
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
});
afterAll(async () => {
  await gpdAdmin('reset', {});
  await browser?.close();
});

// The current month and the two before it, by their names on the citizen's rows.
const months = [-2, -1, 0]
  .map((offset) => monthFromNow(offset))
  .map(({ mese, anno, label }) => ({ mese, anno, name: label }));

describe('the citizen pays several months at once on pagoPA', () => {
  it('ticks three months, pays them in one Checkout cart, reads ‘Pagamento in verifica’ until the receipts arrive, then sees them paid', async () => {
    const operator = await operatorWithMyPay();
    const mariaId = (await (await as('citizen')).get('/api/me')).json.userId as string;
    const { call } = await openCall(operator, `Bando pagoPA ${Date.now().toString(36)}`);
    await approveUser(operator, call.id, mariaId, { iseeValue: 8000, weeklyHour: 2 });
    for (const { mese, anno } of months) {
      expect((await jobAnswer(operator, `/api/calls/${call.id}/positions/generate`, { mese, anno })).status).toBe(200);
      await publishMonth(operator, call.id, { mese, anno });
    }
    await gpdAdmin('receipts', { hold: true });

    await page.goto(`${inject('appUrl')}/iscrizioni/visualizza_servizio?id=${call.id}`);
    const table = page.getByRole('table', { name: 'I tuoi pagamenti per questo servizio' });
    const row = (name: string) => table.getByRole('row', { name: new RegExp(name) });
    for (const { name } of months) await row(name).getByText('Da pagare').waitFor();
    await page.getByText('Puoi pagare insieme fino a 5 avvisi con pagoPA').waitFor();
    // The cookie bar would cover the table's last rows.
    const cookies = page.getByRole('button', { name: 'Ho capito' });
    if (await cookies.isVisible()) await cookies.click();
    for (const { name } of months) {
      // Amplify's checkbox input is visually hidden: a person clicks its label.
      await row(name)
        .getByText(/^Seleziona /)
        .click();
      expect(await row(name).getByRole('checkbox').isChecked()).toBe(true);
    }
    const payChosen = page.getByRole('button', { name: 'Paga gli avvisi selezionati (3)' });
    await screenshot(page, 'gpd-cart-selected');
    await expectAccessible(page);
    await payChosen.click();

    // pagoPA Checkout (the simulator's page, another site): the three notices in one cart.
    await page.waitForURL((url) => url.origin === inject('gpdUrl') && url.pathname.startsWith('/c/'));
    expect(await page.getByRole('table', { name: 'Avvisi nel carrello' }).getByRole('row').count()).toBe(4);
    await screenshot(page, 'gpd-cart-checkout');
    await page.getByRole('button', { name: 'Paga', exact: true }).click();

    // Back on the portal: the return proves nothing, pagoPA's receipts are late.
    await page.waitForURL(
      (url) => url.origin === inject('appUrl') && url.pathname === '/iscrizioni/visualizza_servizio',
    );
    await page.getByText(/^Pagamento in verifica: la ricevuta di pagoPA non è ancora arrivata/).waitFor();
    for (const { name } of months) {
      await row(name)
        .getByText(/Pagamento in verifica: se hai pagato non pagare di nuovo/)
        .waitFor();
      expect(
        await row(name)
          .getByRole('button', { name: /^Paga / })
          .count(),
      ).toBe(0);
    }
    await expect.poll(() => new URL(page.url()).searchParams.has('idSession')).toBe(false);
    await screenshot(page, 'gpd-cart-in-verifica');
    await expectAccessible(page);

    // The receipts reach the council; the reporting (daily, and a few minutes after each checkout) records them.
    await gpdAdmin('receipts', { hold: false });
    expect((await jobAnswer(operator, `/api/calls/${call.id}/reporting`)).json).toMatchObject({ marked: 3 });
    await page.reload();
    for (const { name } of months) await row(name).getByText('Pagato', { exact: true }).waitFor();
    expect(await table.getByRole('checkbox').count()).toBe(0);
    await screenshot(page, 'gpd-cart-paid');
    await expectAccessible(page);
  });
});
