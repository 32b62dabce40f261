import { describe, expect, it } from 'vitest';
import {
  GPD_STATUSES,
  gpdCallIupd,
  gpdCallIupdPrefix,
  gpdDueDate,
  gpdIupd,
  gpdIuv,
  gpdNoticeNumber,
  gpdPaymentPosition,
  iudOfIupd,
  iupdOfPosition,
  isCouncilIuv,
  pagoPaQrText,
  portalStateOfGpd,
  printedNoticeNumber,
  sameGpdPosition,
} from '../../functions/domain/gpd.ts';
import { isValidIuv, isValidNav } from '../../functions/domain/iuv.ts';

const creditor = {
  fiscalCode: '00123456789',
  companyName: 'Comune di Esempio',
  iban: 'IT60X0542811101000000123456',
  taxonomyCode: '9/0101108TS/',
};

describe('GPD IUV and notice number (aux digit 3)', () => {
  it('gives pagoPA’s own example: segregation 01, base 0000000012345 → IUV 01000000001234519, NAV 301000000001234519', () => {
    expect(gpdIuv('01', 12345)).toBe('01000000001234519');
    expect(gpdNoticeNumber(gpdIuv('01', 12345))).toBe('301000000001234519');
  });

  it('makes IUVs that start with the council’s segregation code and pass the mod-93 check, for every sequence', () => {
    for (const n of [1, 92, 93, 94, 1_000_000, 9_999_999_999_999]) {
      const iuv = gpdIuv('47', n);
      expect(iuv).toMatch(/^47[0-9]{15}$/);
      expect(isValidIuv(iuv)).toBe(true);
      expect(isValidNav(gpdNoticeNumber(iuv))).toBe(true);
      expect(isCouncilIuv(iuv, '47')).toBe(true);
      expect(isCouncilIuv(iuv, '48')).toBe(false);
    }
  });

  it('refuses a bad segregation code or sequence', () => {
    expect(() => gpdIuv('1', 1)).toThrow(/segregazione/);
    expect(() => gpdIuv('01', 0)).toThrow(/progressivo/);
    expect(() => gpdIuv('01', 10_000_000_000_000)).toThrow(/progressivo/);
  });

  it('prints the notice code in groups of four', () => {
    expect(printedNoticeNumber('301000000001234519')).toBe('3010 0000 0001 2345 19');
  });
});

describe('iupd', () => {
  it('is the same for the same IUD, and a restored position gets a new one that still names its IUD', () => {
    const iud = 'P2026031A2B3C4D5E6F708192A3B4C5D6E';
    expect(gpdIupd(iud)).toBe(gpdIupd(iud));
    expect(gpdIupd(iud, 1)).not.toBe(gpdIupd(iud));
    expect(iudOfIupd(gpdIupd(iud))).toEqual({ iud, revision: 0 });
    expect(iudOfIupd(gpdIupd(iud, 2))).toEqual({ iud, revision: 2 });
    expect(iudOfIupd('77777777777-other')).toBeNull();
  });

  it('call-first (stored with the reserved IUV): the same call shares a prefix another call does not, and still names its IUD', () => {
    const iud = 'P2026031A2B3C4D5E6F708192A3B4C5D6E';
    const iupd = gpdCallIupd('bando-trasporto', iud);
    expect(iupd).toMatch(/^PSS-C[0-9A-F]{10}-P2026031A2B3C4D5E6F708192A3B4C5D6E$/);
    expect(iupd.length).toBeLessThanOrEqual(51);
    expect(gpdCallIupd('bando-trasporto', 'P202604FFFF')).toMatch(
      new RegExp(`^${gpdCallIupdPrefix('bando-trasporto')}`),
    );
    expect(gpdCallIupdPrefix('bando-mensa')).not.toBe(gpdCallIupdPrefix('bando-trasporto'));
    expect(iudOfIupd(iupd)).toEqual({ iud, revision: 0 });
    // Stored, it wins; without it (reserved before), the iupd derived from the IUD, which GPD knows it by.
    expect(iupdOfPosition({ iud, iupd })).toBe(iupd);
    expect(iupdOfPosition({ iud, iupd: null })).toBe(gpdIupd(iud));
  });
});

