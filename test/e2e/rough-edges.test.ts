import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { currentPeriod } from '../../functions/domain/payments.ts';
import { as } from '../support/api.ts';
import { expectAccessible, launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { openCall } from '../support/calls.ts';
import { giveValidatedIsee } from '../support/isee.ts';
import { newUserBody } from '../support/user-body.ts';
import { seedBigPaymentList } from '../support/payment-list-seed.ts';
import { approvedSubscriber, exportMonth, operatorWithMyPay, storedPositions } from '../support/positions.ts';
import { jobAnswer } from '../support/jobs.ts';
import { signedInTabs } from '../support/signed-in-tabs.ts';

/**
 * Issue 23, what operators, delegates and citizens tripped over, as they meet it in the browser: the call
 * detail showing what its buttons changed, amounts with the thousands dot, the record links' names, long
 * names in Flussi MyPay and in tickets, the ticket breadcrumbs, ISEE states, the CSV import's messages, the
 * floating cookie bar and 'Torna su' over what the keyboard or the mouse is on, the sort arrows on a phone.
 */
type Client = Awaited<ReturnType<typeof as>>;
let browser: Browser;
let operatorApi: Client;
const appUrl = () => inject('appUrl');
const mypay = () => inject('myPayEndpoint').replace(/\/pa\/services.*$/, '');
// Letters only: a text with a digit is read as a fiscal code by the payment list's filter.
const RUN = Date.now()
  .toString(36)
  .slice(-6)
  .toUpperCase()
  .replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!);
/** One word of 60 letters, as a call's name can be: with its service's ('Servizio …'), two such columns in Flussi MyPay. */
const LONG_WORD = `Assistenzadomiciliaresociosanitariaintegratapermanente${RUN}`;
const PERIOD = currentPeriod(new Date());
const MONTH = `${PERIOD.anno}-${String(PERIOD.mese).padStart(2, '0')}`;
/** Another month of the same year, generated beforehand for the payment list and exported for Flussi MyPay: this month starts empty. */
const OTHER = { mese: PERIOD.mese === 1 ? 2 : PERIOD.mese - 1, anno: PERIOD.anno };
const FULL_TIME = `Tempopieno${RUN}`;
const PART_TIME = `Tempoparziale${RUN}`;
/** Enrolled (not yet approved) beside the two approved: a table longer than the window. */
const WAITING = 12;
let call: { id: string; name: string };
let fullTimeFiscalCode = '';
let listed: { id: string; name: string };

beforeAll(async () => {
  operatorApi = await operatorWithMyPay();
  // The set-up's parts that do not need each other run side by side: their API round trips overlap.
  [browser] = await Promise.all([
    launchBrowser(),
    (async () => {
      call = (await openCall(operatorApi, `Bando ${LONG_WORD}`)).call;
      // 40 hours a week at 7,20 € an hour: 1.152,00 € to 1.275,43 € a month, four digits before the comma.
      fullTimeFiscalCode = (
        await approvedSubscriber(operatorApi, call, { lastName: FULL_TIME, iseeValue: 8000, weeklyHour: 40 })
      ).fiscalCode;
      await approvedSubscriber(operatorApi, call, { lastName: PART_TIME, iseeValue: 8000, weeklyHour: 3 });
      expect((await jobAnswer(operatorApi, `/api/calls/${call.id}/positions/generate`, OTHER)).json.created).toBe(2);
      const waiting = await Promise.all(
        Array.from({ length: WAITING }, (_, i) =>
          operatorApi.post(
            '/api/users',
            newUserBody({ firstName: 'Attesa', lastName: `Inattesa${RUN}${'abcdefghijkl'[i]}` }),
          ),
        ),
      );
      // One enrolment after another, as an operator enrols them.
      for (const user of waiting) {
        expect(user.status).toBe(201);
        expect((await operatorApi.post(`/api/calls/${call.id}/enrolments`, { userId: user.json.id })).status).toBe(201);
      }
    })(),
    (async () => {
      // A payment list of 30 citizens, longer than the window.
      listed = (await openCall(operatorApi, `Elenco ${RUN}`)).call;
      await seedBigPaymentList(listed.id, PERIOD.anno, RUN, 30);
    })(),
  ]);
}, 180_000);
afterAll(() => browser?.close());

