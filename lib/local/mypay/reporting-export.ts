/**
 * The reporting export: paaSILPrenotaExportFlusso books it, paaSILChiediStatoExportFlusso reports its progress
 * and, once done, the ZIP of the CSV of the payments in the period (MyPay's "export pagati" layout 1.0).
 */
import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import Papa from 'papaparse';
import { EXPORT_COLUMNS, type PaymentRecord } from './model.ts';
import { entityChecker, SoapFault, str, withFaults } from './soap.ts';
import type { SimulatorStore } from './store.ts';
import { decimalFromCents, isRealDate } from './values.ts';

export function createReportingExport(store: SimulatorStore) {
  const { entity, state, save, storeFile } = store;
  const checkEntity = entityChecker(entity);

  const operations = {
    paaSILPrenotaExportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const from = String(str(args.dateFrom) ?? '').slice(0, 10);
      const to = String(str(args.dateTo) ?? '').slice(0, 10);
      if (!isRealDate(from) || !isRealDate(to) || from > to)
        throw new SoapFault('PAA_DATE_NON_VALIDE', 'dateFrom/dateTo non validi');
      const requestToken = randomUUID();
      state.exports[requestToken] = { requestToken, codIpa: e.codIpa, from, to, polls: 0, state: 'LOAD_EXPORT' };
      await save();
      return { requestToken };
    }),

    paaSILChiediStatoExportFlusso: withFaults(async (args, headers) => {
      const e = checkEntity(headers?.intestazionePPT?.codIpaEnte, str(args.password));
      const record = state.exports[str(args.requestToken) ?? ''];
      if (!record || record.codIpa !== e.codIpa)
        throw new SoapFault('PAA_REQUEST_TOKEN_NON_VALIDO', 'Request token non valido');
      record.polls += 1;
      if (record.state === 'LOAD_EXPORT') record.state = 'EXPORT_IN_ELAB';
      else if (record.state === 'EXPORT_IN_ELAB') {
        // One row per payment (a position paid twice has two), as MyPay stores each receipt.
        const paid = Object.values(state.positions)
          .filter((p) => p.codIpa === e.codIpa)
          .flatMap((p) =>
            [p.paid, ...(p.morePayments ?? [])]
              .filter((r): r is PaymentRecord => Boolean(r))
              .map((payment) => ({ p, payment })),
          )
          .filter(({ payment }) => payment.paidOn >= record.from && payment.paidOn <= record.to);
        if (!paid.length) record.state = 'EXPORT_ESEGUITO_NESSUN_DOVUTO_TROVATO';
        else {
          const rows = paid.map(({ p, payment }, index) => {
            const values: Record<string, string> = {
              iuf: `EXPORT-${record.requestToken.slice(0, 8)}`,
              numRigaFlusso: String(index + 1),
              codIud: p.iud,
              codIuv: p.iuv,
              versioneOggetto: '6.2',
              identificativoDominio: e.codIpa,
              soggPagTipoIdentificativoUnivoco: p.tipoIdentificativoUnivoco,
              soggPagCodiceIdentificativoUnivoco: p.fiscalCode,
              anagraficaPagatore: p.anagrafica,
              emailPagatore: p.email,
              codiceEsitoPagamento: '0',
              importoTotalePagato: decimalFromCents(payment.amountCents),
              identificativoUnivocoVersamento: p.iuv,
              singoloImportoPagato: decimalFromCents(payment.amountCents),
              esitoSingoloPagamento: payment.esito ?? '0',
              dataEsitoSingoloPagamento: payment.paidOn,
              identificativoUnivocoRiscoss: payment.iur,
              causaleVersamento: p.causale,
              datiSpecificiRiscossione: p.datiSpecificiRiscossione,
              tipoDovuto: p.tipoDovuto,
            };
            return EXPORT_COLUMNS.map((c) => values[c] ?? '');
          });
          const name = `${e.codIpa}_EXPORT_${record.from}_${record.to}`;
          const csv = Papa.unparse([[...EXPORT_COLUMNS], ...rows], { delimiter: ';', newline: '\r\n' }) + '\r\n';
          record.file = storeFile(`${name}.zip`, zipSync({ [`${name}.csv`]: strToU8(csv) }));
          record.state = 'EXPORT_ESEGUITO';
        }
      }
      await save();
      return { stato: record.state, ...(record.file ? { downloadUrl: record.file } : {}) };
    }),
  };

  return { operations };
}
