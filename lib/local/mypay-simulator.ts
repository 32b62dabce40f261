/**
 * The MyPay simulator: a working stand-in for Regione Veneto's MyPay (reference.md), started by `npm start`.
 *
 * - SOAP (soap.listen, the WSDL functions/adapters/mypay/pa-per-ente.wsdl) at /pa/services/PagamentiTelematiciDovutiPagati:
 *   paaSILAutorizzaImportFlusso, paaSILChiediStatoImportFlusso, paaSILImportaDovuto, paaSILInviaDovuti,
 *   paaSILChiediPagati, paaSILPrenotaExportFlusso, paaSILChiediStatoExportFlusso;
 * - MyBox upload (POST /mybox/uploadFlusso, multipart: authorizationToken, md5, one file) and downloads
 *   (GET /mybox/download/<token>/<file>);
 * - paying a position MyPay holds as MyPay4 offers it to a council's own system: paaSILVerificaAvviso (the
 *   council's credentials, the IUV) answers a landing (/public/landing/inviaDovuti?id=) that validates the
 *   position and the payer again and opens the checkout (mypay/verifica-avviso.ts); and the Region's aggregator
 *   path, paaSILChiediPosizioniAperte with its landing /public/landing/precaricato (ChiediPosizioniAperteService.java);
 * - the outcome (paaSILChiediPagati) in both of MyPay's modes (option modelloUnico): with pagoPA's modello
 *   unico a session has no cart until pagoPA's receipt arrives (the switch holdReceipts keeps it back);
 * - a checkout page (GET/POST /checkout/<idSession>) standing for pagoPA's: the tester picks success, failure
 *   or cancel and is sent back to the return URL with ?idSession=…&esito=OK|ERROR&pollingToken=… (LandingController);
 * - fault switches (JSON API under /admin, and the page at /): 5xx, timeout or lost answer on any operation
 *   (once, N times, always), stuck or aborted imports, rejected rows (by IUD or count), a reused request
 *   token, and "mark positions paid" for the reporting.
 *
 * Rows are validated here from reference.md's column table, independently of the portal's CSV builder.
 * State (positions by IUD with their IUVs, imports, sessions, exports, the next IUV number) lives in
 * memory and in <dataDir>/mypay/state.json; result files in <dataDir>/mypay/files.
 *
 * This file assembles the parts in lib/local/mypay/ and routes the HTTP requests to them: store.ts (state),
 * faults.ts (the switches on the wire), bulk-import.ts, checkout.ts, reporting-export.ts, admin.ts (the
 * tester's API and page); model.ts, rows.ts, notice.ts, soap.ts, http.ts and values.ts are shared.
 */
import fs from 'node:fs';
import http from 'node:http';
import * as soap from 'soap';
import { createAdmin } from './mypay/admin.ts';
import { createBulkImport } from './mypay/bulk-import.ts';
import { createCheckout } from './mypay/checkout.ts';
import { createFaults } from './mypay/faults.ts';
import {
  OPERATIONS,
  SOAP_PATH,
  WSDL_PATH,
  type MyPaySimulatorOptions,
  type SimulatedEntity,
  type Switches,
} from './mypay/model.ts';
import { createReportingExport } from './mypay/reporting-export.ts';
import type { Operation } from './mypay/soap.ts';
import { createStore } from './mypay/store.ts';
import { createVerificaAvviso } from './mypay/verifica-avviso.ts';

export {
  CART_EXPIRY_MS,
  DEFAULT_ENTITY,
  DOVUTI_XSD_PATH,
  EXPORT_COLUMNS,
  FAULT_TARGETS,
  IMPORT_COLUMNS,
  OPERATIONS,
  SOAP_PATH,
  WSDL_PATH,
  type FaultKind,
  type FaultRule,
  type MyPaySimulatorOptions,
  type SimulatedEntity,
  type Switches,
} from './mypay/model.ts';
export { dovutiSchemaErrors } from './mypay/checkout.ts';
export { renderNotice } from './mypay/notice.ts';
export { readImportLine, SUPPORTED_VERSIONS, validateRow, type RowRejection } from './mypay/rows.ts';

export interface MyPaySimulator {
  url: string;
  /** The SOAP endpoint (MYPAY_ENDPOINT). */
  endpoint: string;
  entities: SimulatedEntity[];
  switches: Switches;
  close(): Promise<void>;
}

export async function startMyPaySimulator(options: MyPaySimulatorOptions): Promise<MyPaySimulator> {
  const store = createStore(options);
  const { url, entities, switches } = store;
  const host = options.host ?? '127.0.0.1';
  const { applyFault, held } = createFaults(switches, store.holdMs);
  const { operations: importOperations, upload, download } = createBulkImport(store);
  const verifica = createVerificaAvviso(store);
  const {
    operations: checkoutOperations,
    checkout,
    landingPrecaricato,
    deliverReceipts,
  } = createCheckout(store, verifica);
  const { operations: exportOperations } = createReportingExport(store);
  const { admin, home } = createAdmin(store, { deliverReceipts, age: verifica.age });
  const operations: Record<(typeof OPERATIONS)[number], Operation> = {
    ...importOperations,
    ...checkoutOperations,
    ...verifica.operations,
    ...exportOperations,
  };

  const wsdl = fs.readFileSync(WSDL_PATH, 'utf8').replace(/location="[^"]*"/, `location="${url}${SOAP_PATH}"`);
  // soap.listen attaches to a server; this one never listens: the real server hands it the SOAP requests
  // after the fault switches have had their say.
  const soapHost = http.createServer();
  soap.listen(
    soapHost,
    SOAP_PATH,
    { PagamentiTelematiciDovutiPagatiService: { PagamentiTelematiciDovutiPagatiPort: operations } },
    wsdl,
  );

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', url).pathname;
    const handle = async () => {
      if (pathname === SOAP_PATH) {
        if (req.method === 'POST') {
          const operation = String(req.headers.soapaction ?? '').replace(/"/g, '');
          if (applyFault(operation, res)) return;
        }
        soapHost.emit('request', req, res);
        return;
      }
      if (pathname === '/mybox/uploadFlusso' && req.method === 'POST') {
        if (applyFault('upload', res)) return;
        return upload(req, res);
      }
      const downloadMatch = /^\/mybox\/download\/([^/]+)\//.exec(pathname);
      if (downloadMatch && req.method === 'GET') {
        if (applyFault('download', res)) return;
        return download(req, res, downloadMatch[1]);
      }
      if (pathname === '/public/landing/precaricato' && req.method === 'GET') return landingPrecaricato(req, res);
      if (pathname === '/public/landing/inviaDovuti' && req.method === 'GET')
        return verifica.landingInviaDovuti(req, res);
      const checkoutMatch = /^\/checkout\/([^/]+)$/.exec(pathname);
      if (checkoutMatch) return checkout(req, res, checkoutMatch[1]);
      const adminMatch = /^\/admin\/([a-z-]+)$/.exec(pathname);
      if (adminMatch) return admin(req, res, adminMatch[1]);
      if (pathname === '/' && req.method === 'GET') return home(res);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Non trovato');
    };
    handle().catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`Errore del simulatore: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });

  return {
    url,
    endpoint: `${url}${SOAP_PATH}`,
    entities,
    switches,
    async close() {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.saving();
    },
  };
}
