/**
 * The MyPay adapter: the SOAP operations of functions/adapters/mypay/pa-per-ente.wsdl (document/literal,
 * soapAction = operation name, header intestazionePPT with codIpaEnte), the MyBox upload and the result
 * file downloads, over fetch.
 *
 * Why not the `soap` package here: a Lambda importing `soap` bundles to ~650 KB minified (axios, form-data,
 * xml-crypto, xmldom, xpath…), over the 150 KB limit of every function. The envelopes are a handful of flat
 * elements, so they are written from templates (every value escaped) and the answers are read with
 * @rgrove/parse-xml (a strict XML 1.0 parser, ~14 KB). The local simulator serves the same WSDL with
 * `soap.listen`, so the integration tests check these envelopes against a real SOAP stack.
 *
 * Errors carry a name a Step Functions Retry/Catch can match:
 * - `MyPayUnavailable`: HTTP 5xx (except a SOAP Client fault), timeout, connection refused, or fault
 *   PAA_SYSTEM_ERROR — retry with backoff;
 * - `MyPayFault`: a fault code in the answer, a refused upload, a 4xx — retrying the same call changes nothing.
 */
import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { dsvFormat } from 'd3-dsv';
import type { MyPay, MyPayAuthorization, MyPayImportStatus, MyPayPaidRow } from './ports/mypay.ts';
import {
  FAULT_TOKEN_ALREADY_USED,
  MYPAY_SCHEMA_NAMESPACE,
  MyPayFault,
  MyPayUnavailable,
  checkoutOperations,
  elements,
  makeSoapClient,
  text,
  type MyPayConfig,
} from './mypay-soap.ts';
import type { MyPayCsvRow } from '../domain/mypay-csv-format.ts';

export {
  FAULT_TOKEN_ALREADY_USED,
  MYPAY_HEAD_NAMESPACE,
  MYPAY_NAMESPACE,
  MyPayFault,
  MyPayUnavailable,
  makeMyPayCheckout,
  myPayConfigFromEnv,
  type MyPayConfig,
} from './mypay-soap.ts';
import { decimalToCents } from '../domain/money.ts';

