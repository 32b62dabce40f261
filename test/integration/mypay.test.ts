import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import Papa from 'papaparse';
import * as soap from 'soap';
import { PDFDocument } from 'pdf-lib';
import { getDocument } from '../../functions/isee-extraction/pdfjs.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { FAULT_TOKEN_ALREADY_USED, MyPayFault, MyPayUnavailable, makeMyPay } from '../../functions/adapters/mypay.ts';
import type { MyPay, MyPayImportStatus } from '../../functions/adapters/ports.ts';
import { isValidIuv } from '../../functions/domain/iuv.ts';
import { DEFAULT_ENTITY, startMyPaySimulator, type MyPaySimulator } from '../../lib/local/mypay-simulator.ts';
import { freePort } from '../support/ports.ts';

/**
 * The MyPay adapter (functions/adapters/mypay.ts) against the simulator (lib/local/mypay-simulator.ts),
 * over real HTTP: SOAP envelopes checked by the `soap` server against the WSDL, MyBox multipart upload,
 * result ZIPs, checkout redirects and the reporting export.
 */
const CODIPA = DEFAULT_ENTITY.codIpa;
const PASSWORD = DEFAULT_ENTITY.password;
const CITIZENS = ['RSSMRA85C52H501N', 'VRDGPP90P07F839R', 'BNCLRA79H61F205F', 'SPSPLA68S02L219G'];

let dataDir: string;
let simulator: MyPaySimulator;
let port: number;
let mypay: MyPay;

const start = async () => {
  simulator = await startMyPaySimulator({ port, dataDir, holdMs: 3000 });
  mypay = makeMyPay({ endpoint: simulator.endpoint, codIpaEnte: CODIPA, password: PASSWORD, timeoutMs: 1000, exportPollMs: 20 });
};

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mypay-sim-'));
  port = await freePort();
  await start();
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

// ——— a small CSV builder of the test's own (the portal's builder belongs to the positions work) ———
const COLUMNS = [
  'IUD', 'codIuv', 'tipoIdentificativoUnivoco', 'codiceIdentificativoUnivoco', 'anagraficaPagatore', 'indirizzoPagatore',
  'civicoPagatore', 'capPagatore', 'localitaPagatore', 'provinciaPagatore', 'nazionePagatore', 'mailPagatore',
  'dataEsecuzionePagamento', 'importoDovuto', 'commissioneCaricoPa', 'tipoDovuto', 'tipoVersamento', 'causaleVersamento',
  'datiSpecificiRiscossione', 'bilancio', 'flagGeneraIuv', 'azione',
];
type Row = Record<string, string>;
const row = (over: Row = {}): Row => ({
  IUD: `T-${randomUUID().slice(0, 18)}`,
  codIuv: '',
  tipoIdentificativoUnivoco: 'F',
  codiceIdentificativoUnivoco: CITIZENS[0],
  anagraficaPagatore: 'Maria Rossi',
  indirizzoPagatore: 'Via Roma',
  civicoPagatore: '1',
  capPagatore: '00100',
  localitaPagatore: 'Roma',
  provinciaPagatore: 'RM',
  nazionePagatore: 'IT',
  mailPagatore: 'maria.rossi@example.org',
  dataEsecuzionePagamento: '2026-12-31',
  importoDovuto: '66.43',
  commissioneCaricoPa: '',
  tipoDovuto: 'SERVIZI_SOCIALI',
  tipoVersamento: 'ALL',
  causaleVersamento: 'Assistenza domiciliare - marzo 2026; quota mensile',
  datiSpecificiRiscossione: '9/0101100IM',
  bilancio: '<bilancio><capitolo><codCapitolo>1234</codCapitolo><accertamento><codAccertamento>2026/1</codAccertamento><importo>66.43</importo></accertamento></capitolo></bilancio>',
  flagGeneraIuv: 'true',
  azione: 'I',
  ...over,
});
const csvOf = (rows: Row[]) => Papa.unparse([COLUMNS, ...rows.map((r) => COLUMNS.map((c) => r[c]))], { delimiter: ';', newline: '\r\n' });
const zipOf = (rows: Row[], { codIpa = CODIPA, version = '1_3' } = {}) => {
  const fileName = `${codIpa}-IUF${Date.now()}${Math.floor(Math.random() * 1000)}-${version}.zip`;
  return { fileName, zip: zipSync({ [fileName.replace('.zip', '.csv')]: strToU8(csvOf(rows)) }) };
};
const readCsvZip = (bytes: Uint8Array) => {
  const [[, content]] = Object.entries(unzipSync(bytes));
  return Papa.parse<Row>(strFromU8(content).replace(/^\uFEFF/, ''), { header: true, delimiter: ';', skipEmptyLines: true }).data;
};

