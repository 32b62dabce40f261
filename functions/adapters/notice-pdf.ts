import { inflateRawSync } from 'node:zlib';
import { iuvOfNoticeFile } from '../domain/notices.ts';
import { noticePdfKey } from '../domain/payments.ts';

/** What the notice PDF of a position is looked up by. */
export interface NoticePdfPosition {
  iud: string;
  codIuv?: string | null;
  /** MyPay's AVVISI ZIP of the export that brought the IUV (the write-back puts it on the position). */
  noticeZip?: string | null;
}

/** The exports bucket, read only: null when there is no such object. */
export interface NoticePdfFiles {
  get(key: string): Promise<Uint8Array | null>;
}

/** AVVISI ZIPs kept in memory: a flow e-mail reads thousands of notices out of one ZIP. */
const ZIPS_KEPT = 2;

/**
 * "The notice PDF of a position", the one place that finds it. The export leaves MyPay's AVVISI ZIP in the
 * exports bucket as it came (one object per flow, not one per notice): the PDF is the ZIP's entry named
 * after the position's IUV (MyPay names each `avviso_<NAV>.pdf`, domain iuvOfNoticeFile), unzipped alone.
 * Positions exported before the ZIP was kept have their PDF at `noticePdfKey(iud)`: read there otherwise.
 * null when there is none.
 */
export function makeNoticePdfs(files: NoticePdfFiles) {
  const zips = new Map<string, Promise<Uint8Array | null>>();
  function zipOf(key: string): Promise<Uint8Array | null> {
    const kept = zips.get(key);
    if (kept) {
      zips.delete(key);
      zips.set(key, kept);
      return kept;
    }
    const read = files.get(key);
    zips.set(key, read);
    read.catch(() => zips.delete(key));
    while (zips.size > ZIPS_KEPT) zips.delete(zips.keys().next().value!);
    return read;
  }

  return {
    /** The PDF from the first of `zipKeys` (default: the position's own ZIP) that holds it, else the stored one. */
    async noticePdf(position: NoticePdfPosition, zipKeys: readonly (string | null | undefined)[] = [position.noticeZip]): Promise<Uint8Array | null> {
      const iuv = position.codIuv;
      for (const key of new Set(zipKeys)) {
        if (!key || !iuv) continue;
        const zip = await zipOf(key);
        if (!zip) continue;
        const entry = zipEntry(zip, (name) => iuvOfNoticeFile(name) === iuv);
        if (entry) return entry;
      }
      return files.get(noticePdfKey(position.iud));
    },
  };
}

export type NoticePdfs = ReturnType<typeof makeNoticePdfs>;

/**
 * The first entry of a ZIP whose name matches, decompressed alone: its central directory read, then the one
 * entry (stored, or deflated: node:zlib). Not fflate here: this runs in the API functions that link or mail
 * a notice, whose bundles have no room for a ZIP library (test/infra/bundles.test.ts); the export's own ZIPs
 * are fflate's (functions/flows). No ZIP64: MyPay's notice ZIPs are far below 4 GB and 65,535 entries.
 */
export function zipEntry(zip: Uint8Array, matches: (name: string) => boolean): Uint8Array | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let i = 0; i < count && view.getUint32(at, true) === 0x02014b50; i++) {
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (matches(name)) {
      const local = view.getUint32(at + 42, true);
      const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      const bytes = zip.subarray(data, data + size);
      if (method === 0) return bytes.slice();
      if (method === 8) return new Uint8Array(inflateRawSync(bytes));
      return null;
    }
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return null;
}
