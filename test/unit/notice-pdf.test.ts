import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { makeNoticePdfs, zipEntry } from '../../functions/adapters/notice-pdf.ts';
import { noticePdfKey } from '../../functions/domain/payments.ts';

const pdf = (text: string) => strToU8(`%PDF-1.4 ${text} ${'x'.repeat(500)}`);

describe('the notice PDF of a position, out of the flow\'s AVVISI ZIP', () => {
  const zip = zipSync({
    'avviso_301000000000000119.pdf': pdf('uno'),
    'cartella/avviso_301000000000000219.pdf': [pdf('due'), { level: 0 }],
    'leggimi.txt': strToU8('no'),
  });

  it('reads one entry, deflated or stored, and null when there is none or the bytes are no ZIP', () => {
    expect(new TextDecoder().decode(zipEntry(zip, (name) => name.endsWith('000119.pdf'))!)).toContain('uno');
    expect(new TextDecoder().decode(zipEntry(zip, (name) => name.endsWith('000219.pdf'))!)).toContain('due');
    expect(zipEntry(zip, () => false)).toBeNull();
    expect(zipEntry(strToU8('not a zip at all, just some text long enough'), () => true)).toBeNull();
  });

  it('finds the PDF by IUV in the ZIP, reads the ZIP once for many notices, falls back to the stored PDF', async () => {
    const reads: string[] = [];
    const files = new Map<string, Uint8Array>([['flows/f1/AVVISI.zip', zip], [noticePdfKey('P-OLD'), pdf('vecchio')]]);
    const { noticePdf } = makeNoticePdfs({ get: async (key) => (reads.push(key), files.get(key) ?? null) });
    const text = async (bytes: Promise<Uint8Array | null>) => ((b) => (b ? new TextDecoder().decode(b) : null))(await bytes);
    expect(await text(noticePdf({ iud: 'P1', codIuv: '01000000000000119', noticeZip: 'flows/f1/AVVISI.zip' }))).toContain('uno');
    expect(await text(noticePdf({ iud: 'P2', codIuv: '01000000000000219' }, ['flows/f1/AVVISI.zip']))).toContain('due');
    expect(reads.filter((key) => key === 'flows/f1/AVVISI.zip')).toHaveLength(1);
    // Exported before the ZIP was kept: the PDF stored on its own.
    expect(await text(noticePdf({ iud: 'P-OLD', codIuv: '01000000000000319', noticeZip: null }))).toContain('vecchio');
    // Not in the ZIP and none stored: no PDF.
    expect(await noticePdf({ iud: 'P3', codIuv: '01000000000000319', noticeZip: 'flows/f1/AVVISI.zip' })).toBeNull();
  });
});
