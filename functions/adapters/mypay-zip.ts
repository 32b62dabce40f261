import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';

/**
 * A flow's import ZIP for MyPay: the CSV as its one entry, named as the ZIP with `.csv` (MyPay wants it so:
 * FlussoService.validateFile), and the MD5 of the ZIP's bytes (what MyPay checks after the upload).
 */
export function mypayImportZip(zipName: string, csv: Uint8Array): { bytes: Uint8Array; md5: string } {
  const bytes = zipSync({ [zipName.replace(/\.zip$/, '.csv')]: csv });
  return { bytes, md5: createHash('md5').update(bytes).digest('hex') };
}
