import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import decodeQR from 'qr/decode.js';
import { describe, expect, it } from 'vitest';
import { noticeQrModules, paymentNoticePdf } from '../../functions/adapters/payment-notice-pdf.ts';
import { textWidth } from '../../functions/adapters/pdf/simple-pdf.ts';
import {
  NOTICE_TEXTS,
  NoticeDataError,
  pagoPaNotice,
  type NoticeCreditor,
} from '../../functions/domain/payment-notice.ts';
import { renderFirstPage } from '../support/pdf-render.ts';
import { formatAmountCents } from '../../functions/domain/money.ts';
import { gpdNotices } from '../../functions/adapters/gpd/notices.ts';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import type { Position } from '../../functions/domain/payments.ts';

const creditor: NoticeCreditor = { fiscalCode: '00123456789', name: 'Comune di Esempio', cbill: 'a0edt' };
const position = {
  fiscalCode: 'RSSMRA80A41H501Y',
  cognome: 'Rossi',
  nome: 'Maria',
  titolo: 'Asilo nido comunale - Novembre 2026',
  descrizione: 'Retta di Rossi Luca, novembre 2026',
  importoDovuto: 123450,
  nav: '301000000001234519',
  dataScadenza: '2026-11-30',
  exportedAt: '2026-11-02T10:00:00.000Z',
};

/** The 15-bit format word of a QR symbol (ISO/IEC 18004 §7.9), read from its modules beside the top-left finder. */
function formatWord(modules: boolean[][]): number {
  let bits = 0;
  const at = (row: number, col: number, bit: number) => (bits |= (modules[row]![col] ? 1 : 0) << bit);
  for (let i = 0; i <= 5; i++) at(i, 8, i);
  at(7, 8, 6);
  at(8, 8, 7);
  at(8, 7, 8);
  for (let i = 9; i < 15; i++) at(8, 14 - i, i);
  return bits ^ 0x5412;
}
/** The BCH(15,5) remainder the format word's last 10 bits must be (ISO/IEC 18004 Annex C). */
function bch(data: number): number {
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return rem & 0x3ff;
}

