import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { inbox } from '../support/mail.ts';
import { approvedSubscriber } from '../support/positions.ts';
import { romeYear } from '../../functions/domain/period.ts';

/**
 * Issue 24's "done when", in the browser: a citizen without an ISEE fetches it from INPS and applies at once;
 * an operator checks an uploaded attestation against INPS and sees the difference; a call's ISEE are
 * refreshed in one job; a January month is generated with the expired ISEE listed instead of billed; the
 * December reminders reach IO and the mailbox. Screenshots at 1280 and 390 px, axe on each page.
 */
let browser: Browser;
let operatorPage: Page;
const appUrl = () => inject('appUrl');
const year = romeYear(new Date());
const inps = (path: string, body: unknown) =>
  fetch(`${inject('inpsUrl')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const dialog = (page: Page) => page.getByRole('dialog');

beforeAll(async () => {
  browser = await launchBrowser();
  operatorPage = await newPage(browser);
  await signInAs(operatorPage, 'Laura Bianchi — Operatrice');
});
afterAll(() => browser?.close());

describe('a citizen without an ISEE', () => {
  it('fetches it from INPS and applies to a call without waiting for an operator', async () => {
    const small = await newPage(browser, 390);
    await signInAs(small, 'Chiara Neri — Cittadina senza ISEE');
    await small.getByText('ISEE non caricato').first().waitFor();
    await small.goto(`${appUrl()}/caricamento_ISEE`);
    await small.getByRole('heading', { level: 2, name: 'Recupera il mio ISEE da INPS' }).waitFor();
    await small.getByText(/tramite la Piattaforma Digitale Nazionale Dati/).waitFor();
    await small.getByRole('heading', { level: 2, name: 'Oppure carica l’attestazione' }).waitFor();
    await screenshot(small, 'isee-inps-choice-390');
    await expectAccessible(small);

    const page = await newPage(browser);
    await signInAs(page, 'Chiara Neri — Cittadina senza ISEE');
    await page.goto(`${appUrl()}/caricamento_ISEE`);
    await screenshot(page, 'isee-inps-choice-1280');
    await page.getByRole('button', { name: 'Recupera il mio ISEE da INPS' }).click();
    await page.getByText(/ISEE recuperato da INPS e già accettato: 6\.780,15\s€/).waitFor();
    await screenshot(page, 'isee-inps-fetched-1280');
    await expectAccessible(page);
    // Home 4 seconds later: no ISEE banner any more.
    await page.waitForURL(`${appUrl()}/`, { timeout: 10_000 });
    await page.getByRole('region', { name: 'Bacheca' }).waitFor();
    expect(await page.getByText('ISEE non caricato').count()).toBe(0);
    expect(await page.getByText(/non è possibile iscriversi ai bandi/).count()).toBe(0);
    await page
      .getByRole('region', { name: 'Bacheca' })
      .getByRole('link', { name: /^Dettaglio del bando/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Richiedi Servizio' }).click();
    await dialog(page).getByRole('heading', { name: 'Richiesta inviata' }).waitFor();
    await screenshot(page, 'isee-inps-applied-1280');

    // The profile lists the ISEE with its source, and when the council asked INPS.
    await small.goto(`${appUrl()}/profilo`);
    const isees = small.getByRole('region', { name: 'ISEE caricati' });
    await isees.getByText('INPS tramite PDND').waitFor();
    const queries = small.getByRole('region', { name: 'Richieste del Comune all’INPS' });
    await queries.getByText('Su tua richiesta, dalla pagina Caricamento ISEE').waitFor();
    await queries.getByText('ISEE trovato').waitFor();
    await screenshot(small, 'isee-inps-profile-390');
    await expectAccessible(small);
    await page.context().close();
    await small.context().close();
  });
});

describe('an operator and INPS', () => {
  it('verifies an uploaded attestation against INPS and sees the difference beside the reading', async () => {
    for (const width of [1280, 390]) {
      const page = width === 1280 ? operatorPage : await newPage(browser, 390);
      if (width === 390) await signInAs(page, 'Laura Bianchi — Operatrice');
      await page.goto(`${appUrl()}/lista_isee`);
      await page.getByRole('link', { name: 'Dettaglio ISEE di Giulia Colombo' }).click();
      await page.getByRole('heading', { level: 1, name: 'Verifica ISEE' }).waitFor();
      await page.getByRole('button', { name: 'Verifica con INPS' }).click();
      const check = page.getByTestId('inps-check');
      await check.getByText('Il valore è diverso da quello di INPS.').waitFor();
      // Giulia declared 4.980,00 €; INPS says 4.890,00 €.
      await check.getByText('4.890,00 €').waitFor();
      await check.getByText('(90,00 € in più del valore INPS)').first().waitFor();
      await screenshot(page, `isee-inps-check-${width}`);
      await expectAccessible(page);
      if (width === 1280) {
        await page.getByRole('button', { name: 'Usa il valore INPS' }).click();
        expect(await page.getByLabel('Valore dichiarato (€)').inputValue()).toBe('4890,00');
      } else await page.context().close();
    }
  });

  it('updates a user’s ISEE from INPS on the user record and sees the queries', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando scheda ${Date.now().toString(36)}`);
    const user = await approvedSubscriber(operator, call, { lastName: 'Scheda', iseeValue: 7000, weeklyHour: 2 });
    await inps('/admin/dsu', {
      fiscalCode: user.fiscalCode,
      value: 12345.67,
      lastName: 'SCHEDA',
      firstName: 'ANNA',
      members: 2,
    });
    await operatorPage.goto(`${appUrl()}/lista_utenti/dati_utente?citizen=${user.userId}`);
    await operatorPage.getByRole('button', { name: 'Aggiorna ISEE da INPS' }).click();
    await operatorPage.getByText(/^ISEE aggiornato da INPS e accettato: 12\.345,67\s€/).waitFor();
    await operatorPage.getByRole('region', { name: 'ISEE caricati' }).getByText('INPS tramite PDND').waitFor();
    const queries = operatorPage.getByRole('region', { name: 'Interrogazioni INPS' });
    await queries.getByText('Aggiornamento dell’ISEE da parte di un operatore').waitFor();
    await queries.getByText('ISEE trovato (OK)').waitFor();
    await screenshot(operatorPage, 'isee-inps-user-record-1280');
    await expectAccessible(operatorPage);
  });

  it('refreshes a call’s ISEE in one job and sees who has a new value, none, omissions', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando ISEE INPS ${Date.now().toString(36)}`);
    const fresh = await approvedSubscriber(operator, call, { lastName: 'Aggiornata', iseeValue: 7000, weeklyHour: 2 });
    await inps('/admin/dsu', {
      fiscalCode: fresh.fiscalCode,
      value: 9100.5,
      lastName: 'AGGIORNATA',
      firstName: 'ANNA',
    });
    const omissions = await approvedSubscriber(operator, call, { lastName: 'Omessa', iseeValue: 7000, weeklyHour: 2 });
    await inps('/admin/dsu', { fiscalCode: omissions.fiscalCode, value: 4200, omissions: true });
    await approvedSubscriber(operator, call, { lastName: 'Senzadsu', iseeValue: 7000, weeklyHour: 2 });

    await operatorPage.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await operatorPage.getByRole('heading', { level: 1, name: call.name }).waitFor();
    await operatorPage.getByRole('button', { name: 'Aggiorna ISEE da INPS' }).click();
    await dialog(operatorPage).getByRole('button', { name: 'Conferma' }).click();
    await operatorPage.getByText(/^Ultimo aggiornamento completato/).waitFor({ timeout: 30_000 });
    const report = operatorPage.getByText(/^Nuovo valore: /);
    expect(await report.textContent()).toBe(
      'Nuovo valore: 1 · Con omissioni: 1 · Nessun ISEE: 1 · Invariati: 0 · Da riprovare: 0',
    );
    await operatorPage.getByText('Nuovo valore da INPS (1)').click();
    await operatorPage.getByRole('region', { name: 'Nuovo valore da INPS' }).getByText(fresh.fiscalCode).waitFor();
    await operatorPage.getByText('Con omissioni o difformità: tra gli ISEE da verificare (1)').click();
    await operatorPage.getByText('Nessun ISEE valido presso INPS (1)').click();
    // The subscribers' table is read again: the new value, and the one waiting for review.
    await operatorPage.getByText(new RegExp(`^9\\.100,50\\s€ \\(${year}\\)$`)).waitFor();
    await operatorPage.getByText(new RegExp(`^4\\.200,00\\s€ \\(${year}\\)$`)).waitFor();
    await screenshot(operatorPage, 'isee-inps-call-refresh-1280');
    await expectAccessible(operatorPage);

    const small = await newPage(browser, 390);
    await signInAs(small, 'Laura Bianchi — Operatrice');
    await small.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${call.id}`);
    await small.getByText(/^Ultimo aggiornamento completato/).waitFor();
    await small.getByText('Nuovo valore da INPS (1)').click();
    await screenshot(small, 'isee-inps-call-refresh-390');
    await expectAccessible(small);

    // January of next year: the December ISEE does not bill it; the generation lists who, and so does the payment list.
    await operatorPage.getByRole('button', { name: 'Verifica / genera CSV' }).click();
    await dialog(operatorPage).getByLabel('Mese').selectOption('1');
    await dialog(operatorPage)
      .getByLabel('Anno')
      .fill(String(year + 1));
    await Promise.all([
      operatorPage.waitForEvent('download'),
      dialog(operatorPage).getByRole('button', { name: 'Genera e scarica CSV' }).click(),
    ]);
    const summary = dialog(operatorPage).getByTestId('csv-summary');
    await summary.getByText(`CSV di Gennaio ${year + 1} scaricato`, { exact: false }).waitFor();
    const skipped = summary.getByRole('row', { name: new RegExp(fresh.fiscalCode) });
    expect(await skipped.textContent()).toContain('ISEE scaduto o mancante');
    await screenshot(operatorPage, 'isee-inps-january-generated-1280');
    await dialog(operatorPage)
      .getByRole('button', { name: /Chiudi|Annulla/ })
      .first()
      .click();

    for (const page of [operatorPage, small]) {
      await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${call.id}&anno=${year + 1}`);
      const notice = page.getByRole('alert').filter({ hasText: 'ISEE scaduto o mancante' });
      await notice.getByText(`Gennaio ${year + 1}`).waitFor();
      expect(await notice.textContent()).toContain(fresh.fiscalCode);
      await screenshot(page, `isee-inps-payment-list-${page === small ? 390 : 1280}`);
      await expectAccessible(page);
    }
    await small.context().close();
  });

  it('the December reminders reach IO and the mailbox, and the operators see the list', async () => {
    const operator = await as('operator');
    const { call } = await openCall(operator, `Bando scadenze ${Date.now().toString(36)}`);
    const expiring = await approvedSubscriber(operator, call, {
      lastName: 'Promemoria',
      iseeValue: 8000,
      weeklyHour: 2,
    });
    // The job walks the active calls through a global index, which trails the writes (more so on a busy machine):
    // wait until the operators' list shows the call, as an operator would see it before asking for the list.
    await expect
      .poll(
        async () =>
          (await operator.get(`/api/calls?name=${encodeURIComponent(call.name)}`)).json.items.map(
            (c: { id: string }) => c.id,
          ),
        { timeout: 15_000 },
      )
      .toContain(call.id);
    await operatorPage.goto(`${appUrl()}/lista_isee`);
    await operatorPage.getByRole('heading', { level: 2, name: 'ISEE in scadenza o scaduti degli iscritti' }).waitFor();
    await operatorPage.getByRole('button', { name: 'Aggiorna elenco e promemoria' }).click();
    await operatorPage.getByText(/^Elenco aggiornato il/).waitFor({ timeout: 30_000 });
    const table = operatorPage.getByRole('region', { name: 'ISEE in scadenza o scaduti degli iscritti' });
    // The list is paged: the subscriber is on one of its pages.
    const onSomePage = async () => {
      for (let i = 0; i < 20 && !(await table.getByText(expiring.fiscalCode).count()); i++) {
        const next = operatorPage.getByRole('button', { name: 'Pagina successiva' });
        if (!(await next.isVisible()) || !(await next.isEnabled())) return false;
        await next.click();
      }
      return (await table.getByText(expiring.fiscalCode).count()) > 0;
    };
    // When the run ends, the rows on screen can still be an earlier run's (another test on this stack) until
    // the list has reloaded: the operator opens the page again and looks from its first page.
    await expect
      .poll(
        async () =>
          (await onSomePage()) ||
          (await operatorPage.goto(`${appUrl()}/lista_isee`),
          await operatorPage.getByText(/^Elenco aggiornato il/).waitFor({ timeout: 30_000 }),
          false),
        { timeout: 45_000, interval: 1_000 },
      )
      .toBe(true);
    const row = table.getByRole('row', { name: new RegExp(expiring.fiscalCode) });
    expect(await row.textContent()).toContain('In scadenza');
    expect(await row.textContent()).toContain('IO inviato, e-mail inviato');
    await screenshot(operatorPage, 'isee-inps-expiry-1280');
    await expectAccessible(operatorPage);
    const io = (await (await fetch(`${inject('ioUrl')}/admin/messages?fiscal_code=${expiring.fiscalCode}`)).json())
      .messages;
    expect(io.map((m: { content: { subject: string } }) => m.content.subject)).toEqual([
      `Il tuo ISEE scade il 31/12/${year}`,
    ]);
    expect(
      (await inbox()).filter((m) => m.destination.to.includes('promemoria@example.it')).map((m) => m.subject),
    ).toEqual([`Il tuo ISEE scade il 31/12/${year}`]);

    const small = await newPage(browser, 390);
    await signInAs(small, 'Laura Bianchi — Operatrice');
    await small.goto(`${appUrl()}/lista_isee`);
    await small.getByRole('heading', { level: 2, name: 'ISEE in scadenza o scaduti degli iscritti' }).waitFor();
    await small.getByText(/^Elenco aggiornato il/).waitFor();
    await screenshot(small, 'isee-inps-expiry-390');
    await expectAccessible(small);
    await small.context().close();
  });
});