/** authorise → upload → poll until the import leaves LOAD_IMPORT / IMPORT_IN_ELAB (or `maxPolls`). */
async function runImport(rows: Row[], options: { version?: string; maxPolls?: number } = {}) {
  const { zip, fileName } = zipOf(rows, { version: options.version });
  const authorization = await mypay.authorize();
  await mypay.upload(authorization, zip, fileName);
  const states: string[] = [];
  let status: MyPayImportStatus | undefined;
  for (let poll = 0; poll < (options.maxPolls ?? 40); poll++) {
    status = await mypay.importStatus(authorization.requestToken);
    states.push(status.stato);
    if (status.stato !== 'LOAD_IMPORT' && status.stato !== 'IMPORT_IN_ELAB') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { authorization, status: status!, states, fileName };
}

/** The text of a PDF's first page, as a reader (pdfjs) sees it. */
async function pdfText(bytes: Uint8Array) {
  const standardFontDataUrl = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts/');
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;
  const page = await document.getPage(1);
  const items = (await page.getTextContent()).items as { str: string }[];
  await document.destroy();
  return items.map((item) => item.str.replace(/\u00a0/g, ' ')).join('\n');
}

const rejection = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (error: Error) => error);

describe('bulk import through the adapter', () => {
  it('imports 3 good rows and rejects 1: 3 IUVs with valid mod-93 check digits, 1 SCARTI row with code and reason, 3 notice PDFs', async () => {
    const good = [row(), row({ codiceIdentificativoUnivoco: CITIZENS[1], anagraficaPagatore: 'Giuseppe Verdi', importoDovuto: '10.5' }), row({ codiceIdentificativoUnivoco: CITIZENS[2], importoDovuto: '120.00' })];
    const bad = row({ codiceIdentificativoUnivoco: 'RSSMRA85C52H501X' }); // wrong check character
    const { status, states, fileName } = await runImport([good[0], bad, good[1], good[2]]);

    expect(states).toEqual(['LOAD_IMPORT', 'IMPORT_IN_ELAB', ...states.slice(2, -1).map(() => 'IMPORT_IN_ELAB'), 'IMPORT_ESEGUITO']);
    expect(status.urlFileIUV).toContain(`${fileName.replace('.zip', '')}_IUV.zip`);
    expect(status.urlFileScarti).toContain('_SCARTI.zip');
    expect(status.urlFileAvvisi).toContain('_AVVISI_PDF.zip');

    const accepted = readCsvZip(await mypay.download(status.urlFileIUV!));
    expect(accepted.map((r) => r.IUD)).toEqual(good.map((r) => r.IUD));
    for (const r of accepted) expect(isValidIuv(r.codIuv), r.codIuv).toBe(true);
    expect(new Set(accepted.map((r) => r.codIuv)).size).toBe(3);
    expect(accepted.every((r) => r.codIuv.startsWith(DEFAULT_ENTITY.segregationCode))).toBe(true);
    expect(accepted[0].causaleVersamento).toBe(good[0].causaleVersamento); // the quoted ';' survives

    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti).toHaveLength(1);
    expect(scarti[0]).toMatchObject({ IUD: bad.IUD, cod_rifiuto: 'CODICE_IDENTIFICATIVO_NON_VALIDO' });
    expect(scarti[0].de_rifiuto).toContain('RSSMRA85C52H501X');

    const pdfs = unzipSync(await mypay.download(status.urlFileAvvisi!));
    expect(Object.keys(pdfs).sort()).toEqual(accepted.map((r) => `avviso_3${r.codIuv}.pdf`).sort());
    const amounts = ['66,43 €', '10,50 €', '120,00 €'];
    for (const [index, r] of accepted.entries()) {
      const bytes = pdfs[`avviso_3${r.codIuv}.pdf`];
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBe(1);
      expect(pdf.getTitle()).toBe(`Avviso di pagamento ${r.codIuv}`);
      const text = await pdfText(bytes);
      expect(text).toContain(`3${r.codIuv}`.replace(/(\d{4})(\d{4})(\d{4})(\d{4})(\d{2})/, '$1 $2 $3 $4 $5')); // NAV
      expect(text).toContain(r.codIuv);
      expect(text).toContain(amounts[index]);
      expect(text).toContain(`${r.anagraficaPagatore} (${r.codiceIdentificativoUnivoco})`);
      expect(text).toContain('31/12/2026');
      expect(text).toContain('Assistenza domiciliare - marzo 2026; quota mensile');
    }
  });

  it('rejects each malformed field with its own code, and a duplicated IUD in the file', async () => {
    const cases: [Row, string][] = [
      [row({ IUD: '' }), 'IUD_OBBLIGATORIO'],
      [row({ IUD: 'X'.repeat(36) }), 'IUD_NON_VALIDO'],
      [row({ importoDovuto: '12,50' }), 'IMPORTO_NON_VALIDO'],
      [row({ importoDovuto: '0.00' }), 'IMPORTO_NON_VALIDO'],
      [row({ dataEsecuzionePagamento: '31/12/2026' }), 'DATA_NON_VALIDA'],
      [row({ dataEsecuzionePagamento: '2026-02-30' }), 'DATA_NON_VALIDA'],
      [row({ dataEsecuzionePagamento: '2026-13-01' }), 'DATA_NON_VALIDA'],
      [row({ azione: 'X' }), 'AZIONE_NON_VALIDA'],
      [row({ flagGeneraIuv: 'si' }), 'FLAG_GENERA_IUV_NON_VALIDO'],
      [row({ datiSpecificiRiscossione: '' }), 'DATI_SPECIFICI_RISCOSSIONE_OBBLIGATORI'],
      [row({ datiSpecificiRiscossione: 'X'.repeat(141) }), 'DATI_SPECIFICI_RISCOSSIONE_NON_VALIDI'],
      [row({ anagraficaPagatore: 'A'.repeat(71) }), 'ANAGRAFICA_NON_VALIDA'],
      [row({ tipoIdentificativoUnivoco: 'X' }), 'TIPO_IDENTIFICATIVO_NON_VALIDO'],
      [row({ provinciaPagatore: 'Roma' }), 'PROVINCIA_NON_VALIDA'],
      [row({ tipoDovuto: '' }), 'TIPO_DOVUTO_NON_VALIDO'],
      [row({ causaleVersamento: 'c'.repeat(1025) }), 'CAUSALE_NON_VALIDA'],
      [row({ bilancio: '<bilancio><capitolo/></bilancio>' }), 'BILANCIO_NON_VALIDO'],
      [row({ azione: 'M' }), 'DOVUTO_NON_TROVATO'],
    ];
    const duplicated = row();
    const { status } = await runImport([...cases.map(([r]) => r), duplicated, { ...duplicated }]);
    expect(status.stato).toBe('IMPORT_ESEGUITO');
    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti.map((r) => r.cod_rifiuto)).toEqual([...cases.map(([, code]) => code), 'IUD_DUPLICATO']);
    expect(scarti.every((r) => r.de_rifiuto.length > 0)).toBe(true);
    expect(readCsvZip(await mypay.download(status.urlFileIUV!)).map((r) => r.IUD)).toEqual([duplicated.IUD]);
  });

  it('keeps the IUV of an IUD on M, cancels it on A, refuses I on an existing IUD and M on a cancelled one — across a restart', async () => {
    const first = row();
    const inserted = readCsvZip(await mypay.download((await runImport([first])).status.urlFileIUV!))[0];

    await simulator.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let fetch's pool see its sockets closed
    await start(); // the IUVs held by IUD survive a restart (state.json)

    const { status } = await runImport([row({ IUD: first.IUD, azione: 'M', importoDovuto: '70.00', flagGeneraIuv: 'true' }), row({ IUD: first.IUD, azione: 'I' })]);
    const modified = readCsvZip(await mypay.download(status.urlFileIUV!));
    expect(modified).toHaveLength(1);
    expect(modified[0]).toMatchObject({ IUD: first.IUD, codIuv: inserted.codIuv, importoDovuto: '70.00' });
    expect(readCsvZip(await mypay.download(status.urlFileScarti!))[0].cod_rifiuto).toBe('IUD_DUPLICATO');

    const again = await runImport([row({ IUD: first.IUD, azione: 'I' })]);
    expect(readCsvZip(await mypay.download(again.status.urlFileScarti!))[0].cod_rifiuto).toBe('DOVUTO_GIA_PRESENTE');

    const cancelled = await runImport([row({ IUD: first.IUD, azione: 'A', importoDovuto: '0.00' })]);
    expect(readCsvZip(await mypay.download(cancelled.status.urlFileIUV!))[0]).toMatchObject({ codIuv: inserted.codIuv, azione: 'A' });
    expect(cancelled.status.urlFileAvvisi).toBeUndefined(); // no notice for a cancelled position

    const afterCancel = await runImport([row({ IUD: first.IUD, azione: 'M' })]);
    expect(readCsvZip(await mypay.download(afterCancel.status.urlFileScarti!))[0].cod_rifiuto).toBe('DOVUTO_ANNULLATO');
    expect(afterCancel.status.urlFileIUV).toBeUndefined();
  });

  it('offers no notices for layouts before 1_3, and only the files asked for', async () => {
    const { status } = await runImport([row()], { version: '1_2' });
    expect(status).toMatchObject({ stato: 'IMPORT_ESEGUITO' });
    expect(status.urlFileIUV).toBeDefined();
    expect(status.urlFileAvvisi).toBeUndefined();
    const onlyScarti = await mypay.importStatus((await runImport([row()])).authorization.requestToken, { scarti: true });
    expect(onlyScarti).toEqual({ stato: 'IMPORT_ESEGUITO', urlFileScarti: undefined, urlFileIUV: undefined, urlFileAvvisi: undefined });
  });
});