// pdfjs draws each page in software: slow on a loaded machine, so these tests may take their time.
describe('the pagoPA notice of a GPD position', { timeout: 60_000 }, () => {
  it('prints every mandatory section of pagoPA’s notice with the position’s data', async () => {
    const pdf = paymentNoticePdf(pagoPaNotice(position, creditor));
    const page = await renderFirstPage(pdf, 0);
    expect(page.pages).toBe(1);
    for (const fixed of [
      'Avviso di pagamento',
      'Ente Creditore',
      'Destinatario',
      'Quanto e quando pagare?',
      'Dove pagare?',
      'vai su pagopa.gov.it',
      'PAGA CON L’APP IO',
      'PAGA SUL TERRITORIO',
      'Dati per il pagamento',
      'Rata unica',
      'Oggetto del pagamento',
      'Cod. CBILL A0EDT',
      'Cod. Avviso 3010 0000 0001 2345 19',
      'Cod. Fiscale Ente 00123456789',
      'Inquadra il codice QR',
    ])
      expect(page.text).toContain(fixed);
    expect(page.text).toContain('Comune di Esempio');
    expect(page.text).toContain('Cod. Fiscale 00123456789');
    expect(page.text).toContain('Maria Rossi');
    expect(page.text).toContain('Cod. Fiscale RSSMRA80A41H501Y');
    expect(page.text).toContain('Asilo nido comunale - Novembre 2026');
    expect(page.text).toContain('Retta di Rossi Luca, novembre 2026');
    expect(page.text).toContain('1.234,50 Euro');
    expect(page.text).toContain('entro il 30/11/2026');
    // "Dove pagare?": pagoPA's own text, unaltered (the council's site is not a payment channel here).
    expect(page.flow).toContain(`${NOTICE_TEXTS.local} ${NOTICE_TEXTS.localText}`);
    expect(page.flow).toContain(`${NOTICE_TEXTS.online} ${NOTICE_TEXTS.onlineText}`);
  });

  it('carries pagoPA’s QR code: the rendered page decodes to PAGOPA|002|notice number|council|cents', async () => {
    for (const [cents, printed, payload] of [
      [123450, '1.234,50', '123450'],
      // 19,99 € is 1998.9999… in floating point: the amount is the position's integer cents, never euros × 100.
      [1999, '19,99', '1999'],
      // Under 10 cents, the two digits pagoPA's guidelines ask for.
      [5, '0,05', '05'],
    ] as const) {
      const page = await renderFirstPage(
        paymentNoticePdf(pagoPaNotice({ ...position, importoDovuto: cents }, creditor)),
      );
      expect(decodeQR(page.image!)).toBe(`PAGOPA|002|301000000001234519|00123456789|${payload}`);
      expect(page.text).toContain(`${printed} Euro`);
    }
  });

  it('draws the QR code as pagoPA asks: version 4 (33 × 33 modules), error correction M', () => {
    const modules = noticeQrModules('PAGOPA|002|301000000001234519|00123456789|123450');
    expect(modules).toHaveLength(33);
    expect(modules.every((row) => row.length === 33)).toBe(true);
    const word = formatWord(modules);
    expect(word & 0x3ff).toBe(bch(word >>> 10)); // a real format word, read the right way round
    expect(word >>> 13).toBe(0b00); // M (L 01, Q 11, H 10)
  });

  it('leaves the CBILL row out when the council has no CBILL code', async () => {
    const page = await renderFirstPage(paymentNoticePdf(pagoPaNotice(position, { ...creditor, cbill: null })), 0);
    expect(page.text).not.toContain('Cod. CBILL');
    expect(page.text).toContain('Cod. Avviso 3010 0000 0001 2345 19');
  });

  it('keeps Italian letters and writes letters the standard fonts lack without their accent', async () => {
    const page = await renderFirstPage(
      paymentNoticePdf(pagoPaNotice({ ...position, nome: 'Nicolò', cognome: 'D’Amico Čeh' }, creditor)),
      0,
    );
    expect(page.text).toContain('Nicolò D’Amico Ceh');
  });

  it('prints the due date GPD was given: the month’s last day, or 30 days after a send past it', () => {
    expect(pagoPaNotice(position, creditor).dueDate).toBe('30/11/2026');
    expect(pagoPaNotice({ ...position, exportedAt: '2026-12-10T09:00:00.000Z' }, creditor).dueDate).toBe('09/01/2027');
  });

  it('gives the PDF with the due day it prints, for the notice e-mail to repeat (a month sent late: 30 days on)', async () => {
    const october = {
      ...position,
      iud: 'P-OTTOBRE',
      dataScadenza: '2026-10-31',
      exportedAt: '2026-11-20T10:00:00.000Z',
    };
    const records = new Map([[october.iud, october as unknown as PositionRecord]]);
    const notices = gpdNotices({ getPositionByIud: async (iud) => records.get(iud) ?? null }, () => creditor);
    // As a list shows it (no exportedAt): the adapter reads the record for the day GPD was given.
    const { exportedAt: _sent, ...listed } = october;
    const printed = (await notices.notice(listed as unknown as Position))!;
    expect(printed.dueDay).toBe('2026-12-20');
    expect((await renderFirstPage(printed.pdf, 0)).text).toContain('entro il 20/12/2026');
  });

  it('refuses, in Italian, a notice pagoPA’s channels could not read', () => {
    const refused = (changes: Partial<typeof position>, who: NoticeCreditor = creditor) => {
      try {
        pagoPaNotice({ ...position, ...changes }, who);
      } catch (error) {
        expect(error).toBeInstanceOf(NoticeDataError);
        expect((error as NoticeDataError).status).toBe(422);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ fiscalCode: '' })).toMatch(/Manca il codice fiscale del destinatario/);
    expect(refused({ fiscalCode: 'RSSMRA80' })).toMatch(/codice fiscale del destinatario/);
    expect(refused({ importoDovuto: 0 })).toMatch(/almeno 1 centesimo/);
    expect(refused({ importoDovuto: 12.5 })).toMatch(/centesimi interi/);
    expect(refused({ nav: null as unknown as string })).toMatch(/codice avviso pagoPA valido/);
    expect(refused({}, { ...creditor, fiscalCode: 'RSSMRA80A41H501Y' })).toMatch(/codice fiscale dell’ente creditore/);
    expect(refused({}, { ...creditor, name: '  ' })).toMatch(/nome dell’ente creditore/);
  });

  it('writes euros from cents with Italian separators', () => {
    expect(formatAmountCents(1)).toBe('0,01');
    expect(formatAmountCents(100)).toBe('1,00');
    expect(formatAmountCents(123456789)).toBe('1.234.567,89');
  });
});

describe('the small PDF writer', () => {
  it('measures text with Adobe’s Helvetica metrics', () => {
    const sample = 'Àè ìòù €’· Quanto e quando pagare? 0123456789';
    for (const [font, name] of [
      ['regular', FontNames.Helvetica],
      ['bold', FontNames.HelveticaBold],
    ] as const) {
      const metrics = Font.load(name);
      const expected = [...sample].reduce(
        (sum, c) =>
          sum + (metrics.getWidthOfGlyph(Encodings.WinAnsi.encodeUnicodeCodePoint(c.codePointAt(0)!).name) as number),
        0,
      );
      expect(textWidth(sample, font, 1000)).toBeCloseTo(expected, 6);
    }
  });
});
