import type { PositionRecord } from '../domain/debt-positions.ts';
import { ConflictError, NotFoundError } from '../domain/errors.ts';
import { noticeDownloadMessages, noticeMessages } from '../domain/messages.ts';
import { assertNoticeDownloadable } from '../domain/notices.ts';
import type { Actor } from '../domain/roles.ts';

export interface NoticeDownloadDeps {
  positions: { getPositionByIud(iud: string): Promise<PositionRecord | null> };
  users: { findUserIdByFiscalCode(fiscalCode: string): Promise<string | null> };
  /**
   * adapters/notice-links.ts downloadUrl: the link, the PDF made and stored first; null when there is no PDF (yet);
   * NoticeDataError (422, Italian) when the position's data cannot make a pagoPA notice.
   */
  links: { downloadUrl(position: PositionRecord): Promise<string | null> };
}

/** 'Avviso PDF' (issue 37): the notice of one position, for its citizen, the operators and the delegates. */
export function makeNoticeDownloadUseCases({ positions, users, links }: NoticeDownloadDeps) {
  return {
    async noticeLink(iud: string, actor: Actor): Promise<{ url: string }> {
      const position = await positions.getPositionByIud(iud);
      if (!position) throw new NotFoundError(noticeMessages.positionNotFound);
      // A citizen reading another's position learns nothing of it, not even that it exists (design §3).
      if (actor.role === 'CITIZEN') {
        const own = actor.fiscalCode ? await users.findUserIdByFiscalCode(actor.fiscalCode) : null;
        if (!own || own !== position.userId) throw new NotFoundError(noticeMessages.positionNotFound);
      }
      assertNoticeDownloadable(position);
      const url = await links.downloadUrl(position);
      if (!url) throw new ConflictError(noticeDownloadMessages.noPdf);
      return { url };
    },
  };
}
