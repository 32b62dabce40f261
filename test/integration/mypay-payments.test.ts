import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isPaidRow, makeMyPay } from '../../functions/adapters/mypay.ts';
import { strToU8 } from 'fflate';
import { mypayImportZip } from '../../functions/adapters/mypay-zip.ts';
import { flowFileName } from '../../functions/domain/flows.ts';
import type { MyPay } from '../../functions/adapters/ports.ts';
import { planMonth, type PositionRecord } from '../../functions/domain/debt-positions.ts';
import { romeDay } from '../../functions/domain/period.ts';
import { mypayCsv, mypayCsvRow } from '../../functions/domain/mypay-csv.ts';
import { DEFAULT_ENTITY, startMyPaySimulator, type MyPaySimulator } from '../../lib/local/mypay-simulator.ts';
import { freePort } from '../support/ports.ts';
import { mypayConfiguration } from '../support/positions.ts';

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
  mypay = makeMyPay({ endpoint: simulator.endpoint, codIpaEnte: CODIPA, password: PASSWORD, timeoutMs: 2000, exportPollMs: 20 });
});
afterAll(async () => {
  await simulator.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => admin('reset', {}));

async function admin(action: string, body: object) {
  const response = await fetch(`${simulator.url}/admin/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** A month's position of one citizen as the portal plans it (domain planMonth), amount in cents. */
function position(fiscalCode: string, amountCents: number, period = { mese: 1, anno: 2025 }): PositionRecord {
  const plan = planMonth({
    call: { id: `call-${randomUUID()}`, name: 'Bando 2025', serviceName: 'Assistenza domiciliare' },
    period,
    existing: [],
    subscriptions: [{ userId: randomUUID(), fiscalCode, firstName: 'Maria', lastName: 'Rossi', iseeId: null, fee: { kind: 'DUE', band: { id: 'b', name: 'F', min: 0, max: 1, percent: null, fixedCost: 1 }, quotaCents: 100, amountCents } }],
    now: new Date().toISOString(),
  });
  return plan.create[0]!;
}

/** Imports positions as the export does (the portal's CSV and ZIP), and waits for MyPay's IUVs. */
async function imported(...positions: PositionRecord[]) {
  const csv = mypayCsv(positions.map((p) => mypayCsvRow(p, { fiscalCode: p.fiscalCode, firstName: p.nome, lastName: p.cognome }, { codCapitolo: '1234', codAccertamento: '2025/1', nomeMyPay: 'Bando' }, mypayConfiguration)));
  const fileName = flowFileName(CODIPA, `T${Date.now()}${Math.floor(Math.random() * 1000)}`);
  const { bytes: zip } = mypayImportZip(fileName, strToU8(csv));
  const authorization = await mypay.authorize();
  await mypay.upload(authorization, zip, fileName);
  for (let poll = 0; poll < 60; poll++) {
    const status = await mypay.importStatus(authorization.requestToken);
    if (status.stato === 'IMPORT_ESEGUITO') return;
    if (status.stato !== 'LOAD_IMPORT' && status.stato !== 'IMPORT_IN_ELAB') throw new Error(`import ${status.stato}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('import not done');
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
const payerOf = (fiscalCode: string) => ({ tipoIdentificativoUnivoco: 'F' as const, codiceIdentificativoUnivoco: fiscalCode });

/** One SOAP call written by hand: what MyPay puts on the wire, not what the adapter makes of it. */
async function rawSoap(operation: string, body: string, header = true) {
  const envelope =
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ppt="http://www.regione.veneto.it/pagamenti/ente/" xmlns:ppthead="http://www.regione.veneto.it/pagamenti/ente/ppthead">` +
    (header ? `<soapenv:Header><ppthead:intestazionePPT><codIpaEnte>${CODIPA}</codIpaEnte></ppthead:intestazionePPT></soapenv:Header>` : '') +
    `<soapenv:Body><ppt:${operation}>${body}</ppt:${operation}></soapenv:Body></soapenv:Envelope>`;
  const response = await fetch(simulator.endpoint, { method: 'POST', headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${operation}"` }, body: envelope });
  return response.text();
}
const element = (xml: string, name: string) => new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`).exec(xml)?.[1] ?? null;

describe('paying a position the council imported (ChiediPosizioniAperteService.java, LandingController.java)', () => {
  it('lists it with an urlPagamento on MyPay’s landing, pays MyPay’s own record, and comes back with its fixed session', async () => {
    const owed = position(MARIA, 7540);
    const someoneElse = position(GIUSEPPE, 1000);
    await imported(owed, someoneElse);

    const session = await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE);
    expect(session).not.toBeNull();
    const landing = new URL(session!.url);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${simulator.url}/public/landing/precaricato`);
    expect(Object.fromEntries(landing.searchParams)).toEqual({ id: session!.idSession, backUrl: PORTAL_PAGE });
    expect(session!.amountCents).toBe(7540);
    // Another person's position is not theirs to pay; asking again gives the same session (fixed per position).
    expect(await mypay.openPositionCheckout(payerOf(MARIA), someoneElse.iud, PORTAL_PAGE)).toBeNull();
    expect((await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE))!.idSession).toBe(session!.idSession);

    const back = await payOnCheckout(session!.url, 'success');
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/iscrizioni/visualizza_servizio');
    expect(back.searchParams.get('id')).toBe('call-1');
    expect(back.searchParams.get('idSession')).toBe(session!.idSession);
    expect(back.searchParams.get('esito')).toBe('OK');
    expect(back.searchParams.get('pollingToken')).toBeTruthy();

    const outcome = await mypay.paymentOutcome(session!.idSession);
    expect(outcome).toEqual({ status: 'PAID', payments: [{ iud: owed.iud, iuv: expect.stringMatching(/^\d{17}$/), amountCents: 7540, paidOn: romeDay(new Date()), iur: expect.stringMatching(/^IUR/) }] });
    // Paid: MyPay no longer lists it as open.
    expect(await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE)).toBeNull();
  });

  it('keeps the position’s own due date when it is paid late (MyPay’s record, not a new cart dated today)', async () => {
    const january = position(MARIA, 2500, { mese: 1, anno: 2025 });
    await imported(january);
    const session = await mypay.openPositionCheckout(payerOf(MARIA), january.iud, PORTAL_PAGE);
    await payOnCheckout(session!.url, 'success');
    const stored = (await simulatorState()).positions[`${CODIPA}|${january.iud}`];
    expect(stored).toMatchObject({ status: 'PAGATO', dueDate: '2025-01-31', amountCents: 2500 });
    expect(Object.values((await simulatorState()).positions).filter((p) => (p as { fiscalCode: string }).fiscalCode === MARIA && (p as { dueDate: string }).dueDate === romeDay(new Date()))).toEqual([]);
  });

  it('checks the password of MyPay’s default entity (pa.codIpaEntePredefinito), and refuses a malformed person', async () => {
    const wrong = makeMyPay({ endpoint: simulator.endpoint, codIpaEnte: CODIPA, password: PASSWORD, openPositionsPassword: 'Sbagliata1!', timeoutMs: 2000 });
    await expect(wrong.openPositionCheckout(payerOf(MARIA), 'X', PORTAL_PAGE)).rejects.toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_ENTE_NON_VALIDO' });
    await expect(mypay.openPositionCheckout(payerOf('NONVALIDO'), 'X', PORTAL_PAGE)).rejects.toMatchObject({ faultCode: 'PAA_IDENTIFICATIVO_UNIVOCO_PERSONA_NON_VALIDO' });
  });

  it('lets a new attempt follow a refused one on the same session; the landing refuses a paid position (“dovuto non trovato”)', async () => {
    const owed = position(MARIA, 1234);
    await imported(owed);
    const session = (await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE))!;
    const refused = await payOnCheckout(session.url, 'failure');
    expect(refused.searchParams.get('esito')).toBe('ERROR');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'FAILED', payments: [] });
    const cancelled = await payOnCheckout(session.url, 'cancel');
    expect(cancelled.searchParams.get('esito')).toBe('ERROR');
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'CANCELLED', payments: [] });
    await payOnCheckout(session.url, 'success');
    expect((await mypay.paymentOutcome(session.idSession)).status).toBe('PAID');
    expect((await fetch(session.url, { redirect: 'manual' })).status).toBe(400);
  });
});