describe('paaSILImportaDovuto through the soap package (the WSDL works for a generated client too)', () => {
  it('imports one position with a new IUV and its notice, and answers a bad one with a fault', async () => {
    const client = await soap.createClientAsync(`${simulator.endpoint}?wsdl`);
    client.addSoapHeader({ intestazionePPT: { codIpaEnte: CODIPA } }, '', 'ppthead', 'http://www.regione.veneto.it/pagamenti/ente/ppthead');
    const single = (r: Row) => Buffer.from(csvOf([r]), 'utf8').toString('base64');
    const good = row({ importoDovuto: '25.00' });
    const [answer] = await client.paaSILImportaDovutoAsync({ password: PASSWORD, dovuto: single(good), flagGeneraIuv: true });
    expect(answer).toMatchObject({ esito: 'OK', identificativoUnivocoVersamento: expect.stringMatching(/^\d{17}$/) });
    expect(isValidIuv(answer.identificativoUnivocoVersamento)).toBe(true);
    expect(await pdfText(await mypay.download(answer.urlFileAvviso))).toContain('25,00 €');

    const [refused] = await client.paaSILImportaDovutoAsync({ password: PASSWORD, dovuto: single(row({ dataEsecuzionePagamento: '2026-13-01' })), flagGeneraIuv: true });
    expect(refused.fault).toMatchObject({ faultCode: 'PAA_DATA_NON_VALIDA', faultString: expect.stringContaining('yyyy-MM-dd') });
  });
});

