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
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from '../support/stack-context.ts';
import { FAULT_TOKEN_ALREADY_USED, MyPayFault, MyPayUnavailable } from '../../functions/adapters/mypay.ts';
import type { MyPay, MyPayImportStatus } from '../../functions/adapters/ports/mypay.ts';
import { isValidIuv } from '../../functions/domain/iuv.ts';
import { DEFAULT_ENTITY, startMyPaySimulator, type MyPaySimulator } from '../../lib/local/mypay-simulator.ts';
import { freePort } from '../support/ports.ts';
import { mypayAdmin, mypayClientOn } from '../support/mypay-simulator.ts';

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
  mypay = mypayClientOn(simulator, { timeoutMs: 1000 });
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

const admin = (action: string, body: object) => mypayAdmin(simulator.url, action, body);

// ——— a small CSV builder of the test's own (the portal's builder belongs to the positions work) ———
const COLUMNS = [
  'IUD',
  'codIuv',
  'tipoIdentificativoUnivoco',
  'codiceIdentificativoUnivoco',
  'anagraficaPagatore',
  'indirizzoPagatore',
  'civicoPagatore',
  'capPagatore',
  'localitaPagatore',
  'provinciaPagatore',
  'nazionePagatore',
  'mailPagatore',
  'dataEsecuzionePagamento',
  'importoDovuto',
  'commissioneCaricoPa',
  'tipoDovuto',
  'tipoVersamento',
  'causaleVersamento',
  'datiSpecificiRiscossione',
  'bilancio',
  'flagGeneraIuv',
  'azione',
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
  // MyPay checks that the bilancio's amounts add up to the row's (Utilities.verificaImportoBilancio).
  bilancio: `<bilancio><capitolo><codCapitolo>1234</codCapitolo><accertamento><codAccertamento>2026/1</codAccertamento><importo>${over.importoDovuto ?? '66.43'}</importo></accertamento></capitolo></bilancio>`,
  flagGeneraIuv: 'true',
  azione: 'I',
  ...over,
});
/** The layout's columns: 1_2 has no flagGeneraIuv (MyPay4 SupportedFileVersion). */
const columnsOf = (version: string) => (version === '1_2' ? COLUMNS.filter((c) => c !== 'flagGeneraIuv') : COLUMNS);
const csvOf = (rows: Row[], version = '1_3') =>
  Papa.unparse([columnsOf(version), ...rows.map((r) => columnsOf(version).map((c) => r[c]))], {
    delimiter: ';',
    newline: '\r\n',
  });
const zipOf = (rows: Row[], { codIpa = CODIPA, version = '1_3' } = {}) => {
  const fileName = `${codIpa}-IUF${Date.now()}${Math.floor(Math.random() * 1000)}-${version}.zip`;
  return { fileName, zip: zipSync({ [fileName.replace('.zip', '.csv')]: strToU8(csvOf(rows, version)) }) };
};
const readCsvZip = (bytes: Uint8Array) => {
  const [[, content]] = Object.entries(unzipSync(bytes));
  return Papa.parse<Row>(strFromU8(content).replace(/^\uFEFF/, ''), {
    header: true,
    delimiter: ';',
    skipEmptyLines: true,
  }).data;
};
/** The data lines of a result file as MyPay writes them (the IUV file's fields are joined unquoted). */
const linesOfZip = (bytes: Uint8Array) => {
  const [[, content]] = Object.entries(unzipSync(bytes));
  return strFromU8(content).trim().split('\n').slice(1);
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
  const standardFontDataUrl = path.join(
    path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
    'standard_fonts/',
  );
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl }).promise;
  const page = await document.getPage(1);
  const items = (await page.getTextContent()).items as { str: string }[];
  await document.destroy();
  return items.map((item) => item.str.replace(/\u00a0/g, ' ')).join('\n');
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );

