import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';

/**
 * Issue 10's "Done when": a citizen sends a support message, sees the success text and the ticket in
 * 'Le mie segnalazioni'; the operator sees the TICKET badge go up, opens /lista_ticket, takes the ticket
 * (In Corso), resolves it (read-only), and the badge goes down; the e-mails are in the local inbox.
 */
let browser: Browser;
let citizen: Page;
let operator: Page;
const appUrl = () => inject('appUrl');
const text = `Non riesco a scaricare il modulo del bando (prova ${Date.now()}).`;
let ticketId = '';

/** The number on the TICKET card's badge of the operator dashboard. */
async function ticketBadge(): Promise<number> {
  await operator.goto(appUrl());
  const card = operator.locator('article.dashboard-card', { has: operator.getByRole('heading', { name: 'TICKET' }) });
  const badge = card.locator('.dashboard-card__badge');
  await badge.waitFor();
  return Number(/^(\d+)/.exec((await badge.textContent()) ?? '')![1]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  citizen = await newPage(browser);
  operator = await newPage(browser);
  await signInAs(citizen, 'Maria Rossi — Cittadina con profilo completo');
  await signInAs(operator, 'Laura Bianchi — Operatrice');
});
afterAll(() => browser?.close());

describe('a support message, from the citizen to a resolved ticket', () => {
  let badgeBefore = 0;

  it('the citizen finds the form with the manual link and is told what is wrong', async () => {
    badgeBefore = await ticketBadge();
    await citizen.goto(appUrl());
    await citizen.getByRole('navigation').getByRole('link', { name: 'Supporto' }).first().click();
    await citizen.getByRole('heading', { level: 1, name: 'Supporto' }).waitFor();
    expect(await citizen.getByRole('link', { name: /manuale del portale/ }).getAttribute('href')).toBe(
      '/doc/Manuale.pdf',
    );

    await citizen.getByLabel('E-mail').fill('maria.rossi@');
    await citizen.getByRole('button', { name: 'Invia' }).click();
    await citizen.getByText('Il formato della mail non è corretto!').waitFor();
    expect(await citizen.getByText('Il campo non può essere vuoto!').count()).toBe(2); // subject and message
    await citizen.getByLabel('Messaggio').fill('a'.repeat(401));
    await citizen.getByText('401/400 caratteri').waitFor();
    await citizen.getByRole('button', { name: 'Invia' }).click();
    await citizen.getByText('Il campo può contenere al massimo 400 caratteri.').waitFor();
    await screenshot(citizen, 'tickets-support-errors');
    await expectAccessible(citizen);
  });

  it('the citizen sends the message, sees the success text for 4 seconds and the ticket in Le mie segnalazioni', async () => {
    await citizen.getByLabel('E-mail').fill('maria.rossi@example.it');
    const options = await citizen.getByLabel('Oggetto').locator('option').allTextContents();
    expect(options.at(-1)).toBe('Altro');
    await citizen.getByLabel('Oggetto').selectOption('Altro');
    await citizen.getByLabel('Messaggio').fill(text);
    await citizen.getByText(`${text.length}/400 caratteri`).waitFor();
    await citizen.getByRole('button', { name: 'Invia' }).click();
    const success = citizen.getByText('Segnalazione avvenuta con successo, risponderemo alla mail indicata!');
    await success.waitFor();
    const shownAt = Date.now();
    await screenshot(citizen, 'tickets-support-sent');
    // The form is ready for another message; the text goes away by itself after 4 s.
    expect(await citizen.getByLabel('Messaggio').inputValue()).toBe('');
    await success.waitFor({ state: 'detached', timeout: 8_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3_000);

    await citizen.getByRole('link', { name: 'Le mie segnalazioni' }).click();
    await citizen.getByRole('heading', { level: 1, name: 'Le mie segnalazioni' }).waitFor();
    const row = citizen.getByRole('row', { name: new RegExp(text.replace(/[()]/g, '.')) });
    await row.waitFor();
    expect(await row.getByText('Aperto').count()).toBe(1);
    ticketId = ((await row.locator('th').first().textContent()) ?? '').trim();
    expect(ticketId).toMatch(/^\d+$/);
    await screenshot(citizen, 'tickets-my-tickets');
    await expectAccessible(citizen);
  });

  it('the operator sees the badge go up, takes the ticket In Corso from /lista_ticket, with its history', async () => {
    expect(await ticketBadge()).toBe(badgeBefore + 1);
    await screenshot(operator, 'tickets-dashboard-badge');
    await operator.getByRole('link', { name: 'Visualizza TICKET' }).click();
    await operator.getByRole('heading', { level: 1, name: 'Lista ticket' }).waitFor();
    for (const header of [
      'Id',
      'Data apertura',
      'Stato',
      'Richiedente',
      'Ultimo aggiornamento',
      'Categoria',
      'Assegnato a',
    ]) {
      await operator.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await screenshot(operator, 'tickets-list');
    await expectAccessible(operator);
    // Search by the requester's surname finds it too.
    await operator.getByRole('textbox', { name: 'Cerca' }).fill('Rossi');
    await operator.getByRole('button', { name: 'Cerca' }).click();
    await operator.getByRole('link', { name: `Dettaglio ticket ${ticketId} di Maria Rossi` }).click();

    await operator.getByRole('heading', { level: 1, name: `Ticket ${ticketId}` }).waitFor();
    expect(await operator.getByLabel('Dettagli').inputValue()).toBe(text);
    await operator.getByLabel('Stato').selectOption({ label: 'In Corso' });
    await operator.getByLabel('Assegnato a').fill('Laura Bianchi');
    await operator.getByRole('button', { name: 'Salva' }).click();
    await operator.getByText('Il ticket è stato aggiornato.').waitFor();
    await operator.getByText('Stato: Aperto → In Corso').waitFor();
    await operator.getByText('Assegnato a: — → Laura Bianchi').waitFor();
    // The message stays once the saved ticket and its history are shown again (it used to vanish with the reload).
    expect(await operator.getByText('Il ticket è stato aggiornato.').isVisible()).toBe(true);
    await screenshot(operator, 'tickets-detail-in-progress');
    await expectAccessible(operator);
  });

  it('the operator resolves it: the page becomes read-only and the badge goes back down', async () => {
    await operator.getByLabel('Stato').selectOption({ label: 'Risolto' });
    await operator.getByRole('button', { name: 'Salva' }).click();
    await operator.getByText('Il ticket è risolto o chiuso: è in sola lettura.').waitFor();
    expect(await operator.getByRole('button', { name: 'Salva' }).count()).toBe(0);
    expect(await operator.getByLabel('Stato').isDisabled()).toBe(true);
    await operator.getByText('Stato: In Corso → Risolto').waitFor();
    await screenshot(operator, 'tickets-detail-resolved');
    await expectAccessible(operator);

    await operator.getByRole('link', { name: 'Ticket dell’utente' }).click();
    await operator.getByRole('heading', { level: 1, name: 'Ticket utente' }).waitFor();
    await operator.getByRole('row', { name: new RegExp(`^${ticketId} .*Risolto`) }).waitFor();
    await screenshot(operator, 'tickets-user-tickets');

    expect(await ticketBadge()).toBe(badgeBefore);
    // The citizen sees the new state.
    await citizen.reload();
    await citizen
      .getByRole('row', { name: new RegExp(`^${ticketId} `) })
      .getByText('Risolto')
      .waitFor();
  });

  it('the e-mails to the office and the receipt to the citizen are in the local inbox', async () => {
    const { emails } = await (await fetch(`${inject('sesEndpoint')}/store`)).json();
    // By the ticket's number as the two subjects carry it: other mail in the shared inbox (the ISEE reminders) has digits too.
    const ours = emails.filter(
      (m: { subject: string }) =>
        m.subject.startsWith(`[Ticket ${ticketId}] `) || m.subject.endsWith(`(ticket n. ${ticketId})`),
    );
    expect(ours.map((m: { destination: { to: string[] } }) => m.destination.to[0]).sort()).toEqual([
      'maria.rossi@example.it',
      'supporto@comune.example.it',
    ]);
    const inboxPage = await newPage(browser);
    await inboxPage.goto(`${inject('sesEndpoint')}/`);
    await inboxPage.getByText(`[Ticket ${ticketId}] Altro`).first().waitFor();
    await screenshot(inboxPage, 'tickets-local-inbox');
  });

  it('the user record opens the user’s tickets for an operator, and keeps the Ticket button disabled for a delegate', async () => {
    const delegate = await newPage(browser);
    await signInAs(delegate, /Paolo Esposito/);
    const userId = (await (await as('citizen')).get('/api/me')).json.userId;
    const href = `/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`;
    await operator.goto(`${appUrl()}${href}`);
    await operator.getByRole('link', { name: 'Ticket', exact: true }).click();
    await operator.getByRole('heading', { level: 1, name: 'Ticket utente' }).waitFor();
    await operator.getByRole('row', { name: new RegExp(`^${ticketId} `) }).waitFor();

    await delegate.goto(`${appUrl()}${href}`);
    const button = delegate.getByRole('button', { name: 'Ticket', exact: true });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
  });
});