describe('refusals', () => {
  it('refuses a ZIP with a wrong name, another entity or a version outside 1_0…1_4, and keeps the token usable', async () => {
    const authorization = await mypay.authorize();
    const { zip } = zipOf([row()]);
    for (const name of ['export.zip', `C_ALTRO-IUF1-1_3.zip`, `${CODIPA}-IUF1-1_5.zip`, `${CODIPA}-IUF1-1_3.csv`]) {
      const error = await rejection(mypay.upload(authorization, zip, name));
      expect(error, name).toBeInstanceOf(MyPayFault);
      expect((error as MyPayFault).faultCode).toBe('MYBOX_400');
    }
    await mypay.upload(authorization, zip, `${CODIPA}-IUF1-1_3.zip`);
    expect((await mypay.importStatus(authorization.requestToken)).stato).toBe('LOAD_IMPORT');
  });

  it('refuses an upload whose MD5 does not match the bytes received', async () => {
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    const form = new FormData();
    form.set('authorizationToken', authorization.authorizationToken);
    form.set('md5', 'd41d8cd98f00b204e9800998ecf8427e'); // the MD5 of nothing
    form.set('file', new Blob([zip]), fileName);
    const answer = await (await fetch(authorization.uploadUrl, { method: 'POST', body: form })).json();
    expect(answer).toEqual([{ codice: '400', descrizione: expect.stringContaining('MD5 non corrispondente') }]);
    const error = await rejection(mypay.importStatus(authorization.requestToken));
    expect(error).toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_IMPORT_NON_CARICATO' });
  });

  it('refuses an unknown entity or a wrong password with a fault', async () => {
    const other = makeMyPay({ endpoint: simulator.endpoint, codIpaEnte: 'C_ALTRO', password: PASSWORD, timeoutMs: 1000 });
    expect(await rejection(other.authorize())).toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_ENTE_NON_VALIDO' });
    const wrong = makeMyPay({ endpoint: simulator.endpoint, codIpaEnte: CODIPA, password: 'Sbagliata1', timeoutMs: 1000 });
    expect(await rejection(wrong.authorize())).toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_ENTE_NON_VALIDO', faultString: 'Password non valida' });
  });

  it('uses a request token once: a second upload, or a reused token handed out by the switch, is refused', async () => {
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    await mypay.upload(authorization, zip, fileName);
    expect(await rejection(mypay.upload(authorization, zip, fileName))).toMatchObject({ name: 'MyPayFault', faultCode: FAULT_TOKEN_ALREADY_USED });

    expect((await admin('reuse-token', { times: 1 })).status).toBe(200);
    const reused = await mypay.authorize();
    expect(reused.requestToken).toBe(authorization.requestToken);
    expect(await rejection(mypay.upload(reused, zip, fileName))).toMatchObject({ name: 'MyPayFault', faultCode: FAULT_TOKEN_ALREADY_USED });
    expect((await mypay.authorize()).requestToken).not.toBe(authorization.requestToken); // the switch was for once
  });

  it('answers an unknown request token with a fault', async () => {
    expect(await rejection(mypay.importStatus('non-esiste'))).toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_REQUEST_TOKEN_NON_VALIDO' });
  });
});