describe('pagoPA QR code', () => {
  it('is PAGOPA|002|notice|creditor|cents', () => {
    expect(pagoPaQrText({ noticeNumber: '301000000001234519', fiscalCode: '00123456789', amountCents: 4350 })).toBe(
      'PAGOPA|002|301000000001234519|00123456789|4350',
    );
  });
  it('refuses a notice number, fiscal code or amount pagoPA would not read', () => {
    expect(() => pagoPaQrText({ noticeNumber: '3010000000012345', fiscalCode: '00123456789', amountCents: 1 })).toThrow(
      /codice avviso/,
    );
    expect(() =>
      pagoPaQrText({ noticeNumber: '301000000001234519', fiscalCode: 'RSSMRA80A01H501U', amountCents: 1 }),
    ).toThrow(/codice fiscale/);
    expect(() =>
      pagoPaQrText({ noticeNumber: '301000000001234519', fiscalCode: '00123456789', amountCents: 12.5 }),
    ).toThrow(/importo/);
  });
});

describe('GPD states read as the portal’s', () => {
  it('maps every GPD state', () => {
    const read = Object.fromEntries(GPD_STATUSES.map((s) => [s, portalStateOfGpd(s)]));
    expect(read.VALID).toEqual({ state: 'open', payable: true, republish: false });
    expect(read.DRAFT).toEqual({ state: 'open', payable: false, republish: true });
    expect(read.PUBLISHED!.state).toBe('open');
    expect(read.EXPIRED!.state).toBe('open');
    expect(read.INVALID!.state).toBe('cancelled');
    expect(read.PAID!.state).toBe('paid');
    expect(read.REPORTED!.state).toBe('paid');
    expect(read.PARTIALLY_PAID!.state).toBe('to-reconcile');
  });
});

describe('a portal position as a GPD debt position', () => {
  const input = {
    iud: 'P202603ABC',
    iuv: gpdIuv('01', 7),
    fiscalCode: 'rssmra80a01h501u',
    fullName: 'Rossi Mario',
    amountCents: 4350,
    description: 'Servizio  pasti\nmarzo 2026',
    dueDay: '2026-03-31',
  };

  it('has one option and one transfer of the same amount to the council’s IBAN, with its taxonomy code, due at the end of the Rome day in UTC', () => {
    const body = gpdPaymentPosition(input, creditor);
    expect(body).toMatchObject({
      iupd: gpdIupd('P202603ABC'),
      type: 'F',
      fiscalCode: 'RSSMRA80A01H501U',
      companyName: 'Comune di Esempio',
      switchToExpired: false,
    });
    const option = body.paymentOption[0]!;
    expect(option).toMatchObject({
      iuv: input.iuv,
      nav: `3${input.iuv}`,
      amount: 4350,
      isPartialPayment: false,
      description: 'Servizio pasti marzo 2026',
      dueDate: '2026-03-31T21:59:59',
    });
    expect(option.transfer).toEqual([
      {
        idTransfer: '1',
        amount: 4350,
        organizationFiscalCode: '00123456789',
        remittanceInformation: 'Servizio pasti marzo 2026',
        category: '9/0101108TS/',
        iban: creditor.iban,
      },
    ]);
    expect(gpdDueDate('2026-01-31')).toBe('2026-01-31T22:59:59');
  });

  it('cuts texts to GPD’s 140 characters and refuses an amount under a cent', () => {
    expect(
      gpdPaymentPosition({ ...input, description: 'x'.repeat(200) }, creditor).paymentOption[0]!.description,
    ).toHaveLength(140);
    expect(() => gpdPaymentPosition({ ...input, amountCents: 0 }, creditor)).toThrow(/importo/);
  });

  it('reads a position held at GPD as the same only when IUV, amount and due date agree', () => {
    const body = gpdPaymentPosition(input, creditor);
    const held = {
      iupd: body.iupd,
      status: 'VALID',
      paymentOption: [{ iuv: input.iuv, amount: 4350, dueDate: '2026-03-31T21:59:59' }],
    };
    expect(sameGpdPosition(body, held)).toBe(true);
    expect(sameGpdPosition(body, { ...held, paymentOption: [{ ...held.paymentOption[0]!, amount: 4351 }] })).toBe(
      false,
    );
    expect(
      sameGpdPosition(body, { ...held, paymentOption: [{ ...held.paymentOption[0]!, iuv: gpdIuv('01', 8) }] }),
    ).toBe(false);
  });
});