/** The operator's one tab for the file, its cookie bar dismissed when it opens, sized for the test. */
const tabOf = signedInTabs(
  () => browser,
  (page) => page.getByRole('button', { name: 'Ho capito' }).click(),
);
const operatorPage = (width = 1280, height = 900) => tabOf('Laura Bianchi — Operatrice', { width, height });

/** The floating elements a person sees over the page: the cookie bar and 'Torna su'. */
const floating = (page: Page) => [
  { name: 'la barra dei cookie', element: page.getByRole('region', { name: 'Informativa sui cookie' }) },
  { name: '«Torna su»', element: page.getByRole('button', { name: 'Torna su' }) },
];

/**
 * Where a floating element is at this moment, in one round trip to the browser: for each element the locator
 * finds (none when it is not rendered), whether it is visible (a box, not visibility: hidden, as isVisible), whether
 * it holds the focus itself (the bar's own button), and its box.
 */
const floatingNow = (element: Locator) =>
  element.evaluateAll((found) =>
    found.map((e) => {
      const { x, y, width, height } = e.getBoundingClientRect();
      return {
        visible: width > 0 && height > 0 && getComputedStyle(e).visibility !== 'hidden',
        itself: e.contains(document.activeElement),
        box: { x, y, width, height },
      };
    }),
  );

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The focused element's box once the page has stopped scrolling to it (three frames without a move). */
function settledFocus(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ box: Box; name: string } | null>((resolve) => {
        let last = '';
        let still = 0;
        let frames = 0;
        const step = () => {
          const focused = document.activeElement;
          if (!focused || focused === document.body) return resolve(null);
          const { x, y, width, height } = focused.getBoundingClientRect();
          const now = `${x},${y}`;
          still = now === last ? still + 1 : 0;
          last = now;
          frames += 1;
          if (still >= 3 || frames > 120) {
            const name = (focused.getAttribute('aria-label') ?? focused.textContent ?? focused.tagName)
              .trim()
              .slice(0, 60);
            return resolve({ box: { x, y, width, height }, name: `${focused.tagName} «${name}»` });
          }
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
  );
}

/**
 * Presses Tab from the focused control until `target` has the focus; at every stop the focused control must
 * end clear of the floating elements. Answers how many stops were checked while one of them was shown.
 */
async function tabUntil(page: Page, target: Locator, within?: Locator) {
  let checkedUnderFloating = 0;
  const hasFocus = (element: Locator) => element.evaluate((e) => e.contains(document.activeElement));
  for (let presses = 0; presses < 250; presses++) {
    await page.keyboard.press('Tab');
    const focused = await settledFocus(page);
    if (!focused) continue;
    // The questions about one stop are asked at once, each in one round trip: they overlap instead of queuing.
    const shown = floating(page);
    const [inside, reached, where] = await Promise.all([
      within ? hasFocus(within) : true,
      target.evaluate((e) => e === document.activeElement),
      Promise.all(shown.map(({ element }) => floatingNow(element))),
    ]);
    if (inside && focused.box.width > 0) {
      // Shown, and not itself (or the bar's own button) the focused control.
      const checked = shown.flatMap(({ name }, index) =>
        where[index].filter(({ visible, itself }) => visible && !itself).map(({ box }) => ({ name, box })),
      );
      for (const { name, box } of checked) {
        expect(overlap(focused.box, box), `${focused.name} sotto ${name}`).toBe(false);
        checkedUnderFloating += 1;
      }
    }
    if (reached) return checkedUnderFloating;
  }
  throw new Error('Tab never reached the control');
}

/**
 * With the mouse: each control brought to the bottom edge of the window (as scrolling down a long table does)
 * must not lie under 'Torna su' once it shows. Answers how many were checked with it shown.
 */
async function mouseReachesEach(page: Page, controls: Locator) {
  const backToTop = page.getByRole('button', { name: 'Torna su' });
  let checked = 0;
  const count = await controls.count();
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    await control.evaluate((e) => {
      const { bottom } = e.getBoundingClientRect();
      window.scrollTo({ top: window.scrollY + bottom - window.innerHeight + 4, behavior: 'instant' });
    });
    if (!(await page.evaluate(() => window.scrollY > 300))) continue;
    await backToTop.waitFor();
    const [box, buttonBox] = await Promise.all([control.boundingBox(), backToTop.boundingBox()]);
    const under = overlap(box!, buttonBox!);
    // The control's name is read only for the message of a failure.
    const name = under ? ((await control.getAttribute('aria-label')) ?? (await control.textContent())) : '';
    expect(under, `${name} sotto «Torna su»`).toBe(false);
    checked += 1;
  }
  return checked;
}

