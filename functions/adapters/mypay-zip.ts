import { createHash } from 'node:crypto';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { mypayCsvEntryName, mypayZipName, type MyPayVersion } from '../domain/mypay-csv.ts';

export interface MyPayZip {
  fileName: string;
  bytes: Uint8Array;
  /** MD5 of the ZIP bytes, hex (what MyPay checks after the upload). */
  md5: string;
}

/** The import ZIP: one CSV entry named like the ZIP, deflated; with its name and MD5. */
export function buildMypayZip(input: { codIpa: string; iuf: string; version?: MyPayVersion; csv: string; mtime?: Date }): MyPayZip {
  const fileName = mypayZipName(input.codIpa, input.iuf, input.version);
  const bytes = zipSync({ [mypayCsvEntryName(fileName)]: [strToU8(input.csv), { level: 6, mtime: input.mtime ?? new Date('2000-01-01T00:00:00Z') }] });
  return { fileName, bytes, md5: md5Hex(bytes) };
}

export const md5Hex = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** The entries of a ZIP (the simulator and the tests read ZIPs back). */
export const readZip = (bytes: Uint8Array): Record<string, Uint8Array> => unzipSync(bytes);
