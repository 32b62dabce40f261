/**
 * `npm run bench:mypay [rows]`: one bulk import of `rows` positions (default 10,000) through the MyPay adapter
 * into the simulator: authorise + upload, processing until IMPORT_ESEGUITO (validation, IUVs, notice PDFs,
 * result ZIPs), and the IUV and AVVISI downloads. Simulator and client share this process, as in `npm start`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { makeMyPay } from '../../functions/adapters/mypay.ts';
import { DEFAULT_ENTITY, IMPORT_COLUMNS, startMyPaySimulator } from '../../lib/local/mypay-simulator.ts';
import { freePort } from '../support/ports.ts';

const rows = Number(process.argv[2] ?? 10_000);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-mypay-'));
const simulator = await startMyPaySimulator({ port: await freePort(), dataDir });
const mypay = makeMyPay({
  endpoint: simulator.endpoint,
  codIpaEnte: DEFAULT_ENTITY.codIpa,
  password: DEFAULT_ENTITY.password,
  timeoutMs: 30_000,
});
const fiscalCodes = ['RSSMRA85C52H501N', 'VRDGPP90P07F839R', 'BNCLRA79H61F205F', 'SPSPLA68S02L219G'];
const lines = [IMPORT_COLUMNS.join(';')];
for (let i = 0; i < rows; i++) {
  const amount = `${10 + (i % 90)}.${String(i % 100).padStart(2, '0')}`;
  lines.push(
    [
      `BENCH-${i}`,
      '',
      'F',
      fiscalCodes[i % 4],
      `Cittadino ${i}`,
      '',
      '',
      '',
      '',
      '',
      'IT',
      '',
      '2026-12-31',
      amount,
      '',
      'SERVIZI_SOCIALI',
      'ALL',
      `Quota ${i}`,
      '9/0101100IM',
      '',
      'true',
      'I',
    ].join(';'),
  );
}
// MyPay wants the CSV inside named as the ZIP (FlussoService.validateFile).
const zipName = `${DEFAULT_ENTITY.codIpa}-BENCH${Date.now()}-1_3.zip`;
const zip = zipSync({ [zipName.replace(/\.zip$/, '.csv')]: strToU8(lines.join('\r\n')) });

const t0 = performance.now();
const authorization = await mypay.authorize();
await mypay.upload(authorization, zip, zipName);
const t1 = performance.now();
let status = await mypay.importStatus(authorization.requestToken);
while (status.stato === 'LOAD_IMPORT' || status.stato === 'IMPORT_IN_ELAB') {
  await new Promise((resolve) => setTimeout(resolve, 200));
  status = await mypay.importStatus(authorization.requestToken);
}
const t2 = performance.now();
const iuv = await mypay.download(status.urlFileIUV!);
const avvisi = await mypay.download(status.urlFileAvvisi!);
const t3 = performance.now();
const ms = (a: number, b: number) => `${Math.round(b - a)} ms`;
console.log(
  `rows ${rows}: authorise + upload ${ms(t0, t1)}, processing ${ms(t1, t2)} (${status.stato}), downloads ${ms(t2, t3)}; total ${ms(t0, t3)}`,
);
console.log(
  `IUV file ${(iuv.byteLength / 1024).toFixed(0)} KB, notices ${(avvisi.byteLength / 1024 / 1024).toFixed(1)} MB`,
);
await simulator.close();
await fs.rm(dataDir, { recursive: true, force: true });