describe('the call detail shows what its buttons changed', () => {
  it('lists the positions ‘Verifica / genera CSV’ made and the payment ‘Rendicontazione’ recorded, without a reload, its buttons still in one row', async () => {
    const page = await operatorPage();
    await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${encodeURIComponent(call.id)}`);
    const positions = page.getByRole('region', { name: 'Posizioni debitorie' });
    await positions.getByText('Non ci sono pagamenti!').waitFor();
    const buttonRow = ['Verifica / genera CSV', 'Rendicontazione', 'Invia a MyPay', 'Elimina bando'].map((name) =>
      page.getByRole('button', { name, exact: true }),
    );
    const rowBoxes = async () =>
      Promise.all(
        [...buttonRow, page.getByRole('link', { name: 'Modifica bando' })].map(async (b) => (await b.boundingBox())!),
      );
    const before = await rowBoxes();

    await page.getByRole('button', { name: 'Verifica / genera CSV' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Genera e scarica CSV' }).click();
    await page
      .getByTestId('csv-summary')
      .getByText(/Posizioni create: 2 /)
      .waitFor();
    await download;
    await page.getByRole('dialog').getByRole('button', { name: 'Chiudi', exact: true }).click();
    const table = positions.getByRole('table');
    const row = (surname: string) => table.getByRole('row').filter({ hasText: surname });
    await row(FULL_TIME).getByText('Da pagare').waitFor();
    await row(PART_TIME).getByText('Da pagare').waitFor();

    // Sent to MyPay, and paid there by the full-time citizen.
    await exportMonth(operatorApi, call.id, PERIOD);
    const paid = (await storedPositions(call.id, MONTH)).find((p) => p.cognome === FULL_TIME)!;
    expect(
      (
        await fetch(`${mypay()}/admin/paid`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ iuds: [paid.iud] }),
        })
      ).ok,
    ).toBe(true);
    await page.getByRole('button', { name: 'Rendicontazione' }).click();
    await page
      .getByText(
        /^Rendicontazione completata: 1 posizione segnata come pagata, 0 già pagate, \d+ non riconosciut[ae]\.$/,
      )
      .waitFor({ timeout: 40_000 });
    await row(FULL_TIME).getByText('Pagato', { exact: true }).waitFor();
    await row(PART_TIME).getByText('Da pagare').waitFor();
    // The message sits under the buttons: none of them moved or changed size.
    expect(await rowBoxes()).toEqual(before);
    await screenshot(page, 'call-detail-after-reporting');
    await expectAccessible(page);
  });
});

describe('Lista pagamenti', () => {
  const amount = /^\d\.\d{3},\d{2}\s€$/;

  it('writes every amount of four digits with the thousands dot: the row, the statistics and the total', async () => {
    const page = await operatorPage();
    await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(call.id)}`);
    const table = page.getByRole('table', { name: 'Pagamenti del bando per cittadino' });
    const fullTime = table.getByRole('row').filter({ hasText: FULL_TIME });
    expect((await fullTime.getByRole('cell').nth(2).textContent())?.trim()).toMatch(amount);
    const dovuto = page
      .getByTestId('payment-stats')
      .locator('dt', { hasText: 'Dovuto' })
      .locator('xpath=following-sibling::dd[1]');
    expect((await dovuto.textContent())?.trim()).toMatch(amount);
    await page
      .getByTestId('records-found')
      .getByText(/^Record trovati: 2 — Totale: \d\.\d{3},\d{2}\s€$/)
      .waitFor();
    await screenshot(page, 'payment-list-amounts');
  });

  it('names each citizen’s record link starting with its visible text, for the operator and the delegate', async () => {
    const operator = await operatorPage();
    const delegate = await newPage(browser);
    await signInAs(delegate, 'Paolo Esposito — Delegato');
    for (const page of [operator, delegate]) {
      await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(call.id)}`);
      const link = page
        .getByRole('table', { name: 'Pagamenti del bando per cittadino' })
        .getByRole('row')
        .filter({ hasText: FULL_TIME })
        .getByRole('link', { name: /^Pagamenti/ });
      await link.waitFor();
      expect(await link.getAttribute('aria-label')).toMatch(/^Pagamenti: 1 da pagare, di /);
      const { violations } = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
      expect(violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
    }
  });

  for (const width of [1280, 390]) {
    it(`keeps the row actions of a long list clear of ‘Torna su’ at ${width} px, reached by Tab${width === 1280 ? ' and by the mouse' : ''}`, async () => {
      const page = await operatorPage(width, width === 1280 ? 900 : 844);
      await page.goto(
        `${appUrl()}/lista_bandi/dettaglio_sessione/lista_pagamenti?id=${encodeURIComponent(listed.id)}&limit=50`,
      );
      const table = page.getByRole('table', { name: 'Pagamenti del bando per cittadino' });
      const links = table.getByRole('link', { name: /^Pagamenti/ });
      await links.nth(29).waitFor();
      await page.getByRole('combobox', { name: 'Righe per pagina' }).focus();
      expect(await tabUntil(page, links.last(), table)).toBeGreaterThanOrEqual(5);
      if (width === 1280) expect(await mouseReachesEach(page, links)).toBeGreaterThanOrEqual(20);
      await screenshot(page, `payment-list-back-to-top-${width}`);
    });
  }
});

describe('the enrolled users table', () => {
  for (const width of [1280, 390]) {
    it(`keeps its row actions clear of ‘Torna su’ at ${width} px (Tab${width === 1280 ? ' and mouse' : ''}), and its sort arrows at least 12 px`, async () => {
      const page = await operatorPage(width, width === 1280 ? 900 : 844);
      await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${encodeURIComponent(call.id)}&limit=50`);
      const section = page.locator('section', {
        has: page.getByRole('heading', { level: 2, name: 'Iscritti al bando' }),
      });
      await section.getByText(`Mostro ${WAITING + 2} su ${WAITING + 2}`).waitFor();
      const table = section.getByRole('table');
      await section.getByRole('button', { name: 'Annulla' }).focus();
      expect(await tabUntil(page, table.getByRole('button').last(), table)).toBeGreaterThanOrEqual(5);
      if (width === 1280)
        expect(
          await mouseReachesEach(page, table.getByRole('row').locator('td:last-child button:last-of-type')),
        ).toBeGreaterThanOrEqual(5);
      await screenshot(page, `enrolments-back-to-top-${width}`);
      for (const arrow of await section.locator('th button span[aria-hidden="true"]').all()) {
        expect(await arrow.evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(12);
      }
    });
  }
});