export function makeMyPay(config: MyPayConfig, fetchImpl: typeof fetch = fetch): MyPay {
  const client = makeSoapClient(config, fetchImpl);
  const { password, call, readBody, soap, required, bytes } = client;
  return {
    ...checkoutOperations(client),
    async authorize() {
      const operation = 'paaSILAutorizzaImportFlusso';
      const answer = await soap(operation, [['password', await password()]]);
      return {
        uploadUrl: required(operation, answer, 'uploadUrl'),
        authorizationToken: required(operation, answer, 'authorizationToken'),
        requestToken: required(operation, answer, 'requestToken'),
        importPath: text(answer, 'importPath') ?? '',
      } satisfies MyPayAuthorization;
    },

    /**
     * MyBox upload (MyPay4 MyBoxController.uploadFlusso): multipart with `authorizationToken` and one file.
     * MyPay4 computes the MD5 of what it stores and writes it beside the file (`<name>.md5`); the adapter
     * also sends its own as the form field `md5` (hex), which the simulator checks — MyPay4 ignores
     * unknown fields. MyBox answers HTTP 200 with `[{fileName, fileSize, fileType}]`, or
     * `[{codice, descrizione}]` when it refuses the file.
     */
    async upload(authorization, zip, fileName) {
      const operation = 'upload';
      const form = new FormData();
      form.set('authorizationToken', authorization.authorizationToken);
      form.set('md5', createHash('md5').update(zip).digest('hex'));
      form.set('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), fileName);
      const response = await call(operation, authorization.uploadUrl, { method: 'POST', body: form });
      const body = await readBody(operation, response);
      if (response.status >= 500) throw new MyPayUnavailable(`${operation}: HTTP ${response.status}`, operation);
      let answer: { codice?: string; descrizione?: string; fileName?: string; fileSize?: string } | undefined;
      try {
        answer = (JSON.parse(body) as (typeof answer)[])[0];
      } catch {
        answer = undefined;
      }
      if (!response.ok || !answer)
        throw new MyPayFault(operation, `HTTP_${response.status}`, 'Risposta non valida', body.slice(0, 200));
      if (answer.codice) {
        // MyBox answers its refusals in words (MyBoxController.uploadByWS, FlussoService.validateFile): the two
        // the export acts on get a code of their own.
        const text = answer.descrizione ?? '';
        const code = /già usato|already used/i.test(text)
          ? FAULT_TOKEN_ALREADY_USED
          : /stesso nome di file/i.test(text)
            ? 'MYBOX_NOME_FILE_DUPLICATO'
            : `MYBOX_${answer.codice}`;
        throw new MyPayFault(operation, code, 'File rifiutato', text);
      }
      if (Number(answer.fileSize) !== zip.byteLength) {
        throw new MyPayFault(
          operation,
          'MYBOX_SIZE',
          `MyBox ha ricevuto ${answer.fileSize} byte invece di ${zip.byteLength}`,
        );
      }
    },

    async importStatus(requestToken, files = { scarti: true, iuv: true, avvisi: true }) {
      const operation = 'paaSILChiediStatoImportFlusso';
      const answer = await soap(operation, [
        ['requestToken', requestToken],
        ['password', await password()],
        ['fileScarti', files.scarti],
        ['fileIUV', files.iuv],
        ['fileAvvisi', files.avvisi],
      ]);
      return {
        stato: required(operation, answer, 'stato'),
        urlFileScarti: text(answer, 'urlFileScarti'),
        urlFileIUV: text(answer, 'urlFileIUV'),
        urlFileAvvisi: text(answer, 'urlFileAvvisi'),
      } satisfies MyPayImportStatus;
    },

    download: (url) => bytes('download', url),

    /**
     * One position through paaSILImportaDovuto (MyPay4 DovutoService.importDovuto): the row as a Base64
     * `Versamento` (PagInf_Dovuti_Pagati_6_2_0.xsd), flagGeneraIuv beside it. Answers the IUV MyPay generated,
     * if it did, and the link to that notice's PDF MyPay gives with it (urlFileAvviso: MyPay4 DovutoService.importDovuto
     * answers one for an 'I' or 'M' whose IUV it generated); a refusal is the MyPayFault with MyPay's code
     * (PAA_IMPORT_IUD_DUPLICATO for an IUD it holds).
     */
    async importDovuto(row) {
      const operation = 'paaSILImportaDovuto';
      const answer = await soap(operation, [
        ['password', await password()],
        ['dovuto', Buffer.from(versamentoXml(row), 'utf8').toString('base64')],
        ['flagGeneraIuv', row.flagGeneraIuv === 'true'],
      ]);
      return {
        iuv: text(answer, 'identificativoUnivocoVersamento') ?? null,
        noticeUrl: text(answer, 'urlFileAvviso') ?? null,
      };
    },

    async reportPaid(from, to) {
      const book = 'paaSILPrenotaExportFlusso';
      const booked = await soap(book, [
        ['password', await password()],
        ['dateFrom', from],
        ['dateTo', to],
        ['versioneTracciato', '1.0'],
      ]);
      const requestToken = required(book, booked, 'requestToken');
      const operation = 'paaSILChiediStatoExportFlusso';
      for (let poll = 0; poll < (config.exportMaxPolls ?? 30); poll++) {
        const answer = await soap(operation, [
          ['password', await password()],
          ['requestToken', requestToken],
        ]);
        const stato = required(operation, answer, 'stato');
        if (stato === 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO') return [];
        if (stato === 'EXPORT_ESEGUITO')
          return parsePaidExport(await bytes('download', required(operation, answer, 'downloadUrl')));
        if (stato !== 'LOAD_EXPORT' && stato !== 'EXPORT_IN_ELAB')
          throw new MyPayFault(operation, stato, 'Export non riuscito');
        await new Promise((resolve) => setTimeout(resolve, config.exportPollMs ?? 2000));
      }
      throw new MyPayUnavailable(
        `${operation}: export ${requestToken} not ready after ${config.exportMaxPolls ?? 30} polls`,
        operation,
      );
    },
  };
}

const semicolonSeparated = dsvFormat(';');

/** A row of the import CSV as the `Versamento` paaSILImportaDovuto takes (ctVersamento, in the schema's order). */
export function versamentoXml(row: MyPayCsvRow): string {
  const optional = (value: string) => value || undefined;
  const payer = elements([
    [
      'identificativoUnivocoPagatore',
      {
        xml: elements([
          ['tipoIdentificativoUnivoco', row.tipoIdentificativoUnivoco],
          ['codiceIdentificativoUnivoco', row.codiceIdentificativoUnivoco],
        ]),
      },
    ],
    ['anagraficaPagatore', row.anagraficaPagatore],
    ['indirizzoPagatore', optional(row.indirizzoPagatore)],
    ['civicoPagatore', optional(row.civicoPagatore)],
    ['capPagatore', optional(row.capPagatore)],
    ['localitaPagatore', optional(row.localitaPagatore)],
    ['provinciaPagatore', optional(row.provinciaPagatore)],
    ['nazionePagatore', optional(row.nazionePagatore)],
    ['e-mailPagatore', optional(row.mailPagatore)],
  ]);
  const dati = elements([
    ['dataEsecuzionePagamento', optional(row.dataEsecuzionePagamento)],
    ['tipoVersamento', optional(row.tipoVersamento)],
    ['identificativoUnivocoVersamento', optional(row.codIuv)],
    ['identificativoUnivocoDovuto', row.IUD],
    ['importoSingoloVersamento', row.importoDovuto],
    ['commissioneCaricoPA', optional(row.commissioneCaricoPa)],
    ['identificativoTipoDovuto', row.tipoDovuto],
    ['causaleVersamento', row.causaleVersamento],
    ['datiSpecificiRiscossione', row.datiSpecificiRiscossione],
    ['bilancio', row.bilancio ? { xml: row.bilancio.replace(/^<bilancio>|<\/bilancio>$/g, '') } : undefined],
  ]);
  return (
    `<?xml version="1.0" encoding="UTF-8"?><Versamento xmlns="${MYPAY_SCHEMA_NAMESPACE}">` +
    elements([
      ['versioneOggetto', '6.2.0'],
      ['soggettoPagatore', { xml: payer }],
      ['datiVersamento', { xml: dati }],
      ['azione', row.azione],
    ]) +
    `</Versamento>`
  );
}

/**
 * Whether a row of MyPay's export is a payment. MyPay writes esitoSingoloPagamento as it got the receipt:
 * `0` for pagoPA's paSendRT (SendRtOutcomeService.java, CODICE_ESITO_PAGAMENTO_ESEGUITO), `PAGATO CON
 * RENDICONTAZIONE 9` for a payment known only from the reporting (Constants.PAGATO_CON_RENDICONTAZIONE_9), or
 * the receipt's own text on the older paths; a negative outcome is codiceEsitoPagamento 1 or a text such as
 * 'NON PAGATO' (EsitoService.java). So: an amount above zero, not a negative code, not a negative text.
 */
export function isPaidRow(row: {
  codiceEsitoPagamento?: string;
  esitoSingoloPagamento?: string;
  singoloImportoPagato?: string;
}): boolean {
  const amount = (row.singoloImportoPagato ?? '').trim();
  if (!/^\d+(\.\d{1,2})?$/.test(amount) || decimalToCents(amount) <= 0) return false;
  if ((row.codiceEsitoPagamento ?? '').trim() === '1') return false;
  return !/^\s*non\b/i.test(row.esitoSingoloPagamento ?? '');
}

/** The reporting ZIP: one CSV (`;`, header line) with MyPay's export columns; the paid rows. */
export function parsePaidExport(zip: Uint8Array): MyPayPaidRow[] {
  const files = Object.entries(unzipSync(zip)).filter(([name]) => name.toLowerCase().endsWith('.csv'));
  const rows: MyPayPaidRow[] = [];
  for (const [, content] of files) {
    // d3-dsv (~3 KB) rather than papaparse (~20 KB): the reporting function must stay under 150 KB.
    const parsed = semicolonSeparated.parse(
      strFromU8(content)
        .replace(/^\uFEFF/, '')
        .replace(/(\r?\n)+$/, ''),
    );
    for (const row of parsed) {
      if (!row.codIud && !row.codIuv) continue; // a blank line
      if (!isPaidRow(row)) continue;
      rows.push({
        iud: row.codIud ?? '',
        iuv: row.codIuv || row.identificativoUnivocoVersamento || '',
        fiscalCode: row.soggPagCodiceIdentificativoUnivoco ?? '',
        amountCents: decimalToCents(row.singoloImportoPagato || '0'),
        paidOn: (row.dataEsitoSingoloPagamento ?? '').slice(0, 10),
        iur: row.identificativoUnivocoRiscoss ?? '',
        causale: row.causaleVersamento ?? '',
      });
    }
  }
  return rows;
}
