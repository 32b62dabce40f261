import { inflateRawSync } from 'node:zlib';
import { iuvOfNoticeFile } from '../domain/notices.ts';
import { noticePdfKey } from '../domain/position-rules.ts';

/** What the notice PDF of a position is looked up by. */
export interface NoticePdfPosition {
  iud: string;
  codIuv?: string | null;
  /** MyPay's AVVISI ZIP of the export that brought the IUV (the write-back puts it on the position). */
  noticeZip?: string | null;
}

/** The exports bucket, read only: null when there is no such object. */
export interface NoticePdfFiles {
  /** A whole object (a notice PDF stored on its own: a few KB). */
  get(key: string): Promise<Uint8Array | null>;
  /** Bytes [start, end) of an object (S3 GetObject with a Range) and its whole size; null when there is no such object. */
  getRange(key: string, start: number, end: number): Promise<{ bytes: Uint8Array; size: number } | null>;
}

/** Where one notice lies in its ZIP (from the ZIP's central directory). */
interface ZipEntryAt {
  offset: number;
  compressedSize: number;
  method: number;
  nameLength: number;
}

/** The central directories kept in memory: a flow e-mail reads thousands of notices out of one ZIP. */
const INDEXES_KEPT = 2;
/** The end of a ZIP read first: its end record (22 bytes) and a comment of up to 64 KB. */
const TAIL_BYTES = 22 + 0xffff;
/** A local header's extra field is read with the entry when it is at most this long (else read again). */
const EXTRA_SLACK = 256;

/**
 * "The notice PDF of a position", the one place that finds it. The export leaves MyPay's AVVISI ZIP in the
 * exports bucket as it came (one object per flow: 10,000 notices are ~19 MB): the PDF is the ZIP's entry
 * named after the position's IUV (MyPay names each after the IUV, domain iuvOfNoticeFile). The ZIP is never
 * read whole: its end and central directory once (ranged reads, ~80 bytes an entry, kept for the next
 * lookups), then the one entry (a few KB). Positions exported before the ZIP was kept have their PDF at
 * `noticePdfKey(iud)`: read there otherwise. null when there is none.
 */
export function makeNoticePdfs(files: NoticePdfFiles) {
  const indexes = new Map<string, Promise<Map<string, ZipEntryAt> | null>>();
  function indexOf(key: string): Promise<Map<string, ZipEntryAt> | null> {
    const kept = indexes.get(key);
    if (kept) {
      indexes.delete(key);
      indexes.set(key, kept);
      return kept;
    }
    const read = readIndex(files, key);
    indexes.set(key, read);
    read.catch(() => indexes.delete(key));
    while (indexes.size > INDEXES_KEPT) indexes.delete(indexes.keys().next().value!);
    return read;
  }

  return {
    /** The PDF from the first of `zipKeys` (default: the position's own ZIP) that holds it, else the stored one. */
    async noticePdf(
      position: NoticePdfPosition,
      zipKeys: readonly (string | null | undefined)[] = [position.noticeZip],
    ): Promise<Uint8Array | null> {
      const iuv = position.codIuv;
      for (const key of new Set(zipKeys)) {
        if (!key || !iuv) continue;
        const entry = (await indexOf(key))?.get(iuv);
        if (entry) return readEntry(files, key, entry);
      }
      return files.get(noticePdfKey(position.iud));
    },
  };
}

export type NoticePdfs = ReturnType<typeof makeNoticePdfs>;

/**
 * The ZIP's notices by IUV, from its central directory: the end record found in the ZIP's last bytes, then
 * the directory it points at (already read when it lies in those last bytes). Not fflate here: this runs in
 * the API functions that link or mail a notice, whose bundles have no room for a ZIP library
 * (test/infra/bundles.test.ts). No ZIP64: MyPay's notice ZIPs are far below 4 GB and 65,535 entries.
 */
async function readIndex(files: NoticePdfFiles, key: string): Promise<Map<string, ZipEntryAt> | null> {
  // Two bytes, not one: s3rver (the local S3) reads a Range ending at byte 0 as the whole object.
  const head = await files.getRange(key, 0, 2);
  if (!head) return null;
  const tailStart = Math.max(0, head.size - TAIL_BYTES);
  const tail = (await files.getRange(key, tailStart, head.size))!.bytes;
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let end = tail.length - 22;
  while (end >= 0 && tailView.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return null;
  const count = tailView.getUint16(end + 10, true);
  const directorySize = tailView.getUint32(end + 12, true);
  const directoryStart = tailView.getUint32(end + 16, true);
  const directory =
    directoryStart >= tailStart
      ? tail.subarray(directoryStart - tailStart, directoryStart - tailStart + directorySize)
      : (await files.getRange(key, directoryStart, directoryStart + directorySize))!.bytes;
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const decoder = new TextDecoder();
  const index = new Map<string, ZipEntryAt>();
  let at = 0;
  for (let i = 0; i < count && at + 46 <= directory.length && view.getUint32(at, true) === 0x02014b50; i++) {
    const nameLength = view.getUint16(at + 28, true);
    const iuv = iuvOfNoticeFile(decoder.decode(directory.subarray(at + 46, at + 46 + nameLength)));
    if (iuv && !index.has(iuv)) {
      index.set(iuv, {
        method: view.getUint16(at + 10, true),
        compressedSize: view.getUint32(at + 20, true),
        offset: view.getUint32(at + 42, true),
        nameLength,
      });
    }
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return index;
}

/** One entry: its local header and data by range (again if the header's extra field is longer than guessed), decompressed alone. */
async function readEntry(files: NoticePdfFiles, key: string, entry: ZipEntryAt): Promise<Uint8Array | null> {
  const read = (extra: number) =>
    files.getRange(key, entry.offset, entry.offset + 30 + entry.nameLength + extra + entry.compressedSize);
  let found = await read(EXTRA_SLACK);
  if (!found) return null;
  let view = new DataView(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength);
  if (view.getUint32(0, true) !== 0x04034b50) return null;
  const extra = view.getUint16(28, true);
  if (extra > EXTRA_SLACK) {
    found = (await read(extra))!;
    view = new DataView(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength);
  }
  const start = 30 + view.getUint16(26, true) + extra;
  const data = found.bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data.slice();
  if (entry.method === 8) return new Uint8Array(inflateRawSync(data));
  return null;
}