describe('with the cookie bar showing, Tab never lands on a control under it', () => {
  beforeAll(async () => {
    // The e2e files share one stack and another one refuses Maria's ISEE: requesting needs a validated one.
    await giveValidatedIsee(await as('citizen'), operatorApi);
  });

  for (const width of [390, 1280]) {
    it(`reaches the open calls’ ‘Dettaglio’ on the home page and the file and ‘Richiedi Servizio’ on a call page, at ${width} px`, async () => {
      const page = await newPage(browser, width);
      await page.setViewportSize({ width, height: width === 390 ? 844 : 720 });
      await signInAs(page, 'Maria Rossi — Cittadina con profilo completo');
      await page.getByRole('region', { name: 'Informativa sui cookie' }).waitFor();
      const board = page.getByRole('region', { name: 'Bacheca' });
      await board
        .getByRole('link', { name: /^Dettaglio del bando / })
        .first()
        .waitFor();
      expect(await tabUntil(page, board.getByRole('link', { name: /^Dettaglio del bando / }).last())).toBeGreaterThan(
        0,
      );

      await page.goto(`${appUrl()}/sessione_servizi/visualizza_servizio?id=${encodeURIComponent(call.id)}`);
      const request = page.getByRole('button', { name: 'Richiedi Servizio' });
      await request.waitFor();
      await tabUntil(page, page.getByLabel('Scegli i documenti da allegare'));
      await tabUntil(page, request);
      // The service's long one-word name does not widen the page, and the bar's text is not under 'Torna su'.
      const serviceLine = await page.getByText(/^Servizio: /).boundingBox();
      expect(serviceLine!.x + serviceLine!.width, 'la riga del servizio esce dalla pagina').toBeLessThanOrEqual(width);
      await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
      const backToTop = page.getByRole('button', { name: 'Torna su' });
      await backToTop.waitFor();
      const barText = page
        .getByRole('region', { name: 'Informativa sui cookie' })
        .getByText(/^Questo portale utilizza solo cookie tecnici/);
      expect(
        overlap((await barText.boundingBox())!, (await backToTop.boundingBox())!),
        'il testo della barra dei cookie sotto «Torna su»',
      ).toBe(false);
      await screenshot(page, `cookie-bar-tab-call-${width}`);
    });
  }
});

