import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { makeNoticePdfs, type NoticePdfFiles } from '../../functions/adapters/notice-pdf.ts';
import { noticePdfKey } from '../../functions/domain/payments.ts';

const pdf = (text: string) => strToU8(`%PDF-1.4 ${text} ${'x'.repeat(500)}`);
const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);

/** The exports bucket in memory, counting the bytes every read hands out (as S3 GetObject with a Range would). */
function bucket(objects: Map<string, Uint8Array>) {
  const reads: { key: string; bytes: number }[] = [];
  const files: NoticePdfFiles = {
    async get(key) {
      const object = objects.get(key);
      if (object) reads.push({ key, bytes: object.length });
      return object ?? null;
    },
    async getRange(key, start, end) {
      const object = objects.get(key);
      if (!object) return null;
      const bytes = object.subarray(start, Math.min(end, object.length));
      reads.push({ key, bytes: bytes.length });
      return { bytes, size: object.length };
    },
  };
  return {
    files,
    reads,
    read: (key: string) => reads.filter((r) => r.key === key).reduce((sum, r) => sum + r.bytes, 0),
  };
}

describe("the notice PDF of a position, out of the flow's AVVISI ZIP", () => {
  const zip = zipSync({
    'avviso_01000000000000119.pdf': pdf('uno'),
    'cartella/avviso_301000000000000219.pdf': [pdf('due'), { level: 0 }],
    'leggimi.txt': strToU8('no'),
  });

  it('finds the PDF by IUV (deflated or stored, named after the IUV or the notice number), falls back to the stored PDF', async () => {
    const { files } = bucket(
      new Map([
        ['flows/f1/AVVISI.zip', zip],
        [noticePdfKey('P-OLD'), pdf('vecchio')],
      ]),
    );
    const { noticePdf } = makeNoticePdfs(files);
    expect(
      text(await noticePdf({ iud: 'P1', codIuv: '01000000000000119', noticeZip: 'flows/f1/AVVISI.zip' })),
    ).toContain('uno');
    expect(text(await noticePdf({ iud: 'P2', codIuv: '01000000000000219' }, ['flows/f1/AVVISI.zip']))).toContain('due');
    // Exported before the ZIP was kept: the PDF stored on its own.
    expect(text(await noticePdf({ iud: 'P-OLD', codIuv: '01000000000000319', noticeZip: null }))).toContain('vecchio');
    // Not in the ZIP and none stored, or no ZIP at all: no PDF.
    expect(await noticePdf({ iud: 'P3', codIuv: '01000000000000319', noticeZip: 'flows/f1/AVVISI.zip' })).toBeNull();
    expect(await noticePdf({ iud: 'P4', codIuv: '01000000000000419', noticeZip: 'flows/nessuno.zip' })).toBeNull();
  });

  it('never reads a large ZIP whole: its directory once, then each notice alone', async () => {
    // 2,000 notices of ~10 KB each (stored, as MyPay's PDFs barely compress): a 20 MB ZIP.
    const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
    const iuvOf = (i: number) => `0100000000${String(i).padStart(5, '0')}19`;
    for (let i = 0; i < 2000; i++)
      entries[`avviso_${iuvOf(i)}.pdf`] = [strToU8(`%PDF-1.4 avviso ${i} ${'x'.repeat(10_000)}`), { level: 0 }];
    const big = zipSync(entries);
    const { files, read } = bucket(new Map([['flows/f2/AVVISI.zip', big]]));
    const { noticePdf } = makeNoticePdfs(files);
    expect(text(await noticePdf({ iud: 'P', codIuv: iuvOf(1234), noticeZip: 'flows/f2/AVVISI.zip' }))).toContain(
      'avviso 1234 ',
    );
    const first = read('flows/f2/AVVISI.zip');
    expect(first).toBeLessThan(big.length / 50);
    // The next notices of the same ZIP read only themselves.
    for (const i of [0, 1999, 77])
      expect(text(await noticePdf({ iud: 'P', codIuv: iuvOf(i), noticeZip: 'flows/f2/AVVISI.zip' }))).toContain(
        `avviso ${i} `,
      );
    expect(read('flows/f2/AVVISI.zip') - first).toBeLessThan(3 * (10_100 + 300));
  });

  it('answers null for bytes that are no ZIP', async () => {
    const { files } = bucket(
      new Map([['flows/f3/AVVISI.zip', strToU8('not a zip at all, just some text long enough')]]),
    );
    expect(
      await makeNoticePdfs(files).noticePdf({
        iud: 'P',
        codIuv: '01000000000000119',
        noticeZip: 'flows/f3/AVVISI.zip',
      }),
    ).toBeNull();
  });
});
