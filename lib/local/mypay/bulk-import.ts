/**
 * The bulk import, as MyPay4 runs it: paaSILAutorizzaImportFlusso hands out the tokens, MyBox takes the ZIP
 * (POST /mybox/uploadFlusso), the batch reads it row by row, paaSILChiediStatoImportFlusso reports its
 * progress and the result ZIPs (IUV, SCARTI, AVVISI) are downloaded from MyBox; paaSILImportaDovuto takes
 * one position at a time.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseXml, XmlElement } from '@rgrove/parse-xml';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { isMyPayFiscalCode } from './fiscal-code.ts';
import { json, readBody } from './http.ts';
import { TIPI_VERSAMENTO, type ImportRecord, type Position } from './model.ts';
import { renderNotice } from './notice.ts';
import {
  bilancioTotal,
  centsFromDouble,
  LAYOUTS,
  MAX_AMOUNT_CENTS,
  readImportLine,
  SUPPORTED_VERSIONS,
  validateRow,
  type RowRejection,
} from './rows.ts';
import { entityChecker, SoapFault, str, withFaults } from './soap.ts';
import type { SimulatorStore } from './store.ts';
import { centsFromDecimal, childOf, decimalFromCents, isRealDate, localName, now, textOf, token } from './values.ts';

export function createBulkImport(store: SimulatorStore) {
  const { url, entity, state, switches, save, positionKey, newIuv, storeFile, filesDirectory } = store;
  /** A download link to a file MyPay deleted: refused as any unknown file. */
  const missingFile = (name: string) => `${url}/mybox/download/${token()}/${encodeURIComponent(name)}`;
  const checkEntity = entityChecker(entity);

  // ——— the import ———
  /**
   * MyPay4's batch on one uploaded file (ImportFlussoTaskService.validaFlusso): the name's three parts, the
   * entity, the version and the MD5 (verificaNomeVersioneFile), the CSV named as the ZIP, the IUF not loaded
   * before nor loading (update_insert_flusso: PAA_IMPORT_FLUSSO_DUPLICATO, PAA_IMPORT_FLUSSO_IN_CARICAMENTO);
   * any of those fails the whole import with its code. Then every line (elaboraCsv): read by position,
   * checked, inserted, modified or cancelled; a refused one goes to SCARTI with its codes.
   */
  async function processImport(record: ImportRecord, zip: Uint8Array) {
    const e = entity(record.codIpa)!;
    const name = record.fileName!.replace(/\.zip$/i, '');
    const parts = name.split('-');
    const fail = (code: string) => void (record.codErrore = code);
    if (parts.length !== 3) return fail('PAA_IMPORT_NOME_FILE_ERR');
    const [codIpaOfFile, iuf, version] = parts as [string, string, string];
    record.iuf = iuf;
    if (codIpaOfFile.toLowerCase() !== e.codIpa.toLowerCase())
      return fail(`PAA_IMPORT_ENTE_ERR(${codIpaOfFile},${e.codIpa})`);
    if (!SUPPORTED_VERSIONS.includes(version)) return fail(`PAA_IMPORT_FILE_VERSIONE_ERR(${version})`);
    if (createHash('md5').update(zip).digest('hex') !== record.md5) return fail('PAA_IMPORT_NO_MATCH_MD5');
    const sameIuf = Object.values(state.imports).filter(
      (i) => i !== record && i.codIpa === record.codIpa && i.iuf === iuf,
    );
    if (sameIuf.some((i) => i.state === 'IMPORT_ESEGUITO' && !i.codErrore)) return fail('PAA_IMPORT_FLUSSO_DUPLICATO');
    if (sameIuf.some((i) => i.state === 'LOAD_IMPORT' || i.state === 'IMPORT_IN_ELAB'))
      return fail('PAA_IMPORT_FLUSSO_IN_CARICAMENTO');
    let csvText: string;
    try {
      const csv = Object.entries(unzipSync(zip)).find(([entry]) => entry === `${name}.csv`);
      if (!csv) return fail('PAA_IMPORT_NO_CSV');
      csvText = strFromU8(csv[1]);
    } catch {
      return fail('PAA_IMPORT_NO_CSV');
    }
    // A PAA_IMPORT_ERROR comes from elaboraCsv, after the rows went in (failStage); any other code fails the
    // import before its first row (validaFlusso), as before.
    const failsAfterRows = record.mode === 'failed' && record.failStage !== undefined;
    if (record.mode === 'failed' && !failsAfterRows) return fail(record.failWith ?? 'PAA_IMPORT_ERROR');
    const failAt = (stage: string) => failsAfterRows && record.failStage === stage;
    record.rowsInserted = true;

    // BufferedReader.readLine: one record per line; the first line is the header, written back as it is.
    const [header = '', ...lines] = csvText.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
    const accepted: string[] = [];
    const rejected: string[] = [];
    const notices: Position[] = [];
    const loaded = new Set<string>();
    let toReject = switches.reject.count;
    switches.reject.count = 0;
    let index = 0;
    for (const line of lines) {
      if (!line.trim()) continue;
      // elaboraCsv's generic catch (ImportFlussoTaskService.java:883): the rows before it stay inserted.
      if (failAt('righe') && loaded.size >= (record.failAfterRows ?? 0)) {
        record.codErrore = 'PAA_IMPORT_ERROR';
        break;
      }
      // Let status polls and other requests in while a large file is processed.
      if (++index % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
      const { row, syntax } = readImportLine(line, version);
      const iud = row.IUD!;
      const key = positionKey(record.codIpa, iud);
      let rejection: RowRejection | null = syntax.length
        ? { code: 'PAA_IMPORT_SINTASSI_CSV', reason: syntax.map((text) => `|${text}`).join('') }
        : null;
      if (!rejection && loaded.has(iud))
        rejection = {
          code: 'PAA_IMPORT_IUD_DUPLICATO',
          reason: "Errore IUD duplicato all''interno dello stesso flusso",
        };
      if (!rejection && !['I', 'M', 'A'].includes(row.azione!)) {
        rejection = {
          code: 'PAA_IMPORT_SINTASSI_CSV_AZIONE',
          reason:
            "Errore sintassi CSV campo azione. Per maggiori informazioni fare riferimento al manuale 'Integrazione Ente'",
        };
      }
      rejection ??= validateRow(row, state.positions[key], e);
      if (!rejection && (switches.reject.iuds.includes(iud) || toReject > 0)) {
        if (!switches.reject.iuds.includes(iud)) toReject -= 1;
        rejection = { code: '|PAA_IMPORT_ERROR', reason: '|Riga rifiutata dal simulatore (interruttore di prova)' };
      }
      if (rejection) {
        rejected.push(`${line};${rejection.code};${rejection.reason}`);
        continue;
      }
      loaded.add(iud);
      const existing = state.positions[key];
      const azione = row.azione!;
      const iuv =
        existing?.iuv ?? (row.flagGeneraIuv!.toLowerCase() === 'true' && !row.codIuv ? newIuv(e) : row.codIuv!);
      const position: Position = {
        codIpa: record.codIpa,
        iud,
        iuv,
        status: azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: azione === 'A' ? (existing?.amountCents ?? 0) : centsFromDouble(row.importoDovuto!),
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco!,
        fiscalCode: row.codiceIdentificativoUnivoco!,
        anagrafica: row.anagraficaPagatore!,
        email: row.mailPagatore!,
        causale: row.causaleVersamento!,
        dueDate: row.dataEsecuzionePagamento!,
        tipoDovuto: row.tipoDovuto!,
        datiSpecificiRiscossione: row.datiSpecificiRiscossione!,
        updatedAt: now(),
        cap: row.capPagatore ?? '',
        nazione: row.nazionePagatore ?? '',
        flow: record.requestToken,
      };
      state.positions[key] = position;
      // creaRigaFileScartiOriIuv: the fields joined by ';' as they are, unquoted, the IUV filled in.
      const amount = (cents: number) => decimalFromCents(cents);
      accepted.push(
        [
          iud,
          iuv,
          row.tipoIdentificativoUnivoco,
          row.codiceIdentificativoUnivoco,
          row.anagraficaPagatore,
          row.indirizzoPagatore,
          row.civicoPagatore,
          row.capPagatore,
          row.localitaPagatore,
          row.provinciaPagatore,
          row.nazionePagatore,
          row.mailPagatore,
          row.dataEsecuzionePagamento,
          amount(centsFromDouble(row.importoDovuto!)),
          row.commissioneCaricoPa ? amount(centsFromDouble(row.commissioneCaricoPa)) : '',
          row.tipoDovuto,
          row.tipoVersamento || 'ALL',
          row.causaleVersamento,
          row.datiSpecificiRiscossione,
          ...(LAYOUTS[version]!.bilancio ? [row.bilancio] : []),
          ...(LAYOUTS[version]!.flag ? [row.flagGeneraIuv] : []),
          azione,
        ].join(';'),
      );
      if (azione !== 'A' && row.flagGeneraIuv!.toLowerCase() === 'true') notices.push(position);
    }
    const file = (lines_: string[], headerLine: string) => strToU8(`${headerLine}\n${lines_.join('\n')}\n`);
    // MyPay4 writes each file after the rows are in (elaboraCsv:873-981). A file whose writing failed is deleted,
    // but the status still offers it as the counts say (paaSILChiediStatoImportFlusso): its download is refused.
    const failed = (stage: string, fileName: string) => {
      record.codErrore = 'PAA_IMPORT_ERROR';
      record.failedFiles = [...(record.failedFiles ?? []), stage];
      return missingFile(fileName);
    };
    const readAll = !record.codErrore;
    if (rejected.length && readAll)
      record.files.scarti = failAt('scarti')
        ? failed('scarti', `${name}_SCARTI.zip`)
        : storeFile(
            `${name}_SCARTI.zip`,
            zipSync({ [`${name}_SCARTI.csv`]: file(rejected, `${header};cod_rifiuto;de_rifiuto`) }),
          );
    // The IUV file's rows are written only while no error was met before it: after one, the header alone.
    if (accepted.length)
      record.files.iuv = failAt('iuv')
        ? failed('iuv', `${name}_IUV.zip`)
        : storeFile(
            `${name}_IUV.zip`,
            zipSync({ [`${name}_IUV.csv`]: file(record.codErrore ? [] : accepted, header) }),
          );
    // Notices only for layouts 1_3 and 1_4, for the rows whose IUV MyPay generated (elaboraCsv).
    if (notices.length && (version === '1_3' || version === '1_4')) {
      const pdfs: Record<string, Uint8Array> = {};
      for (const position of notices) pdfs[`avviso_${position.iuv}.pdf`] = renderNotice(position, e);
      record.files.avvisi = failAt('avvisi')
        ? failed('avvisi', `${name}_AVVISI_PDF.zip`)
        : storeFile(`${name}_AVVISI_PDF.zip`, zipSync(pdfs, { level: 0 }));
    }
    record.rows = accepted.length + rejected.length;
    record.accepted = accepted.length;
    record.rejected = rejected.length;
  }

  const operations = {
    paaSILAutorizzaImportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const authorizationToken = token();
      let requestToken: string;
      const used = Object.values(state.imports).filter((i) => i.codIpa === e.codIpa && i.state !== 'AUTORIZZATO');
      if (switches.reuseToken > 0 && used.length) {
        switches.reuseToken -= 1;
        requestToken = used[used.length - 1].requestToken;
      } else {
        requestToken = randomUUID();
        state.imports[requestToken] = {
          requestToken,
          codIpa: e.codIpa,
          createdAt: now(),
          state: 'AUTORIZZATO',
          mode: 'normal',
          files: {},
        };
      }
      state.authorizations[authorizationToken] = requestToken;
      await save();
      return {
        uploadUrl: `${url}/mybox/uploadFlusso`,
        authorizationToken,
        requestToken,
        importPath: `${e.codIpa}/IMPORT`,
      };
    }),

    paaSILChiediStatoImportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const record = state.imports[str(args.requestToken) ?? ''];
      // MyPay4 knows an import from its upload on (ImportDovutiService.insert): before, or for another
      // entity, the token is unknown (PagamentiTelematiciDovutiPagatiHelper.verificaImportDovuti).
      if (!record || record.codIpa !== e.codIpa || record.state === 'AUTORIZZATO') {
        throw new SoapFault(
          'PAA_REQUEST_TOKEN_NON_VALIDO',
          'Request token non valido',
          `nessun record trovato per Ente [${e.codIpa}] e requestToken [${str(args.requestToken) ?? ''}]`,
        );
      }
      // A failed import answers its error code instead of a state.
      const answer = (stato: string) => {
        const files = record.state === 'IMPORT_ESEGUITO' ? record.files : {};
        return {
          stato: record.codErrore || stato,
          ...(args.fileScarti && files.scarti ? { urlFileScarti: files.scarti } : {}),
          ...(args.fileIUV && files.iuv ? { urlFileIUV: files.iuv } : {}),
          ...(args.fileAvvisi && files.avvisi ? { urlFileAvvisi: files.avvisi } : {}),
        };
      };
      if (record.state === 'LOAD_IMPORT') {
        record.state = 'IMPORT_IN_ELAB';
        await save();
        return { stato: 'LOAD_IMPORT' };
      }
      // Every import is seen IMPORT_IN_ELAB at least once, however quick the processing.
      if (record.state === 'IMPORT_IN_ELAB' && !record.elabReported) {
        record.elabReported = true;
        return { stato: 'IMPORT_IN_ELAB' };
      }
      // 'stuck' stands for an entity with GPD enabled: IMPORT_IN_ELAB until pagoPA has the positions.
      if (record.state === 'IMPORT_IN_ELAB' && record.processed && record.mode !== 'stuck') {
        // A failure before the rows aborts the import; one after them (PAA_IMPORT_ERROR) leaves it IMPORT_ESEGUITO
        // with its code (validaFlusso:650-660: IMPORT_ABORTITO only when the elaboration never ran).
        record.state = record.codErrore && !record.rowsInserted ? 'IMPORT_ABORTITO' : 'IMPORT_ESEGUITO';
        await save();
      }
      return answer(record.state);
    }),

    /**
     * One position, as MyPay4's DovutoService.importDovuto takes it: `dovuto` is a Base64 `Versamento` XML
     * (PagInf_Dovuti_Pagati_6_2_0.xsd: versioneOggetto, soggettoPagatore, datiVersamento, azione), checked as
     * it checks it, each refusal a fault with MyPay's code and esito KO.
     */
    paaSILImportaDovuto: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const generate = String(args.flagGeneraIuv ?? '') === 'true';
      let versamento: XmlElement;
      try {
        versamento = parseXml(Buffer.from(str(args.dovuto) ?? '', 'base64').toString('utf8')).root!;
        if (
          localName(versamento.name) !== 'Versamento' ||
          !textOf(versamento, 'versioneOggetto') ||
          !childOf(versamento, 'datiVersamento') ||
          !textOf(versamento, 'azione')
        )
          throw new Error('Versamento');
      } catch {
        throw new SoapFault(
          'PAA_XML_NON_VALIDO',
          'XML dei dovuti non valido',
          `XML ricevuto per paaSILImportaDovuto non conforme all' XSD per ente [${e.codIpa}]`,
        );
      }
      const azione = textOf(versamento, 'azione');
      if (!['I', 'M', 'A', 'S'].includes(azione))
        throw new SoapFault('PAA_AZIONE_NON_VALIDO', `azione non valida [${azione}]`);
      const dati = childOf(versamento, 'datiVersamento');
      const payer = childOf(versamento, 'soggettoPagatore');
      const id = childOf(payer, 'identificativoUnivocoPagatore');
      const bilancio = childOf(dati, 'bilancio');
      const row: Record<string, string> = {
        IUD: textOf(dati, 'identificativoUnivocoDovuto'),
        codIuv: textOf(dati, 'identificativoUnivocoVersamento'),
        tipoIdentificativoUnivoco: textOf(id, 'tipoIdentificativoUnivoco').toUpperCase(),
        codiceIdentificativoUnivoco: textOf(id, 'codiceIdentificativoUnivoco').toUpperCase(),
        anagraficaPagatore: textOf(payer, 'anagraficaPagatore'),
        civicoPagatore: textOf(payer, 'civicoPagatore'),
        capPagatore: textOf(payer, 'capPagatore'),
        provinciaPagatore: textOf(payer, 'provinciaPagatore'),
        nazionePagatore: textOf(payer, 'nazionePagatore'),
        mailPagatore: textOf(payer, 'e-mailPagatore'),
        dataEsecuzionePagamento: textOf(dati, 'dataEsecuzionePagamento'),
        importoDovuto: textOf(dati, 'importoSingoloVersamento'),
        commissioneCaricoPa: textOf(dati, 'commissioneCaricoPA'),
        tipoDovuto: textOf(dati, 'identificativoTipoDovuto'),
        tipoVersamento: textOf(dati, 'tipoVersamento'),
        causaleVersamento: textOf(dati, 'causaleVersamento'),
        datiSpecificiRiscossione: textOf(dati, 'datiSpecificiRiscossione'),
        bilancio: bilancio ? 'bilancio' : '',
        flagGeneraIuv: String(generate),
        azione,
      };
      if (row.dataEsecuzionePagamento && !isRealDate(row.dataEsecuzionePagamento))
        throw new SoapFault('PAA_XML_NON_VALIDO', 'XML dei dovuti non valido', 'dataEsecuzionePagamento: xsd:date');
      const amount = /^\d{1,9}\.\d{2}$/.test(row.importoDovuto) ? centsFromDecimal(row.importoDovuto) : Number.NaN;
      // The checks of DovutoService.importDovuto, in its order.
      if (
        row.codIuv &&
        (row.codIuv.length === 17
          ? !generate && !row.codIuv.startsWith(e.segregationCode)
          : row.codIuv.length === 15
            ? row.codIuv.startsWith('00')
            : row.codIuv.length !== 25)
      ) {
        throw new SoapFault(
          'PAA_IUV_NON_VALIDO',
          `IdentificativoUnivocoVersamento non valido [${row.codIuv}] per ente [${e.codIpa}]`,
        );
      }
      if (!(amount > 0) || amount > MAX_AMOUNT_CENTS)
        throw new SoapFault(
          'PAA_IMPORTO_SINGOLO_VERSAMENTO_NON_VALIDO',
          `ImportoSingoloVersamento non valido: ${row.importoDovuto}]`,
        );
      if (bilancio && bilancioTotal(bilancio) !== amount)
        throw new SoapFault(
          'PAA_IMPORTO_BILANCIO_NON_VALIDO',
          `Importo bilancio non congruente per dovuto con importo [${row.importoDovuto}]`,
        );
      if (!row.tipoDovuto)
        throw new SoapFault(
          'PAA_IDENT_TIPO_DOVUTO_NON_PRESENTE',
          'paaSILImportaDovuto: identificativoTipoDovuto non specificato ',
        );
      if (e.tipiDovuto[row.tipoDovuto] === undefined)
        throw new SoapFault(
          'PAA_IDENTIFICATIVO_TIPO_DOVUTO_NON_VALIDO',
          `Error tipo dovuto [${row.tipoDovuto}] non censito per ente [${e.codIpa}]`,
        );
      if (!e.tipiDovuto[row.tipoDovuto])
        throw new SoapFault(
          'PAA_IDENTIFICATIVO_TIPO_DOVUTO_NON_ABILITATO',
          `identificativoTipoDovuto [${row.tipoDovuto}] non abilitato`,
        );
      if (!payer)
        throw new SoapFault('PAA_SOGG_PAG_NON_VALORIZZATO', 'paaSILImportaDovuto: soggettoPagatore non valorizzato. ');
      if (
        row.tipoVersamento &&
        row.tipoVersamento.split('|').some((token) => !TIPI_VERSAMENTO.has(token.trim().toUpperCase()))
      )
        throw new SoapFault(
          'PAA_TIPO_VERSAMENTO_NON_VALIDO',
          `paaSILImportaDovuto: Tipo versamento non valido: ${row.tipoVersamento}`,
        );
      if (!row.IUD || row.IUD.startsWith('000'))
        throw new SoapFault(
          'PAA_IUD_NON_VALIDO',
          `paaSILImportaDovuto: IdentificativoUnivocoDovuto non valido: ${row.IUD}`,
        );
      if (!row.causaleVersamento.trim())
        throw new SoapFault('PAA_CAUSALE_NON_PRESENTE', 'paaSILImportaDovuto: causaleVersamento non specificato ');
      if (!/^[0129]\/\S{3,138}$/.test(row.datiSpecificiRiscossione))
        throw new SoapFault(
          'PAA_DATI_SPECIFICI_RISCOSSIONE_NON_VALIDO',
          `paaSILImportaDovuto: DatiSpecificiRiscossione non valido: ${row.datiSpecificiRiscossione}`,
        );
      if (row.tipoIdentificativoUnivoco === 'F' && !isMyPayFiscalCode(row.codiceIdentificativoUnivoco))
        throw new SoapFault(
          'PAA_CODICE_FISCALE_NON_VALIDO',
          `paaSILImportaDovuto: Codice fiscale non valido [${row.codiceIdentificativoUnivoco}]`,
        );
      if (row.tipoIdentificativoUnivoco === 'G' && !/^\d{11}$/.test(row.codiceIdentificativoUnivoco))
        throw new SoapFault(
          'PAA_P_IVA_NON_VALIDO',
          `paaSILImportaDovuto: P.IVA non valida [${row.codiceIdentificativoUnivoco}]`,
        );
      const key = positionKey(e.codIpa, row.IUD);
      const existing = state.positions[key];
      // The database functions' own refusals (insert_mygov_dovuto, modify_mygov_dovuto).
      if (azione === 'I' && existing)
        throw new SoapFault(
          'PAA_IMPORT_IUD_DUPLICATO',
          `paaSILImportaDovuto: Errore import dovuto IUV [${row.codIuv}] e IUD [${row.IUD}]: IUD attivo presente nel database, non si accettano dovuti duplicati`,
        );
      if ((azione === 'M' || azione === 'A') && (!existing || existing.status !== 'DA_PAGARE')) {
        throw new SoapFault(
          'PAA_IMPORT_DOVUTO_NON_PRESENTE',
          `paaSILImportaDovuto: Errore import dovuto IUV [${row.codIuv}] e IUD [${row.IUD}]: Dovuto non presente o in pagamento nel database, impossibile modificarlo`,
        );
      }
      if (azione === 'S') {
        if (!existing) throw new SoapFault('PAA_IUV_NON_VALIDO', `Nessun dovuto con IUV [${row.codIuv}]`);
        return {
          esito: 'OK',
          identificativoUnivocoVersamento: existing.iuv,
          urlFileAvviso: storeFile(`avviso_${existing.iuv}.pdf`, renderNotice(existing, e)),
        };
      }
      // DovutoService.importDovuto: 'I' and 'M' without an IUV and with flagGeneraIuv get a new one, which
      // modify_mygov_dovuto puts in place of the old (mypay4-db: "SE HO NEW E <> OLD"); 'M' without either keeps it.
      const generated = generate && !row.codIuv && azione !== 'A' ? newIuv(e) : null;
      const iuv = generated ?? (row.codIuv || existing?.iuv || '');
      const position: Position = {
        codIpa: e.codIpa,
        iud: row.IUD,
        iuv,
        status: azione === 'A' ? 'ANNULLATO' : 'DA_PAGARE',
        amountCents: amount,
        tipoIdentificativoUnivoco: row.tipoIdentificativoUnivoco,
        fiscalCode: row.codiceIdentificativoUnivoco,
        anagrafica: row.anagraficaPagatore,
        email: row.mailPagatore,
        causale: row.causaleVersamento,
        dueDate: row.dataEsecuzionePagamento,
        tipoDovuto: row.tipoDovuto,
        datiSpecificiRiscossione: row.datiSpecificiRiscossione,
        updatedAt: now(),
        cap: row.capPagatore,
        nazione: row.nazionePagatore,
      };
      state.positions[key] = position;
      // A notice link when MyPay generated the IUV of a new or changed position (DovutoService, end of importDovuto).
      const urlFileAvviso =
        iuv && generate && azione !== 'A' ? storeFile(`avviso_${iuv}.pdf`, renderNotice(position, e)) : undefined;
      await save();
      return { esito: 'OK', identificativoUnivocoVersamento: iuv, ...(urlFileAvviso ? { urlFileAvviso } : {}) };
    }),
  };

  /**
   * MyBox's upload (MyPay4 MyBoxController.uploadByWS, FlussoService.validateFile, MyBoxService.uploadFile):
   * HTTP 200 with `[{fileName, fileSize, fileType}]`, or `[{codice, descrizione}]` when refused — a request
   * token already used (codice 500), a file that is not a ZIP, a ZIP whose entries are not named as it, a
   * name that does not start with the entity's code or that MyPay already received (codice 400). MyPay
   * computes the file's MD5 on receipt; the adapter's own `md5` field (which MyPay4 ignores) stands here for
   * a file damaged on the way: when it differs, the MD5 kept is the adapter's and the import then fails
   * PAA_IMPORT_NO_MATCH_MD5, as MyPay's would. The name's parts, version and entity are checked by the
   * import (processImport), not here.
   */
  async function upload(req: IncomingMessage, res: ServerResponse) {
    const refuse = (codice: string, descrizione: string) =>
      json(res, 200, [{ codice, descrizione: `[${randomUUID().slice(0, 8)}] ${descrizione}` }]);
    let form: FormData;
    try {
      const body = await readBody(req);
      form = await new Request(`${url}${req.url}`, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: new Uint8Array(body),
      }).formData();
    } catch {
      return refuse('400', 'request multipart non valida');
    }
    const query = new URL(req.url ?? '/', url).searchParams;
    const authorizationToken = String(form.get('authorizationToken') ?? query.get('authorizationToken') ?? '');
    const files = [...form.values()].filter((v): v is File => v instanceof File && v.size > 0);
    if (files.length !== 1)
      return refuse(
        '400',
        files.length
          ? `request multipart non valida, file presenti: ${files.length}`
          : 'request multipart non valida, file non presente',
      );
    const file = files[0]!;
    const requestToken = state.authorizations[authorizationToken];
    const record = requestToken ? state.imports[requestToken] : undefined;
    if (!record) return refuse('500', 'Authorization token non valido');
    if (record.state !== 'AUTORIZZATO') return refuse('500', 'Request token già usato');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!file.name.toLowerCase().endsWith('.zip'))
      return refuse('400', `Il formato del file [${file.name}] deve essere lo zip.`);
    const base = file.name.slice(0, -4);
    try {
      for (const entry of Object.keys(unzipSync(bytes))) {
        if (!entry.startsWith(`${base}.`))
          return refuse(
            '400',
            `Il nome del file contenuto [${entry}] deve essere uguale al nome dello zip [${base}.zip].`,
          );
      }
    } catch {
      return refuse('400', `Verificato un errore durante la lettura dello zip caricato [${file.name}].`);
    }
    if (!file.name.startsWith(record.codIpa))
      return refuse('400', `Il nome del file [${file.name}] deve iniziare col codice dell'ente.`);
    const received = (state.fileNames[record.codIpa] ??= []);
    if (received.includes(file.name)) return refuse('400', `Lo stesso nome di file [${file.name}] esiste gia'.`);
    received.push(file.name);
    const md5 = createHash('md5').update(bytes).digest('hex');
    const declared = String(form.get('md5') ?? '')
      .trim()
      .toLowerCase();
    fs.writeFileSync(path.join(filesDirectory, `${record.requestToken}-${file.name}`), bytes);
    record.md5 = declared || md5;
    record.fileName = file.name;
    record.uploadedAt = now();
    record.state = 'LOAD_IMPORT';
    if (switches.importMode && (switches.importMode.remaining === null || switches.importMode.remaining > 0)) {
      record.mode = switches.importMode.mode;
      if (switches.importMode.code) record.failWith = switches.importMode.code;
      if (switches.importMode.stage) {
        record.failStage = switches.importMode.stage;
        record.failAfterRows = switches.importMode.afterRows;
      }
      if (switches.importMode.remaining !== null && --switches.importMode.remaining <= 0) switches.importMode = null;
    }
    await save();
    json(res, 200, [
      { fileName: file.name, fileSize: String(bytes.byteLength), fileType: file.type || 'application/zip' },
    ]);
    // The import runs in the background, as MyPay's batch does; the status polls report its progress.
    setImmediate(() => {
      processImport(record, bytes)
        .catch((error) => {
          record.codErrore = 'PAA_IMPORT_ERROR';
          console.warn(`Simulatore MyPay: import ${record.fileName} non elaborato: ${(error as Error).message}`);
        })
        .finally(() => {
          record.processed = true;
          void save();
        });
    });
  }

  function download(req: IncomingMessage, res: ServerResponse, downloadToken: string) {
    const stored = state.downloads[downloadToken];
    const file = stored && path.join(filesDirectory, stored);
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('File non disponibile');
    }
    const name = stored.slice(37);
    res.writeHead(200, {
      'content-type': name.endsWith('.pdf') ? 'application/pdf' : 'application/zip',
      'content-disposition': `attachment; filename="${name}"`,
    });
    fs.createReadStream(file).pipe(res);
  }

  return { operations, upload, download };
}