describe('Flussi MyPay', () => {
  it('keeps ‘Rielabora’ and the other actions in view at 1280 px with a call and a service named by one long word', async () => {
    await exportMonth(operatorApi, call.id, OTHER);
    const page = await operatorPage();
    await page.goto(`${appUrl()}/flussi_mypay`);
    const table = page.getByRole('table', { name: 'Flussi inviati a MyPay' });
    const row = table.getByRole('row').filter({ hasText: LONG_WORD }).first();
    await row.waitFor();
    const region = page.getByRole('region', { name: 'Flussi inviati a MyPay' });
    await screenshot(page, 'flows-long-names-1280');
    expect(await region.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    const rework = row.getByText('Rielabora');
    const box = (await rework.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(
      (await region.boundingBox())!.x + (await region.boundingBox())!.width,
    );
  });
});

describe('tickets', () => {
  const WORD = `Precipitevolissimevolmente${RUN}`.repeat(3);

  it('wraps a long word inside ‘Dettagli’ and the support message, dates with the year in full, and links ‘Dati utente’ and ‘Ticket utente’', async () => {
    const citizenApi = await as('citizen');
    const sent = await citizenApi.post('/api/support', {
      emailUser: 'maria.rossi@example.it',
      subject: 'Altro',
      message: `Buongiorno, ${WORD} grazie.`,
    });
    expect(sent.status).toBe(201);
    const operator = await operatorPage(390, 844);
    await operator.goto(`${appUrl()}/lista_utenti/dati_utente/ticket/dettaglio?id=${encodeURIComponent(sent.json.id)}`);
    const details = operator.getByLabel('Dettagli');
    await details.waitFor();
    expect(await details.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    expect(await operator.locator('.ticket-summary').textContent()).toMatch(
      /Data apertura\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/,
    );
    const trail = operator.getByRole('navigation', { name: 'Percorso di navigazione' });
    const userId = sent.json.userId as string;
    await trail.getByRole('link', { name: 'Dati utente' }).waitFor();
    expect(await trail.getByRole('link', { name: 'Dati utente' }).getAttribute('href')).toBe(
      `/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`,
    );
    expect(await trail.getByRole('link', { name: 'Ticket utente' }).getAttribute('href')).toBe(
      `/lista_utenti/dati_utente/ticket?userId=${encodeURIComponent(userId)}`,
    );
    await screenshot(operator, 'ticket-long-word-390');
    await trail.getByRole('link', { name: 'Ticket utente' }).click();
    await operator.getByRole('heading', { level: 1, name: 'Ticket utente' }).waitFor();
    expect(await trail.getByRole('link', { name: 'Dati utente' }).getAttribute('href')).toBe(
      `/lista_utenti/dati_utente?citizen=${encodeURIComponent(userId)}`,
    );

    const citizen = await newPage(browser, 390);
    await signInAs(citizen, 'Maria Rossi — Cittadina con profilo completo');
    await citizen.goto(`${appUrl()}/supporto`);
    const message = citizen.getByLabel('Messaggio');
    await message.fill(`Buongiorno, ${WORD} grazie.`);
    expect(await message.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(citizen, 'support-long-word-390');
  });
});

describe('the user record', () => {
  it('names an ISEE a newer upload replaced ‘SOSTITUITO’, not INVALIDATED', async () => {
    const user = await operatorApi.post('/api/users', newUserBody({ firstName: 'Sostituita', lastName: `Isee${RUN}` }));
    for (const value of [9000, 12000]) {
      const isee = await operatorApi.post(`/api/users/${user.json.id}/isee`, {
        value,
        year: PERIOD.anno,
        date: new Date().toISOString(),
        protocollo: 'INPS-ISEE-2026-00000009Z-00',
        scadenza: `${PERIOD.anno}-12-31`,
        excludeVerification: true,
      });
      expect(isee.status).toBe(201);
    }
    const page = await operatorPage();
    await page.goto(`${appUrl()}/lista_utenti/dati_utente?citizen=${encodeURIComponent(user.json.id)}`);
    const table = page.getByRole('table').filter({ hasText: '9.000,00' }).first();
    await table.getByRole('row').filter({ hasText: '9.000,00' }).getByText('SOSTITUITO').waitFor();
    expect(await page.getByText('INVALIDATED').count()).toBe(0);
    await screenshot(page, 'user-record-isee-replaced');
  });
});

describe('the CSV import of the enrolled users', () => {
  it('says the size limit as the file’s, refuses a header without the template’s columns naming them, and shows names that differ from the registry', async () => {
    const page = await operatorPage();
    await page.goto(`${appUrl()}/lista_bandi/dettaglio_sessione?id=${encodeURIComponent(call.id)}`);
    await page.getByRole('button', { name: 'Importa CSV' }).click();
    const dialog = page.getByRole('dialog');
    const file = dialog.getByLabel('File CSV');
    const preview = dialog.getByRole('button', { name: 'Anteprima' });
    await file.setInputFiles({
      name: 'iscritti.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(3 * 1024 * 1024, 'a'),
    });
    await preview.click();
    await dialog
      .getByText('Il file è troppo grande: la dimensione massima è 2 MB (il file scelto è di 3 MB).')
      .waitFor();

    await file.setInputFiles({
      name: 'iscritti.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('codiceFiscale;nome;ore;isee\r\nRSSMRA85C52H501N;Maria;12;8000\r\n'),
    });
    await preview.click();
    await dialog
      .getByText(
        /Attese: codiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\. Trovate: codiceFiscale;nome;ore;isee\./,
      )
      .waitFor();

    const csv = `\uFEFFcodiceFiscale;cognome;nome;punteggio;oreSettimanali;valoreIsee;annoIsee\r\n${fullTimeFiscalCode};Tempo Pieno;Anna;;;;\r\n`;
    await file.setInputFiles({ name: 'iscritti.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await preview.click();
    const names = dialog.getByRole('table', { name: 'Nomi diversi dall’anagrafe' });
    await names.waitFor();
    expect(await names.getByRole('row').nth(1).textContent()).toContain(`Tempo Pieno Anna${FULL_TIME} Anna`);
    await screenshot(page, 'enrolment-import-different-names');
    await expectAccessible(page);
  });
});