describe('bulk import through the adapter', () => {
  it('imports 3 good rows and rejects 1: 3 IUVs with valid mod-93 check digits, 1 SCARTI row with code and reason, 3 notice PDFs', async () => {
    const good = [
      row(),
      row({ codiceIdentificativoUnivoco: CITIZENS[1], anagraficaPagatore: 'Giuseppe Verdi', importoDovuto: '10.5' }),
      row({ codiceIdentificativoUnivoco: CITIZENS[2], importoDovuto: '120.00' }),
    ];
    const bad = row({ codiceIdentificativoUnivoco: 'RSSMRA85C52H501X' }); // wrong check character
    const { status, states, fileName } = await runImport([good[0], bad, good[1], good[2]]);

    expect(states).toEqual([
      'LOAD_IMPORT',
      'IMPORT_IN_ELAB',
      ...states.slice(2, -1).map(() => 'IMPORT_IN_ELAB'),
      'IMPORT_ESEGUITO',
    ]);
    expect(status.urlFileIUV).toContain(`${fileName.replace('.zip', '')}_IUV.zip`);
    expect(status.urlFileScarti).toContain('_SCARTI.zip');
    expect(status.urlFileAvvisi).toContain('_AVVISI_PDF.zip');

    const accepted = readCsvZip(await mypay.download(status.urlFileIUV!));
    expect(accepted.map((r) => r.IUD)).toEqual(good.map((r) => r.IUD));
    for (const r of accepted) expect(isValidIuv(r.codIuv), r.codIuv).toBe(true);
    expect(new Set(accepted.map((r) => r.codIuv)).size).toBe(3);
    expect(accepted.every((r) => r.codIuv.startsWith(DEFAULT_ENTITY.segregationCode))).toBe(true);
    // MyPay4 writes the IUV file's fields joined by ';', unquoted (creaRigaFileScartiOriIuv): the causale's ';'
    // comes back bare, so only the first fields (IUD, IUV) can be read by position.
    expect(linesOfZip(await mypay.download(status.urlFileIUV!))[0]).toContain(`;${good[0].causaleVersamento};`);

    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti).toHaveLength(1);
    // The original line, then MyPay's code and text (ImportFlussoTaskService.validaElabora, creaRigaFileScarti).
    expect(scarti[0]).toMatchObject({
      IUD: bad.IUD,
      codiceIdentificativoUnivoco: 'RSSMRA85C52H501X',
      cod_rifiuto: 'PAA_IMPORT_SINTASSI_CSV_COD_FISC',
    });
    expect(scarti[0].de_rifiuto).toContain('Codice fiscale non valido');

    // A notice per position whose IUV MyPay generated, named after the IUV (avviso_<IUV>.pdf, as MyPay4's jasper output).
    const pdfs = unzipSync(await mypay.download(status.urlFileAvvisi!));
    expect(Object.keys(pdfs).sort()).toEqual(accepted.map((r) => `avviso_${r.codIuv}.pdf`).sort());
    const amounts = ['66,43 €', '10,50 €', '120,00 €'];
    for (const [index, r] of accepted.entries()) {
      const bytes = pdfs[`avviso_${r.codIuv}.pdf`];
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

  it('rejects each row as MyPay4 does, with its codes (ImportFlussoTaskService.leggiVerificaRiga, validaElabora; Utilities.java)', async () => {
    const cases: [Row, string][] = [
      [row({ IUD: '' }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ IUD: 'X'.repeat(36) }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ IUD: '000123' }), '|PAA_IMPORT_SINTASSI_CSV_IUD'],
      [row({ importoDovuto: '12,50' }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ importoDovuto: '0.00', bilancio: '' }), '|PAA_IMPORT_SINTASSI_CSV_IMPORTO'],
      [row({ dataEsecuzionePagamento: '31/12/2026' }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ azione: 'X' }), 'PAA_IMPORT_SINTASSI_CSV_AZIONE'],
      [row({ flagGeneraIuv: 'si' }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ datiSpecificiRiscossione: '' }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ datiSpecificiRiscossione: '9/ab' }), '|PAA_IMPORT_SINTASSI_CSV_DATI_RISCOSS'],
      [row({ anagraficaPagatore: 'A'.repeat(71) }), 'PAA_IMPORT_SINTASSI_CSV'],
      [row({ tipoIdentificativoUnivoco: 'X' }), '|PAA_IMPORT_SINTASSI_CSV_ID_UNIV_FG'],
      [row({ tipoDovuto: 'NON_CENSITO' }), '|PAA_IMPORT_SINTASSI_CSV_TIPO_DOVUTO_INESISTENTE'],
      [row({ tipoDovuto: 'SPENTO' }), '|PAA_IMPORT_SINTASSI_CSV_TIPO_DOVUTO_NON_ATTIVO_PER_ENTE'],
      [row({ capPagatore: '00100-1' }), '|PAA_IMPORT_SINTASSI_CSV_CAP'],
      [row({ civicoPagatore: '3°' }), '|PAA_IMPORT_SINTASSI_CSV_CIVICO'],
      [row({ provinciaPagatore: 'XX' }), '|PAA_IMPORT_SINTASSI_CSV_PROV'],
      [row({ nazionePagatore: 'QQ' }), '|PAA_IMPORT_SINTASSI_CSV_NAZ'],
      [row({ mailPagatore: 'maria rossi@example.org' }), '|PAA_IMPORT_SINTASSI_CSV_EMAIL'],
      [row({ tipoVersamento: 'MYBK' }), '|PAA_IMPORT_SINTASSI_CSV_TIPO_VERS'],
      [row({ causaleVersamento: 'c'.repeat(1025) }), 'PAA_IMPORT_SINTASSI_CSV'],
      [
        row({
          bilancio:
            '<bilancio><capitolo><codCapitolo>1</codCapitolo><accertamento><importo>1.00</importo></accertamento></capitolo></bilancio>',
        }),
        '|PAA_IMPORT_SINTASSI_CSV_BILANCIO',
      ],
      [row({ azione: 'M' }), '|PAA_IMPORT_DOVUTO_NON_PRESENTE'],
    ];
    await admin('tipi-dovuto', { code: 'SPENTO', active: false });
    // What MyPay takes: a foreign postcode with letters, a province of another country, a civic number with a slash.
    const accepted = [
      row({ capPagatore: 'SW1A1AA', nazionePagatore: 'GB', provinciaPagatore: 'ZZ', civicoPagatore: '12/B bis' }),
    ];
    const duplicated = row();
    const { status } = await runImport([...cases.map(([r]) => r), ...accepted, duplicated, { ...duplicated }]);
    expect(status.stato).toBe('IMPORT_ESEGUITO');
    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti.map((r) => [r.IUD, r.cod_rifiuto])).toEqual([
      ...cases.map(([r, code]) => [r.IUD, code]),
      [duplicated.IUD, 'PAA_IMPORT_IUD_DUPLICATO'],
    ]);
    expect(scarti.every((r) => r.de_rifiuto.length > 0)).toBe(true);
    expect(readCsvZip(await mypay.download(status.urlFileIUV!)).map((r) => r.IUD)).toEqual([
      accepted[0].IUD,
      duplicated.IUD,
    ]);
  });

  it('reads the CSV by position: the header line is skipped and its names never read', async () => {
    const good = row();
    const fileName = `${CODIPA}-IUFPOS${Date.now()}-1_3.zip`;
    const text = [
      'una;intestazione;qualsiasi',
      COLUMNS.map((c) => good[c])
        .map((v) => (/[;"]/.test(v) ? `"${v}"` : v))
        .join(';'),
    ].join('\r\n');
    const authorization = await mypay.authorize();
    await mypay.upload(authorization, zipSync({ [fileName.replace('.zip', '.csv')]: strToU8(text) }), fileName);
    let status: MyPayImportStatus;
    do status = await mypay.importStatus(authorization.requestToken);
    while (status.stato === 'LOAD_IMPORT' || status.stato === 'IMPORT_IN_ELAB');
    expect(status.stato).toBe('IMPORT_ESEGUITO');
    expect(linesOfZip(await mypay.download(status.urlFileIUV!))[0]!.split(';')[0]).toBe(good.IUD);
  });

  it('keeps the IUV of an IUD on M, cancels it on A, refuses I on an existing IUD and M on a cancelled one — across a restart', async () => {
    const first = row();
    const inserted = readCsvZip(await mypay.download((await runImport([first])).status.urlFileIUV!))[0];

    await simulator.close();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let fetch's pool see its sockets closed
    await start(); // the IUVs held by IUD survive a restart (state.json)

    // Its own IUV sent back with flagGeneraIuv=false: refused (Utilities.validaIUV wants the application code and no "00" at digits 3-4).
    const refused = await runImport([
      row({
        IUD: first.IUD,
        codIuv: inserted.codIuv,
        azione: 'M',
        importoDovuto: '70.00',
        bilancio: '',
        flagGeneraIuv: 'false',
      }),
    ]);
    expect(readCsvZip(await mypay.download(refused.status.urlFileScarti!))[0].cod_rifiuto).toBe(
      '|PAA_IMPORT_SINTASSI_CSV_IUV',
    );

    const { status } = await runImport([
      row({
        IUD: first.IUD,
        codIuv: inserted.codIuv,
        azione: 'M',
        importoDovuto: '70.00',
        bilancio: '',
        flagGeneraIuv: 'true',
      }),
      row({ IUD: first.IUD, azione: 'I' }),
    ]);
    const modified = readCsvZip(await mypay.download(status.urlFileIUV!));
    expect(modified).toHaveLength(1);
    expect(modified[0]).toMatchObject({ IUD: first.IUD, codIuv: inserted.codIuv, importoDovuto: '70.00' });
    expect(readCsvZip(await mypay.download(status.urlFileScarti!))[0].cod_rifiuto).toBe('PAA_IMPORT_IUD_DUPLICATO');
    // MyPay4 makes a notice for each row with flagGeneraIuv true that is not a cancellation: the changed one, same IUV.
    expect(status.urlFileAvvisi).toBeDefined();

    const again = await runImport([row({ IUD: first.IUD, azione: 'I' })]);
    expect(readCsvZip(await mypay.download(again.status.urlFileScarti!))[0].cod_rifiuto).toBe(
      '|PAA_IMPORT_IUD_DUPLICATO',
    );

    const cancelled = await runImport([
      row({ IUD: first.IUD, codIuv: inserted.codIuv, flagGeneraIuv: 'true', azione: 'A' }),
    ]);
    // By position: the causale's bare ';' shifts the fields after it in MyPay's unquoted IUV file.
    const cancelLine = linesOfZip(await mypay.download(cancelled.status.urlFileIUV!))[0]!.split(';');
    expect([cancelLine[1], cancelLine.at(-1)]).toEqual([inserted.codIuv, 'A']);
    expect(cancelled.status.urlFileAvvisi).toBeUndefined(); // no notice for a cancelled position

    const afterCancel = await runImport([row({ IUD: first.IUD, azione: 'M' })]);
    expect(readCsvZip(await mypay.download(afterCancel.status.urlFileScarti!))[0]).toMatchObject({
      cod_rifiuto: 'PAA_IMPORT_ERROR',
      de_rifiuto: expect.stringContaining('non può essere modificato'),
    });
    expect(afterCancel.status.urlFileIUV).toBeUndefined();
  });

  it('offers no notices for layouts before 1_3, and only the files asked for', async () => {
    const { status } = await runImport([row()], { version: '1_2' });
    expect(status).toMatchObject({ stato: 'IMPORT_ESEGUITO' });
    expect(status.urlFileIUV).toBeDefined();
    expect(status.urlFileAvvisi).toBeUndefined();
    const onlyScarti = await mypay.importStatus((await runImport([row()])).authorization.requestToken, {
      scarti: true,
    });
    expect(onlyScarti).toEqual({
      stato: 'IMPORT_ESEGUITO',
      urlFileScarti: undefined,
      urlFileIUV: undefined,
      urlFileAvvisi: undefined,
    });
  });
});

describe('paaSILImportaDovuto through the soap package (the WSDL works for a generated client too)', () => {
  /** MyPay4 DovutoService.importDovuto: `dovuto` is a Base64 Versamento (PagInf_Dovuti_Pagati_6_2_0.xsd). */
  const versamento = (
    over: { iud?: string; importo?: string; tipoDovuto?: string; data?: string; azione?: string } = {},
  ) =>
    Buffer.from(
      `<Versamento xmlns="http://www.regione.veneto.it/schemas/2012/Pagamenti/Ente/"><versioneOggetto>6.2</versioneOggetto>` +
        `<soggettoPagatore><identificativoUnivocoPagatore><tipoIdentificativoUnivoco>F</tipoIdentificativoUnivoco><codiceIdentificativoUnivoco>${CITIZENS[0]}</codiceIdentificativoUnivoco></identificativoUnivocoPagatore>` +
        `<anagraficaPagatore>Maria Rossi</anagraficaPagatore><e-mailPagatore>maria.rossi@example.org</e-mailPagatore></soggettoPagatore>` +
        `<datiVersamento><dataEsecuzionePagamento>${over.data ?? '2026-12-31'}</dataEsecuzionePagamento><tipoVersamento>ALL</tipoVersamento>` +
        `<identificativoUnivocoDovuto>${over.iud ?? `T-${randomUUID().slice(0, 18)}`}</identificativoUnivocoDovuto><importoSingoloVersamento>${over.importo ?? '25.00'}</importoSingoloVersamento>` +
        `<identificativoTipoDovuto>${over.tipoDovuto ?? 'SERVIZI_SOCIALI'}</identificativoTipoDovuto><causaleVersamento>Quota di marzo</causaleVersamento><datiSpecificiRiscossione>9/0101100IM</datiSpecificiRiscossione></datiVersamento>` +
        `<azione>${over.azione ?? 'I'}</azione></Versamento>`,
      'utf8',
    ).toString('base64');

  it('imports one position with a new IUV and its notice, and answers what MyPay refuses with its fault', async () => {
    const client = await soap.createClientAsync(`${simulator.endpoint}?wsdl`);
    client.addSoapHeader(
      { intestazionePPT: { codIpaEnte: CODIPA } },
      '',
      'ppthead',
      'http://www.regione.veneto.it/pagamenti/ente/ppthead',
    );
    const iud = `T-${randomUUID().slice(0, 18)}`;
    const [answer] = await client.paaSILImportaDovutoAsync({
      password: PASSWORD,
      dovuto: versamento({ iud }),
      flagGeneraIuv: true,
    });
    expect(answer).toMatchObject({ esito: 'OK', identificativoUnivocoVersamento: expect.stringMatching(/^\d{17}$/) });
    expect(isValidIuv(answer.identificativoUnivocoVersamento)).toBe(true);
    expect(await pdfText(await mypay.download(answer.urlFileAvviso))).toContain('25,00 €');

    const refused = async (dovuto: string) =>
      (await client.paaSILImportaDovutoAsync({ password: PASSWORD, dovuto, flagGeneraIuv: true }))[0].fault?.faultCode;
    // The CSV row MyPay's bulk import takes is no Versamento: refused as XML.
    expect(await refused(Buffer.from(csvOf([row()]), 'utf8').toString('base64'))).toBe('PAA_XML_NON_VALIDO');
    expect(await refused(versamento({ data: '2026-13-01' }))).toBe('PAA_XML_NON_VALIDO');
    expect(await refused(versamento({ iud }))).toBe('PAA_IMPORT_IUD_DUPLICATO');
    expect(await refused(versamento({ azione: 'M' }))).toBe('PAA_IMPORT_DOVUTO_NON_PRESENTE');
    expect(await refused(versamento({ tipoDovuto: 'NON_CENSITO' }))).toBe('PAA_IDENTIFICATIVO_TIPO_DOVUTO_NON_VALIDO');
    expect(await refused(versamento({ importo: '0.00' }))).toBe('PAA_IMPORTO_SINGOLO_VERSAMENTO_NON_VALIDO');
    expect(await refused(versamento({ azione: 'X' }))).toBe('PAA_AZIONE_NON_VALIDO');
  });
});

describe('refusals', () => {
  it('MyBox refuses what MyPay4 refuses at upload (FlussoService.validateFile) and keeps the token usable', async () => {
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    const refusal = async (bytes: Uint8Array, name: string) =>
      (await rejection(mypay.upload(authorization, bytes, name))) as MyPayFault;
    expect(await refusal(zip, fileName.replace('.zip', '.csv'))).toMatchObject({
      faultCode: 'MYBOX_400',
      description: expect.stringContaining('deve essere lo zip'),
    });
    expect(await refusal(zip, `${CODIPA}-ALTRO-1_3.zip`)).toMatchObject({
      faultCode: 'MYBOX_400',
      description: expect.stringContaining('deve essere uguale al nome dello zip'),
    });
    const other = 'C_ALTRO-IUF1-1_3.zip';
    expect(await refusal(zipSync({ [other.replace('.zip', '.csv')]: strToU8(csvOf([row()])) }), other)).toMatchObject({
      faultCode: 'MYBOX_400',
      description: expect.stringContaining("deve iniziare col codice dell'ente"),
    });
    await mypay.upload(authorization, zip, fileName);
    expect((await mypay.importStatus(authorization.requestToken)).stato).toBe('LOAD_IMPORT');
  });

  it('refuses a ZIP name it already received, and fails an import whose IUF it already loaded (FlussoDao, update_insert_flusso)', async () => {
    const first = await runImport([row()]);
    expect(first.status.stato).toBe('IMPORT_ESEGUITO');
    const again = await mypay.authorize();
    const sameName = zipSync({ [first.fileName.replace('.zip', '.csv')]: strToU8(csvOf([row()])) });
    expect(await rejection(mypay.upload(again, sameName, first.fileName))).toMatchObject({
      faultCode: 'MYBOX_NOME_FILE_DUPLICATO',
    });
    // The same IUF under another layout's name: the name is new, the IUF is not.
    const sameIuf = first.fileName.replace('-1_3.zip', '-1_2.zip');
    await mypay.upload(again, zipSync({ [sameIuf.replace('.zip', '.csv')]: strToU8(csvOf([row()])) }), sameIuf);
    let status: MyPayImportStatus;
    do status = await mypay.importStatus(again.requestToken);
    while (status.stato === 'LOAD_IMPORT' || status.stato === 'IMPORT_IN_ELAB');
    expect(status).toEqual({
      stato: 'PAA_IMPORT_FLUSSO_DUPLICATO',
      urlFileScarti: undefined,
      urlFileIUV: undefined,
      urlFileAvvisi: undefined,
    });
  });

  it('fails an import with MyPay’s code in stato (verificaNomeVersioneFile): version, entity, name, MD5', async () => {
    const failed = async (name: string, md5?: string) => {
      const authorization = await mypay.authorize();
      const bytes = zipSync({ [name.replace('.zip', '.csv')]: strToU8(csvOf([row()])) });
      const form = new FormData();
      form.set('authorizationToken', authorization.authorizationToken);
      if (md5) form.set('md5', md5);
      form.set('file', new Blob([bytes]), name);
      const answer = await (await fetch(authorization.uploadUrl, { method: 'POST', body: form })).json();
      expect(answer[0].codice, JSON.stringify(answer)).toBeUndefined();
      let status: MyPayImportStatus;
      do status = await mypay.importStatus(authorization.requestToken);
      while (status.stato === 'LOAD_IMPORT' || status.stato === 'IMPORT_IN_ELAB');
      return status.stato;
    };
    const iuf = () => `IUF${randomUUID().slice(0, 8)}`;
    expect(await failed(`${CODIPA}-${iuf()}-1_5.zip`)).toBe('PAA_IMPORT_FILE_VERSIONE_ERR(1_5)');
    expect(await failed(`${CODIPA}_ALTRO-${iuf()}-1_3.zip`)).toBe(`PAA_IMPORT_ENTE_ERR(${CODIPA}_ALTRO,${CODIPA})`);
    expect(await failed(`${CODIPA}-${iuf()}-X-1_3.zip`)).toBe('PAA_IMPORT_NOME_FILE_ERR');
    // A file that arrived damaged (the MD5 the adapter declared is not the bytes'): MyPay's own check fails it.
    expect(await failed(`${CODIPA}-${iuf()}-1_3.zip`, 'd41d8cd98f00b204e9800998ecf8427e')).toBe(
      'PAA_IMPORT_NO_MATCH_MD5',
    );
  });

  it('refuses an unknown entity or a wrong password with a fault', async () => {
    const other = mypayClientOn(simulator, { codIpaEnte: 'C_ALTRO', timeoutMs: 1000 });
    expect(await rejection(other.authorize())).toMatchObject({ name: 'MyPayFault', faultCode: 'PAA_ENTE_NON_VALIDO' });
    const wrong = mypayClientOn(simulator, { password: 'Sbagliata1', timeoutMs: 1000 });
    expect(await rejection(wrong.authorize())).toMatchObject({
      name: 'MyPayFault',
      faultCode: 'PAA_ENTE_NON_VALIDO',
      faultString: 'Password non valida',
    });
  });

  it('uses a request token once: a second upload, or a reused token handed out by the switch, is refused', async () => {
    const authorization = await mypay.authorize();
    const { zip, fileName } = zipOf([row()]);
    await mypay.upload(authorization, zip, fileName);
    expect(await rejection(mypay.upload(authorization, zip, fileName))).toMatchObject({
      name: 'MyPayFault',
      faultCode: FAULT_TOKEN_ALREADY_USED,
    });

    expect((await admin('reuse-token', { times: 1 })).status).toBe(200);
    const reused = await mypay.authorize();
    expect(reused.requestToken).toBe(authorization.requestToken);
    expect(await rejection(mypay.upload(reused, zip, fileName))).toMatchObject({
      name: 'MyPayFault',
      faultCode: FAULT_TOKEN_ALREADY_USED,
    });
    expect((await mypay.authorize()).requestToken).not.toBe(authorization.requestToken); // the switch was for once
  });

  it('answers an unknown request token, or one with no upload yet, with PAA_REQUEST_TOKEN_NON_VALIDO (verificaImportDovuti)', async () => {
    expect(await rejection(mypay.importStatus('non-esiste'))).toMatchObject({
      name: 'MyPayFault',
      faultCode: 'PAA_REQUEST_TOKEN_NON_VALIDO',
    });
    expect(await rejection(mypay.importStatus((await mypay.authorize()).requestToken))).toMatchObject({
      name: 'MyPayFault',
      faultCode: 'PAA_REQUEST_TOKEN_NON_VALIDO',
    });
  });
});

describe('fault switches', () => {
  it('turns a 5xx or a timeout on every SOAP operation into MyPayUnavailable, once', async () => {
    const imported = row();
    const { authorization } = await runImport([imported]);
    const state = await (await fetch(`${simulator.url}/admin/state`)).json();
    const pay = () =>
      mypay.openPositionCheckout(state.positions[`${CODIPA}|${imported.IUD}`].iuv, 'http://localhost/esito');
    const session = (await pay())!;
    await fetch(session.url, { redirect: 'manual' }); // the landing opens MyPay's session
    const calls: [string, () => Promise<unknown>][] = [
      ['paaSILAutorizzaImportFlusso', () => mypay.authorize()],
      ['paaSILChiediStatoImportFlusso', () => mypay.importStatus(authorization.requestToken)],
      ['paaSILVerificaAvviso', pay],
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
    expect(error).toMatchObject({
      name: 'MyPayUnavailable',
      message: expect.stringContaining('no answer within 1000 ms'),
    });
    // The fault holds the request for 60 s: the adapter gave up on its own, long before.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await mypay.authorize()).requestToken).toBeTruthy();
  });

  it('fails the upload and the download with MyPayUnavailable on 5xx / timeout, N times then never again', async () => {
    const { status } = await runImport([row()]);
    await admin('faults', { operation: 'download', kind: '5xx', times: 2 });
    for (let i = 0; i < 2; i++)
      expect((await rejection(mypay.download(status.urlFileIUV!))).name).toBe('MyPayUnavailable');
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
    expect(await rejection(mypay.upload(authorization, zip, fileName))).toMatchObject({
      faultCode: FAULT_TOKEN_ALREADY_USED,
    });
    expect((await mypay.importStatus(authorization.requestToken)).stato).toBe('LOAD_IMPORT');
  });

  it('keeps a stuck import (GPD) in IMPORT_IN_ELAB until released, and fails one with the code asked for, without files', async () => {
    await admin('import', { mode: 'stuck', times: 1 });
    const stuck = await runImport([row()], { maxPolls: 8 });
    expect(stuck.states).toEqual(['LOAD_IMPORT', ...Array(7).fill('IMPORT_IN_ELAB')]);
    await admin('import', { mode: 'release' });
    expect((await mypay.importStatus(stuck.authorization.requestToken)).stato).toBe('IMPORT_ESEGUITO');

    await admin('import', { mode: 'failed', code: 'PAA_IMPORT_NO_MATCH_MD5', times: 1 });
    const failed = await runImport([row()]);
    expect(failed.status).toEqual({
      stato: 'PAA_IMPORT_NO_MATCH_MD5',
      urlFileScarti: undefined,
      urlFileIUV: undefined,
      urlFileAvvisi: undefined,
    });

    const normal = await runImport([row()]); // both switches were for one import
    expect(normal.status.stato).toBe('IMPORT_ESEGUITO');
  });

  it('rejects the rows the switch names (by IUD) or counts', async () => {
    const rows = [row(), row(), row(), row()];
    await admin('reject', { iuds: [rows[3].IUD], count: 1 });
    const { status } = await runImport(rows);
    const scarti = readCsvZip(await mypay.download(status.urlFileScarti!));
    expect(scarti.map((r) => [r.IUD, r.cod_rifiuto])).toEqual([
      [rows[0].IUD, '|PAA_IMPORT_ERROR'],
      [rows[3].IUD, '|PAA_IMPORT_ERROR'],
    ]);
    expect(readCsvZip(await mypay.download(status.urlFileIUV!)).map((r) => r.IUD)).toEqual([rows[1].IUD, rows[2].IUD]);
  });

  it('answers bad switch input with 400 and changes nothing', async () => {
    expect((await admin('faults', { operation: 'paaSILNonEsiste', kind: '5xx' })).status).toBe(400);
    expect((await admin('faults', { operation: 'upload', kind: 'lento' })).status).toBe(400);
    expect((await admin('import', { mode: 'rotto' })).status).toBe(400);
    const state = await (await fetch(`${simulator.url}/admin/state`)).json();
    expect(state.switches).toEqual({
      faults: [],
      importMode: null,
      reject: { iuds: [], count: 0 },
      reuseToken: 0,
      holdReceipts: false,
    });
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
        {
          iud: rows[0].IUD,
          iuv: iuvs[0].codIuv,
          fiscalCode: CITIZENS[0],
          amountCents: 6643,
          paidOn: '2025-06-15',
          iur: expect.stringMatching(/^IUR/),
          causale: rows[0].causaleVersamento,
        },
        {
          iud: rows[1].IUD,
          iuv: iuvs[1].codIuv,
          fiscalCode: CITIZENS[3],
          amountCents: 1205,
          paidOn: '2025-06-15',
          iur: expect.stringMatching(/^IUR/),
          causale: rows[1].causaleVersamento,
        },
      ].sort((a, b) => a.iud.localeCompare(b.iud)),
    );
    expect(await mypay.reportPaid('2025-07-01', '2025-07-31')).toEqual([]);
    // a paid position cannot be modified any more
    const modify = await runImport([row({ IUD: rows[0].IUD, azione: 'M' })]);
    expect(readCsvZip(await mypay.download(modify.status.urlFileScarti!))[0].cod_rifiuto).toBe('PAA_IMPORT_ERROR');
  });

  it('refuses a reversed date range with a fault', async () => {
    expect(await rejection(mypay.reportPaid('2025-07-31', '2025-07-01'))).toMatchObject({
      faultCode: 'PAA_DATE_NON_VALIDE',
    });
  });
});

describe('the local stack', () => {
  it('runs the simulator beside the portal and serves the WSDL at the endpoint the Lambdas are given', async () => {
    const endpoint = inject('myPayEndpoint');
    const wsdl = await (await fetch(`${endpoint}?wsdl`)).text();
    expect(wsdl).toContain('name="paaSILAutorizzaImportFlusso"');
    expect(wsdl).toContain(`location="${endpoint}"`);
    const stackMyPay = mypayClientOn({ endpoint });
    expect((await stackMyPay.authorize()).uploadUrl).toBe(`${new URL(endpoint).origin}/mybox/uploadFlusso`);
  });
});