describe('fault switches', () => {
  it('turns a 5xx or a timeout on every SOAP operation into MyPayUnavailable, once', async () => {
    const imported = row();
    const { authorization } = await runImport([imported]);
    const pay = () => mypay.openPositionCheckout({ tipoIdentificativoUnivoco: 'F', codiceIdentificativoUnivoco: CITIZENS[0] }, imported.IUD, 'http://localhost/esito');
    const session = (await pay())!;
    await fetch(session.url, { redirect: 'manual' }); // the landing opens MyPay's session
    const calls: [string, () => Promise<unknown>][] = [
      ['paaSILAutorizzaImportFlusso', () => mypay.authorize()],
      ['paaSILChiediStatoImportFlusso', () => mypay.importStatus(authorization.requestToken)],
      ['paaSILChiediPosizioniAperte', pay],
      ['paaSILChiediPagati', () => mypay.paymentOutcome(session.idSession)],
      ['paaSILPrenotaExportFlusso', () => mypay.reportPaid('2026-01-01', '2026-01-31')],
      ['paaSILChiediStatoExportFlusso', () => mypay.reportPaid('2026-01-01', '2026-01-31')],
    ];
    for (const kind of ['5xx', 'timeout']) {
      for (const [operation, call] of calls) {
        await admin('faults', { operation, kind, times: 1 });
        const error = await rejection(call());
        expect(error, `${kind} on ${operation}`).toBeInstanceOf(MyPayUnavailable);
        expect(error.name).toBe('MyPayUnavailable');
        expect(error.message).toContain(operation);
        await call(); // the next call goes through
      }
    }
  }, 60_000);

  it('turns a timeout into MyPayUnavailable within the configured timeout', async () => {
    await admin('faults', { operation: 'paaSILAutorizzaImportFlusso', kind: 'timeout', times: 1 });
    const started = Date.now();
    const error = await rejection(mypay.authorize());
    expect(error).toMatchObject({ name: 'MyPayUnavailable', message: expect.stringContaining('no answer within 1000 ms') });
    // The fault holds the request for 60 s: the adapter gave up on its own, long before.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await mypay.authorize()).requestToken).toBeTruthy();
  });

  it('fails the upload and the download with MyPayUnavailable on 5xx / timeout, N times then never again', async () => {
    const { status } = await runImport([row()]);
    await admin('faults', { operation: 'download', kind: '5xx', times: 2 });
    for (let i = 0; i < 2; i++) expect((await rejection(mypay.download(status.urlFileIUV!))).name).toBe('MyPayUnavailable');
    expect((await mypay.download(status.urlFileIUV!)).byteLength).toBeGreaterThan(0);

    await admin('faults', { operation: 'upload', kind: 'timeout', times: 1 });
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    expect((await rejection(mypay.upload(authorization, zip, fileName))).name).toBe('MyPayUnavailable');
    // the upload did not land: the same token still works
    await mypay.upload(authorization, zip, fileName);
  });

  it('loses the answer of an upload that landed: a retry is refused as a reused token, the status shows the import', async () => {
    await admin('faults', { operation: 'upload', kind: 'lost-answer', times: 1 });
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    expect((await rejection(mypay.upload(authorization, zip, fileName))).name).toBe('MyPayUnavailable');
    expect(await rejection(mypay.upload(authorization, zip, fileName))).toMatchObject({ faultCode: FAULT_TOKEN_ALREADY_USED });
    expect((await mypay.importStatus(authorization.requestToken)).stato).toBe('LOAD_IMPORT');
  });

  it('keeps a stuck import in IMPORT_IN_ELAB and ends an aborted one in IMPORT_ABORTITO without files', async () => {
    await admin('import', { mode: 'stuck', times: 1 });
    const stuck = await runImport([row()], { maxPolls: 8 });
    expect(stuck.states).toEqual(['LOAD_IMPORT', ...Array(7).fill('IMPORT_IN_ELAB')]);

    await admin('import', { mode: 'aborted', times: 1 });
    const aborted = await runImport([row()]);
    expect(aborted.status).toEqual({ stato: 'IMPORT_ABORTITO', urlFileScarti: undefined, urlFileIUV: undefined, urlFileAvvisi: undefined });

    const normal = await runImport([row()]); // both switches were for one import
    expect(normal.status.stato).toBe('IMPORT_ESEGUITO');
  });

  it('rejects the rows the switch names (by IUD) or counts', async () => {
    const rows = [row(), row(), row(), row()];
    await admin('reject', { iuds: [rows[3].IUD], count: 1 });
    const { status } = await runImport(rows);
    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti.map((r) => [r.IUD, r.cod_rifiuto])).toEqual([
      [rows[0].IUD, 'RIFIUTATO_DAL_SIMULATORE'],
      [rows[3].IUD, 'RIFIUTATO_DAL_SIMULATORE'],
    ]);
    expect(readCsvZip(await mypay.download(status.urlFileIUV!)).map((r) => r.IUD)).toEqual([rows[1].IUD, rows[2].IUD]);
  });

  it('answers bad switch input with 400 and changes nothing', async () => {
    expect((await admin('faults', { operation: 'paaSILNonEsiste', kind: '5xx' })).status).toBe(400);
    expect((await admin('faults', { operation: 'upload', kind: 'lento' })).status).toBe(400);
    expect((await admin('import', { mode: 'rotto' })).status).toBe(400);
    const state = await (await fetch(`${simulator.url}/admin/state`)).json();
    expect(state.switches).toEqual({ faults: [], importMode: null, reject: { iuds: [], count: 0 }, reuseToken: 0 });
  });
});

