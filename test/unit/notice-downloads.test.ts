import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../functions/domain/debt-positions.ts';
import { noticeDownloadMessages, noticeMessages } from '../../functions/domain/messages.ts';
import { NoticeDataError, noticeDataMessages } from '../../functions/domain/payment-notice.ts';
import { actorFromClaims } from '../../functions/domain/roles.ts';
import { makeNoticeDownloadUseCases } from '../../functions/notice-downloads/use-cases.ts';
import { actors } from '../support/in-memory.ts';
import { exportedPosition } from '../support/position-records.ts';

/**
 * 'Avviso PDF' on request (issue 37, functions/notice-downloads): who gets a position's notice, and why one is
 * refused, on in-memory positions and links.
 */
const AT = '2026-11-02T10:00:00.000Z';
const maria = exportedPosition(AT);
const giuseppe = exportedPosition(AT, {
  iud: 'P202603CCCCCCCCCCCCCCCCCCCCCCCCCCCC',
  userId: 'user-giuseppe',
  fiscalCode: 'VRDGPP90P07F839R',
  nav: '301000000001234620',
});
const delegate = actorFromClaims({
  sub: 'paolo.esposito',
  role: '[OPERATOR DELEGATE]',
  given_name: 'Paolo',
  family_name: 'Esposito',
});

function setup(records: PositionRecord[], options: { noPdf?: boolean; unprintable?: boolean } = {}) {
  const stored = new Map(records.map((p) => [p.iud, p]));
  const asked: string[] = [];
  const useCases = makeNoticeDownloadUseCases({
    positions: { getPositionByIud: async (iud) => stored.get(iud) ?? null },
    users: {
      findUserIdByFiscalCode: async (code) =>
        ({ RSSMRA85C52H501N: 'user-maria', VRDGPP90P07F839R: 'user-giuseppe' })[code] ?? null,
    },
    links: {
      async downloadUrl(position) {
        asked.push(position.iud);
        if (options.unprintable) throw new NoticeDataError(noticeDataMessages.debtorFiscalCode);
        return options.noPdf ? null : `https://exports.test/notices/${position.nav}.pdf`;
      },
    },
  });
  return { useCases, asked };
}

describe('the notice of a position on request', () => {
  it('gives the citizen their own position’s notice, and operators and delegates anyone’s', async () => {
    const { useCases } = setup([maria, giuseppe]);
    expect(await useCases.noticeLink(maria.iud, actors.citizen)).toEqual({
      url: `https://exports.test/notices/${maria.nav}.pdf`,
    });
    expect(await useCases.noticeLink(maria.iud, actors.otherCitizen).catch((e) => e)).toMatchObject({ status: 404 });
    expect((await useCases.noticeLink(giuseppe.iud, actors.operator)).url).toContain(giuseppe.nav);
    expect((await useCases.noticeLink(giuseppe.iud, delegate)).url).toContain(giuseppe.nav);
  });

  it('never gives a citizen another citizen’s notice: the same 404 as a position that does not exist, nothing made', async () => {
    const { useCases, asked } = setup([maria, giuseppe]);
    const another = await useCases.noticeLink(giuseppe.iud, actors.citizen).catch((e) => e);
    const none = await useCases.noticeLink('P-nessuna', actors.citizen).catch((e) => e);
    expect([another.status, another.message]).toEqual([404, noticeMessages.positionNotFound]);
    expect([none.status, none.message]).toEqual([404, noticeMessages.positionNotFound]);
    // A citizen the portal does not know owns nothing.
    const stranger = actorFromClaims({ sub: 'x', role: '[CITIZEN]', fiscal_code: 'BNCLRA80A41H501X' });
    expect(await useCases.noticeLink(maria.iud, stranger).catch((e) => e)).toMatchObject({ status: 404 });
    expect(asked).toEqual([]);
  });

  it.each([
    ['not sent yet', { nav: null, codIuv: null, exportedAt: null }, noticeDownloadMessages.notExported],
    ['cancelled', { annullato: true }, noticeDownloadMessages.cancelled],
    ['paid', { isPagato: true, importoTotalePagato: 6643 }, noticeDownloadMessages.paid],
  ])('refuses a position %s with 409 and the Italian reason, and makes no notice', async (_label, fields, text) => {
    const { useCases, asked } = setup([{ ...maria, ...fields } as PositionRecord]);
    for (const actor of [actors.citizen, actors.operator]) {
      const refused = await useCases.noticeLink(maria.iud, actor).catch((e) => e);
      expect([refused.status, refused.message]).toEqual([409, text]);
    }
    expect(asked).toEqual([]);
  });

  it('passes on why pagoPA’s notice cannot be printed (422), and says when there is no PDF yet (409)', async () => {
    const unprintable = await setup([maria], { unprintable: true })
      .useCases.noticeLink(maria.iud, actors.citizen)
      .catch((e) => e);
    expect([unprintable.status, unprintable.message]).toEqual([422, noticeDataMessages.debtorFiscalCode]);
    const missing = await setup([maria], { noPdf: true })
      .useCases.noticeLink(maria.iud, actors.operator)
      .catch((e) => e);
    expect([missing.status, missing.message]).toEqual([409, noticeDownloadMessages.noPdf]);
  });
});