describe('paaSILChiediPagati (PagamentiTelematiciDovutiPagatiImpl.java)', () => {
  it('sends `pagati` Base64-encoded twice (Base64.encodeBase64, then the base64Binary element); the adapter reads it', async () => {
    const owed = position(MARIA, 6643);
    await imported(owed);
    const session = (await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE))!;
    await payOnCheckout(session.url, 'success');
    const answer = await rawSoap('paaSILChiediPagati', `<codIpaEnte>${CODIPA}</codIpaEnte><password>${PASSWORD}</password><idSession>${session.idSession}</idSession>`, false);
    const onTheWire = element(answer, 'pagati')!;
    const once = Buffer.from(onTheWire, 'base64').toString('utf8');
    expect(once).not.toContain('<');
    const twice = Buffer.from(once, 'base64').toString('utf8');
    expect(twice).toContain('<Pagati');
    expect(element(twice, 'identificativoUnivocoDovuto')).toBe(owed.iud);
    expect(element(twice, 'esitoSingoloPagamento')).toBe('0');
    expect((await mypay.paymentOutcome(session.idSession)).payments).toMatchObject([{ iud: owed.iud, amountCents: 6643 }]);
  });

  it('reads PAA_PAGAMENTO_SCADUTO as an expired session (not a permanent fault), and a session never opened as pending', async () => {
    const owed = position(MARIA, 800);
    await imported(owed);
    const session = (await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE))!;
    await fetch(session.url, { redirect: 'manual' });
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'PENDING', payments: [] });
    expect((await admin('expire', { idSession: session.idSession })).status).toBe(200);
    expect(await mypay.paymentOutcome(session.idSession)).toEqual({ status: 'EXPIRED', payments: [] });
    await expect(mypay.paymentOutcome('sessione-sconosciuta')).rejects.toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_ID_SESSION_NON_VALIDO' });
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
  const send = (encoded: string) => rawSoap('paaSILInviaDovuti', `<password>${PASSWORD}</password><dovuti>${encoded}</dovuti><enteSILInviaRispostaPagamentoUrl>${PORTAL_PAGE}</enteSILInviaRispostaPagamentoUrl>`);

  it('refuses an IUV inside datiSingoloVersamento (not in ctDatiSingoloVersamentoDovuti): PAA_XML_NON_VALIDO', async () => {
    const answer = await send(dovuti(item(`N-${randomUUID().slice(0, 12)}`, '<identificativoUnivocoVersamento>01000000000012345</identificativoUnivocoVersamento>')));
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
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2031-01-14T23:30:00Z') });
    try {
      const session = await mypay.openPositionCheckout(payerOf(MARIA), owed.iud, PORTAL_PAGE);
      await payOnCheckout(session!.url, 'success');
    } finally {
      vi.useRealTimers();
    }
    const paid = await mypay.reportPaid('2031-01-15', '2031-01-15');
    expect(paid.map((r) => [r.iud, r.paidOn])).toEqual([[owed.iud, '2031-01-15']]);
  });

  it('reads a row as paid unless its amount is zero, its code is 1 or its text says it was not (EsitoService.java: NON PAGATO)', () => {
    expect(isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: '0', singoloImportoPagato: '10.00' })).toBe(true);
    expect(isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: 'PAGATO CON RENDICONTAZIONE 9', singoloImportoPagato: '10.00' })).toBe(true);
    expect(isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: 'ESEGUITO', singoloImportoPagato: '10.00' })).toBe(true);
    expect(isPaidRow({ codiceEsitoPagamento: '1', esitoSingoloPagamento: 'NON PAGATO', singoloImportoPagato: '0.00' })).toBe(false);
    expect(isPaidRow({ codiceEsitoPagamento: '0', esitoSingoloPagamento: 'NON ESEGUITO', singoloImportoPagato: '10.00' })).toBe(false);
    expect(isPaidRow({ codiceEsitoPagamento: '1', esitoSingoloPagamento: '', singoloImportoPagato: '10.00' })).toBe(false);
  });
});
