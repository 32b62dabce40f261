import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isPaidRow } from '../../functions/adapters/mypay.ts';
import { strToU8 } from 'fflate';
import { mypayImportZip } from '../../functions/adapters/mypay-zip.ts';
import { flowFileName } from '../../functions/domain/flows.ts';
import type { MyPay } from '../../functions/adapters/ports/mypay.ts';
import { planMonth, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import { romeDay } from '../../functions/domain/period.ts';
import { mypayCsv, mypayCsvRow } from '../../functions/domain/mypay-csv.ts';
import { DEFAULT_ENTITY, startMyPaySimulator, type MyPaySimulator } from '../../lib/local/mypay-simulator.ts';
import { freePort } from '../support/ports.ts';
import { mypayConfiguration } from '../support/positions.ts';
import { mypayAdmin, mypayClientOn } from '../support/mypay-simulator.ts';

/**
 * Contract tests of the payment side of MyPay (issue 26): the adapter (functions/adapters/mypay-soap.ts,
 * mypay.ts) against the simulator (lib/local/mypay-simulator.ts), both after MyPay4's own code
 * (RegioneDelVeneto/mypay, mypay.sources/mypay4-be/): each test names the file it follows.
 */
const CODIPA = DEFAULT_ENTITY.codIpa;
const PASSWORD = DEFAULT_ENTITY.password;
const MARIA = 'RSSMRA85C52H501N';
const GIUSEPPE = 'VRDGPP90P07F839R';
const PORTAL_PAGE = 'http://localhost:3000/iscrizioni/visualizza_servizio?id=call-1';

let dataDir: string;
let simulator: MyPaySimulator;
let mypay: MyPay;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mypay-pay-'));
  simulator = await startMyPaySimulator({ port: await freePort(), dataDir, holdMs: 3000 });
  mypay = mypayClientOn(simulator);
});
afterAll(async () => {
  await simulator.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => admin('reset', {}));

const admin = (action: string, body: object) => mypayAdmin(simulator.url, action, body);

/** A month's position of one citizen as the portal plans it (domain planMonth), amount in cents. */
function position(fiscalCode: string, amountCents: number, period = { mese: 1, anno: 2025 }): PositionRecord {
  const plan = planMonth({
    call: { id: `call-${randomUUID()}`, name: 'Bando 2025', serviceName: 'Assistenza domiciliare' },
    period,
    existing: [],
    subscriptions: [
      {
        userId: randomUUID(),
        fiscalCode,
        firstName: 'Maria',
        lastName: 'Rossi',
        iseeId: null,
        fee: {
          kind: 'DUE',
          band: { id: 'b', name: 'F', min: 0, max: 1, percent: null, fixedCost: 1 },
          quotaCents: 100,
          amountCents,
        },
      },
    ],
    now: new Date().toISOString(),
  });
  return plan.create[0]!;
}

type Entry = PositionRecord | [PositionRecord, { cap?: string; nation?: string }];
/** Imports positions as the export does (the portal's CSV and ZIP), and waits for MyPay's IUVs. */
const imported = (...entries: Entry[]) => importedTo({ mypay, url: simulator.url }, ...entries);
async function importedTo(target: { mypay: MyPay; url: string }, ...entries: Entry[]) {
  const rows = entries.map((entry) => (Array.isArray(entry) ? entry : ([entry, {}] as const)));
  const csv = mypayCsv(
    rows.map(([p, address]) =>
      mypayCsvRow(
        p,
        { fiscalCode: p.fiscalCode, firstName: p.nome, lastName: p.cognome, ...address },
        { codCapitolo: '1234', codAccertamento: '2025/1', nomeMyPay: 'Bando' },
        mypayConfiguration,
      ),
    ),
  );
  const fileName = flowFileName(CODIPA, `T${Date.now()}${Math.floor(Math.random() * 1000)}`);
  const { bytes: zip } = mypayImportZip(fileName, strToU8(csv));
  const authorization = await target.mypay.authorize();
  await target.mypay.upload(authorization, zip, fileName);
  for (let poll = 0; poll < 60; poll++) {
    const status = await target.mypay.importStatus(authorization.requestToken);
    if (status.stato === 'IMPORT_ESEGUITO') return;
    if (status.stato !== 'LOAD_IMPORT' && status.stato !== 'IMPORT_IN_ELAB') throw new Error(`import ${status.stato}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('import not done');
}

/** The IUV MyPay gave an imported position. */
async function iuvOf(p: PositionRecord, url = simulator.url): Promise<string> {
  const state = await (await fetch(`${url}/admin/state`)).json();
  return state.positions[`${CODIPA}|${p.iud}`].iuv;
}

/** A browser on the landing and the checkout page: follows the redirect, presses one button, comes back. */
async function payOnCheckout(landingUrl: string, esito: 'success' | 'failure' | 'cancel') {
  const landing = await fetch(landingUrl, { redirect: 'manual' });
  expect(landing.status).toBe(302);
  const checkout = landing.headers.get('location')!;
  expect((await fetch(checkout)).status).toBe(200);
  const back = await fetch(checkout, { method: 'POST', body: new URLSearchParams({ esito }), redirect: 'manual' });
  expect(back.status).toBe(303);
  return new URL(back.headers.get('location')!);
}

const simulatorState = async () => (await fetch(`${simulator.url}/admin/state`)).json();

/** One SOAP call written by hand: what MyPay puts on the wire, not what the adapter makes of it. */
async function rawSoap(operation: string, body: string, header = true) {
  const envelope =
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ppt="http://www.regione.veneto.it/pagamenti/ente/" xmlns:ppthead="http://www.regione.veneto.it/pagamenti/ente/ppthead">` +
    (header
      ? `<soapenv:Header><ppthead:intestazionePPT><codIpaEnte>${CODIPA}</codIpaEnte></ppthead:intestazionePPT></soapenv:Header>`
      : '') +
    `<soapenv:Body><ppt:${operation}>${body}</ppt:${operation}></soapenv:Body></soapenv:Envelope>`;
  const response = await fetch(simulator.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${operation}"` },
    body: envelope,
  });
  return response.text();
}
const element = (xml: string, name: string) =>
  new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(xml)?.[1] ?? null;

describe('paying a position the council imported (paaSILVerificaAvviso, PagamentiTelematiciDovutiPagatiImpl.java; LandingController.java)', () => {
  it('asks with the council’s own codIpaEnte and password and the IUV, gets a new session per attempt and MyPay’s landing, pays MyPay’s own record and comes back', async () => {
    const owed = position(MARIA, 7540);
    await imported(owed);
    const iuv = await iuvOf(owed);

    const session = await mypay.openPositionCheckout(iuv, PORTAL_PAGE);
    expect(session).not.toBeNull();
    const landing = new URL(session!.url);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${simulator.url}/public/landing/inviaDovuti`);
    // A fresh session id for every attempt, with its time in it as MyPay4 makes them (Utilities.getRandomUUIDWithTimestamp).
    const again = (await mypay.openPositionCheckout(iuv, PORTAL_PAGE))!;
    expect(again.idSession).not.toBe(session!.idSession);
    expect(session!.idSession).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]+$/);

    const back = await payOnCheckout(session!.url, 'success');
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/iscrizioni/visualizza_servizio');
    expect(back.searchParams.get('id')).toBe('call-1');
    expect(back.searchParams.get('idSession')).toBe(session!.idSession);
    expect(back.searchParams.get('esito')).toBe('OK');
    expect(back.searchParams.get('pollingToken')).toBeTruthy();

    const outcome = await mypay.paymentOutcome(session!.idSession);
    expect(outcome).toEqual({
      status: 'PAID',
      payments: [
        { iud: owed.iud, iuv, amountCents: 7540, paidOn: romeDay(new Date()), iur: expect.stringMatching(/^IUR/) },
      ],
    });
    // Paid: nothing payable is left for the IUV (PAA_IUV_NON_VALIDO), and the older landing of this IUV refuses it too.
    expect(await mypay.openPositionCheckout(iuv, PORTAL_PAGE)).toBeNull();
    expect((await fetch(again.url, { redirect: 'manual' })).status).toBe(400);
  });

  it('refuses another entity’s password (PAA_ENTE_NON_VALIDO) and an IUV the council does not hold; never needs the Region’s password', async () => {
    const owed = position(MARIA, 1000);
    await imported(owed);
    const wrong = mypayClientOn(simulator, { password: 'Sbagliata1!' });
    await expect(wrong.openPositionCheckout(await iuvOf(owed), PORTAL_PAGE)).rejects.toMatchObject({
      name: 'MyPayFault',
      faultCode: 'PAA_ENTE_NON_VALIDO',
    });
    expect(await mypay.openPositionCheckout('01999999999999999', PORTAL_PAGE)).toBeNull();
    const answer = await rawSoap(
      'paaSILVerificaAvviso',
      `<password>${PASSWORD}</password><identificativoUnivocoVersamento>${await iuvOf(owed)}</identificativoUnivocoVersamento><enteSILInviaRispostaPagamentoUrl>${PORTAL_PAGE}</enteSILInviaRispostaPagamentoUrl>`,
    );
    expect([element(answer, 'esito'), element(answer, 'redirect')]).toEqual(['OK', '1']);
  });

  it('keeps the position’s own due date when it is paid late (MyPay’s record, not a new cart dated today)', async () => {
    const january = position(MARIA, 2500, { mese: 1, anno: 2025 });
    await imported(january);
    const session = await mypay.openPositionCheckout(await iuvOf(january), PORTAL_PAGE);
    await payOnCheckout(session!.url, 'success');
    const stored = (await simulatorState()).positions[`${CODIPA}|${january.iud}`];
    expect(stored).toMatchObject({ status: 'PAGATO', dueDate: '2025-01-31', amountCents: 2500 });
  });

  it('the landing validates the payer again as MyPay4 does: an Italian CAP not of 5 digits shows MyPay’s error page, not the checkout', async () => {
    const owed = position(MARIA, 1500);
    await imported([owed, { cap: '0018', nation: 'IT' }]);
    const session = (await mypay.openPositionCheckout(await iuvOf(owed), PORTAL_PAGE))!;
    const landing = await fetch(session.url, { redirect: 'manual' });
    expect(landing.status).toBe(400);
    expect(await landing.text()).toContain('Il cap intestatario non è valido.');
    const foreign = position(MARIA, 1500);
    await imported([foreign, { cap: 'SW1A1AA', nation: 'GB' }]);
    expect(
      (await fetch((await mypay.openPositionCheckout(await iuvOf(foreign), PORTAL_PAGE))!.url, { redirect: 'manual' }))
        .status,
    ).toBe(302);
  });
});

describe('what paaSILChiediPagati says in each of MyPay’s modes (PagamentiTelematiciDovutiPagatiImpl.java, PagamentiTelematiciCCPPaImpl.java, PaymentManagerService.java)', () => {
  it('modello unico: before pagoPA’s receipt, NON_INIZIATO, then ID_SESSION_NON_VALIDO after the hour, SCADUTO after 65 minutes — all "not known yet", even for a citizen who paid', async () => {
    const owed = position(MARIA, 800);
    await imported(owed);
    await admin('receipts', { hold: true });
    const session = (await mypay.openPositionCheckout(await iuvOf(owed), PORTAL_PAGE))!;
    const back = await payOnCheckout(session.url, 'success');
    expect(back.searchParams.get('esito')).toBe('OK');
    const fault = async () =>
      element(
        await rawSoap(
          'paaSILChiediPagati',
          `<codIpaEnte>${CODIPA}</codIpaEnte><password>${PASSWORD}</password><idSession>${session.idSession}</idSession>`,
          false,
        ),
        'faultCode',
      );
    expect(await fault()).toBe('PAA_PAGAMENTO_NON_INIZIATO');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'UNKNOWN', payments: [] });
    await admin('age', { idSession: session.idSession, minutes: 61 });
    expect(await fault()).toBe('PAA_ID_SESSION_NON_VALIDO');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'UNKNOWN', payments: [] });
    await admin('age', { idSession: session.idSession, minutes: 5 });
    expect(await fault()).toBe('PAA_PAGAMENTO_SCADUTO');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'UNKNOWN', payments: [] });
    // The receipt arrives: the session's cart exists and says what was paid.
    await admin('receipts', { hold: false });
    expect(await mypay.paymentOutcome(session.idSession)).toMatchObject({
      status: 'PAID',
      payments: [{ iud: owed.iud, amountCents: 800 }],
    });
  });

  it('modello unico: a refused or cancelled checkout leaves no cart either (not known until the reporting)', async () => {
    const owed = position(MARIA, 900);
    await imported(owed);
    const session = (await mypay.openPositionCheckout(await iuvOf(owed), PORTAL_PAGE))!;
    expect((await payOnCheckout(session.url, 'cancel')).searchParams.get('esito')).toBe('ERROR');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'UNKNOWN', payments: [] });
  });

  it('sends `pagati` Base64-encoded twice (Base64.encodeBase64, then the base64Binary element); the adapter reads it', async () => {
    const owed = position(MARIA, 6643);
    await imported(owed);
    const session = (await mypay.openPositionCheckout(await iuvOf(owed), PORTAL_PAGE))!;
    await payOnCheckout(session.url, 'success');
    const answer = await rawSoap(
      'paaSILChiediPagati',
      `<codIpaEnte>${CODIPA}</codIpaEnte><password>${PASSWORD}</password><idSession>${session.idSession}</idSession>`,
      false,
    );
    const onTheWire = element(answer, 'pagati')!;
    const once = Buffer.from(onTheWire, 'base64').toString('utf8');
    expect(once).not.toContain('<');
    const twice = Buffer.from(once, 'base64').toString('utf8');
    expect(twice).toContain('<Pagati');
    expect(element(twice, 'identificativoUnivocoDovuto')).toBe(owed.iud);
    expect(element(twice, 'esitoSingoloPagamento')).toBe('0');
    expect((await mypay.paymentOutcome(session.idSession)).payments).toMatchObject([
      { iud: owed.iud, amountCents: 6643 },
    ]);
  });

  describe('WISP (pa.modelloUnico=false)', () => {
    let wisp: MyPaySimulator;
    let wispDir: string;
    let wispPay: MyPay;
    const SCADENZA_OBBLIGATORIA = { ...DEFAULT_ENTITY, scadenzaObbligatoria: Object.keys(DEFAULT_ENTITY.tipiDovuto) };
    beforeAll(async () => {
      wispDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mypay-wisp-'));
      wisp = await startMyPaySimulator({
        port: await freePort(),
        dataDir: wispDir,
        modelloUnico: false,
        entities: [SCADENZA_OBBLIGATORIA],
      });
      wispPay = mypayClientOn(wisp, { modelloUnico: false });
    });
    afterAll(async () => {
      await wisp.close();
      await fs.rm(wispDir, { recursive: true, force: true });
    });

    it('the cart exists from the start of the payment: in progress, then refused or cancelled; a session never used for over an hour has expired', async () => {
      const owed = position(MARIA, 1234, { mese: 12, anno: 2099 });
      await importedTo({ mypay: wispPay, url: wisp.url }, owed);
      const iuv = await iuvOf(owed, wisp.url);
      const session = (await wispPay.openPositionCheckout(iuv, PORTAL_PAGE))!;
      expect(await wispPay.paymentOutcome(session.idSession)).toEqual({ status: 'PENDING', payments: [] });
      await payOnCheckout(session.url, 'cancel');
      expect(await wispPay.paymentOutcome(session.idSession)).toEqual({ status: 'CANCELLED', payments: [] });
      const unused = (await wispPay.openPositionCheckout(iuv, PORTAL_PAGE))!;
      await fetch(`${wisp.url}/admin/age`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idSession: unused.idSession, minutes: 66 }),
      });
      expect(await wispPay.paymentOutcome(unused.idSession)).toEqual({ status: 'EXPIRED', payments: [] });
      expect((await fetch(unused.url, { redirect: 'manual' })).status).toBe(400); // 'Id not valid': the basket is gone
    });

    it('refuses a position past its due date where the payment type requires one: PAA_IUV_SCADUTO', async () => {
      // Imported while its due date was ahead (MyPay4 refuses a past one at import), then the day went by.
      const past = position(MARIA, 500, { mese: 1, anno: 2025 });
      await importedTo({ mypay: wispPay, url: wisp.url }, { ...past, dataScadenza: '2099-12-31' });
      const moved = await fetch(`${wisp.url}/admin/due`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ iud: past.iud, dueDate: '2025-01-31' }),
      });
      expect(moved.status).toBe(200);
      await expect(wispPay.openPositionCheckout(await iuvOf(past, wisp.url), PORTAL_PAGE)).rejects.toMatchObject({
        name: 'MyPayFault',
        faultCode: 'PAA_IUV_SCADUTO',
      });
    });
  });
});

describe('paaSILInviaDovuti (PagInf_Dovuti_Pagati_6_2_0.xsd, PagamentiTelematiciDovutiPagatiImpl.java)', () => {
  const dovuti = (item: string) =>
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><Dovuti xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/"><versioneOggetto>6.2</versioneOggetto>` +
        `<soggettoPagatore><identificativoUnivocoPagatore><tipoIdentificativoUnivoco>F</tipoIdentificativoUnivoco><codiceIdentificativoUnivoco>${MARIA}</codiceIdentificativoUnivoco></identificativoUnivocoPagatore><anagraficaPagatore>Rossi Maria</anagraficaPagatore></soggettoPagatore>` +
        `<datiVersamento><tipoVersamento>ALL</tipoVersamento><datiSingoloVersamento>${item}</datiSingoloVersamento></datiVersamento></Dovuti>`,
    ).toString('base64');
  const item = (iud: string, extra = '') =>
    `<identificativoUnivocoDovuto>${iud}</identificativoUnivocoDovuto>${extra}<importoSingoloVersamento>12.34</importoSingoloVersamento><identificativoTipoDovuto>SERVIZI_SOCIALI</identificativoTipoDovuto><causaleVersamento>Quota</causaleVersamento><datiSpecificiRiscossione>9/0101100IM</datiSpecificiRiscossione>`;
  const send = (encoded: string) =>
    rawSoap(
      'paaSILInviaDovuti',
      `<password>${PASSWORD}</password><dovuti>${encoded}</dovuti><enteSILInviaRispostaPagamentoUrl>${PORTAL_PAGE}</enteSILInviaRispostaPagamentoUrl>`,
    );

  it('refuses an IUV inside datiSingoloVersamento (not in ctDatiSingoloVersamentoDovuti): PAA_XML_NON_VALIDO', async () => {
    const answer = await send(
      dovuti(
        item(
          `N-${randomUUID().slice(0, 12)}`,
          '<identificativoUnivocoVersamento>01000000000012345</identificativoUnivocoVersamento>',
        ),
      ),
    );
    expect(element(answer, 'faultCode')).toBe('PAA_XML_NON_VALIDO');
    expect(element(answer, 'idSession')).toBeNull();
  });

  it('refuses an IUD MyPay already holds from an import: PAA_IUD_DUPLICATO; accepts a new one', async () => {
    const owed = position(MARIA, 1234);
    await imported(owed);
    expect(element(await send(dovuti(item(owed.iud))), 'faultCode')).toBe('PAA_IUD_DUPLICATO');
    const fresh = await send(dovuti(item(`N-${randomUUID().slice(0, 12)}`)));
    expect(element(fresh, 'faultCode')).toBeNull();
    expect(element(fresh, 'idSession')).toBeTruthy();
  });
});

describe('the reporting (SendRtOutcomeService.java, Constants.java, ExportDovutiService.java)', () => {
  it('keeps every paid row as MyPay writes esitoSingoloPagamento: 0, PAGATO CON RENDICONTAZIONE 9, a receipt’s text; and a second payment', async () => {
    const rows = [position(MARIA, 1000), position(MARIA, 2000), position(GIUSEPPE, 3000)];
    await imported(...rows);
    await admin('paid', { iuds: [rows[0]!.iud], paidOn: '2025-03-10', esito: '0' });
    await admin('paid', { iuds: [rows[1]!.iud], paidOn: '2025-03-11', esito: 'PAGATO CON RENDICONTAZIONE 9' });
    await admin('paid', { iuds: [rows[2]!.iud], paidOn: '2025-03-12', esito: 'Pagamento eseguito' });
    await admin('paid', { iuds: [rows[0]!.iud], paidOn: '2025-03-13', again: true });
    const paid = await mypay.reportPaid('2025-03-01', '2025-03-31');
    expect(paid.map((r) => [r.iud, r.amountCents, r.paidOn]).sort()).toEqual(
      [
        [rows[0]!.iud, 1000, '2025-03-10'],
        [rows[0]!.iud, 1000, '2025-03-13'],
        [rows[1]!.iud, 2000, '2025-03-11'],
        [rows[2]!.iud, 3000, '2025-03-12'],
      ].sort(),
    );
    expect(new Set(paid.map((r) => r.iur)).size).toBe(4);
  });

  it('dates a payment on Rome’s day: paid at 00:30 in Rome (23:30 UTC the day before), it is in that Rome day’s export', async () => {
    const owed = position(MARIA, 1234);
    await imported(owed);
    const iuv = await iuvOf(owed);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-01-14T23:30:00Z') });
    try {
      const session = await mypay.openPositionCheckout(iuv, PORTAL_PAGE);
      await payOnCheckout(session!.url, 'success');
    } finally {
      vi.useRealTimers();
    }
    const paid = await mypay.reportPaid('2031-01-15', '2031-01-15');
    expect(paid.map((r) => [r.iud, r.paidOn])).toEqual([[owed.iud, '2031-01-15']]);
  });

  it('reads a row as paid unless its amount is zero, its code is 1 or its text says it was not (EsitoService.java: NON PAGATO)', () => {
    expect(isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: '0', singoloImportoPagato: '10.00' })).toBe(
      true,
    );
    expect(
      isPaidRow({
        codiceEsitoPagamento: '0',
        esitoSingoloPagamento: 'PAGATO CON RENDICONTAZIONE 9',
        singoloImportoPagato: '10.00',
      }),
    ).toBe(true);
    expect(
      isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: 'ESEGUITO', singoloImportoPagato: '10.00' }),
    ).toBe(true);
    expect(
      isPaidRow({ codiceEsitoPagamento: '1', esitoSingoloPagamento: 'NON PAGATO', singoloImportoPagato: '0.00' }),
    ).toBe(false);
    expect(
      isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: 'NON ESEGUITO', singoloImportoPagato: '10.00' }),
    ).toBe(false);
    expect(isPaidRow({ codiceEsitoPagamento: '1', esitoSingoloPagamento: '', singoloImportoPagato: '10.00' })).toBe(
      false,
    );
  });
});
