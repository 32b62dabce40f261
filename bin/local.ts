/**
 * `npm start`: the whole portal on this machine, with demo data, no AWS account, no Docker, no internet.
 * `npm run dev`: the same with the web app in Vite's hot-reload mode.
 * `npm run reset`: deletes the local data folder, so the next start begins from the demo data.
 */
import fs from 'node:fs/promises';
import { localConfig } from '../lib/local/config.ts';
import { identities, loginButtonName } from '../lib/local/identities.ts';
import { startLocalStack } from '../lib/local/runtime.ts';

const config = localConfig();
const args = new Set(process.argv.slice(2));

if (args.has('--reset')) {
  await fs.rm(config.dataDir, { recursive: true, force: true });
  console.log(`Dati locali cancellati (${config.dataDir}). Il prossimo "npm start" riparte dai dati dimostrativi.`);
  process.exit(0);
}

const stack = await startLocalStack(config, { web: args.has('--dev') ? 'dev' : 'dist', seed: true });

console.log(`
Portale dei servizi sociali — ambiente locale

  Portale:          ${stack.appUrl}
  API (OpenAPI):    ${stack.appUrl}/api/openapi.json
  Accesso (OIDC):   ${stack.issuer}
  MyPay:            ${stack.myPayUrl}  (simulatore: import, posizioni, interruttori di guasto)
${stack.gpdUrl ? `  pagoPA GPD:       ${stack.gpdUrl}/  (simulatore: posizioni, Checkout, ricevute, interruttori di guasto)\n` : ''}  Posta (SES):      ${stack.sesEndpoint}/  (le e-mail inviate dal portale)
  App IO:           ${stack.ioUrl}/  (simulatore: messaggi ricevuti, profili, interruttori di guasto)
  PDND:             ${stack.pdndUrl}/token.oauth2  (simulatore del server di autorizzazione: voucher, interruttori)
  INPS ISEE:        ${stack.inpsUrl}/  (simulatore ConsultazioneISEE: DSU di prova, interruttori di guasto)
  Dati:             ${config.dataDir}  (npm run reset per ripartire dai dati dimostrativi)

Identità di prova (premi "Accedi" sul portale e scegli una di queste):
${identities.map((identity) => `  - ${loginButtonName(identity).padEnd(62)} ${identity.fiscalCode}`).join('\n')}

Ctrl-C per fermare tutto.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nArresto in corso...');
    await stack.close();
    process.exit(0);
  });
}