// Paying a position and the outcome of its session: test/integration/mypay-payments.test.ts.

describe('reporting (paaSILPrenotaExportFlusso + paaSILChiediStatoExportFlusso)', () => {
  it('returns the positions marked paid in the date range, with amount, date and IUV', async () => {
    const rows = [row(), row({ importoDovuto: '12.05', codiceIdentificativoUnivoco: CITIZENS[3] }), row()];
    const iuvs = readCsvZip(await mypay.download((await runImport(rows)).status.urlFileIUV!));
    const marked = await admin('paid', { iuds: [rows[0].IUD, rows[1].IUD], paidOn: '2025-06-15' });
    expect(marked.body.paid).toHaveLength(2);

    const paid = await mypay.reportPaid('2025-06-01', '2025-06-30');
    expect(paid.sort((a, b) => a.iud.localeCompare(b.iud))).toEqual(
      [
        { iud: rows[0].IUD, iuv: iuvs[0].codIuv, fiscalCode: CITIZENS[0], amountCents: 6643, paidOn: '2025-06-15', iur: expect.stringMatching(/^IUR/), causale: rows[0].causaleVersamento },
        { iud: rows[1].IUD, iuv: iuvs[1].codIuv, fiscalCode: CITIZENS[3], amountCents: 1205, paidOn: '2025-06-15', iur: expect.stringMatching(/^IUR/), causale: rows[1].causaleVersamento },
      ].sort((a, b) => a.iud.localeCompare(b.iud)),
    );
    expect(await mypay.reportPaid('2025-07-01', '2025-07-31')).toEqual([]);
    // a paid position cannot be modified any more
    const modify = await runImport([row({ IUD: rows[0].IUD, azione: 'M' })]);
    expect(readCsvZip(await mypay.download(modify.status.urlFileScarti!))[0].cod_rifiuto).toBe('DOVUTO_PAGATO');
  });

  it('refuses a reversed date range with a fault', async () => {
    expect(await rejection(mypay.reportPaid('2025-07-31', '2025-07-01'))).toMatchObject({ faultCode: 'PAA_DATE_NON_VALIDE' });
  });
});

describe('the local stack', () => {
  it('runs the simulator beside the portal and serves the WSDL at the endpoint the Lambdas are given', async () => {
    const endpoint = inject('myPayEndpoint');
    const wsdl = await (await fetch(`${endpoint}?wsdl`)).text();
    expect(wsdl).toContain('name="paaSILAutorizzaImportFlusso"');
    expect(wsdl).toContain(`location="${endpoint}"`);
    const stackMyPay = makeMyPay({ endpoint, codIpaEnte: CODIPA, password: PASSWORD, timeoutMs: 2000 });
    expect((await stackMyPay.authorize()).uploadUrl).toBe(`${new URL(endpoint).origin}/mybox/uploadFlusso`);
  });
});
