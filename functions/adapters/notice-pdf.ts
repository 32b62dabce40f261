import { unzipSync } from 'fflate';
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
        const entry = Object.values(unzipSync(zip, { filter: (file) => iuvOfNoticeFile(file.name) === iuv }))[0];
        if (entry) return entry;
      }
      return files.get(noticePdfKey(position.iud));
    },
  };
}

export type NoticePdfs = ReturnType<typeof makeNoticePdfs>;
