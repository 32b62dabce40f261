import { makeNoticeLinks } from '../adapters/notice-links.ts';
import { platformNotices } from '../adapters/platform-notices.ts';
import { resourceHandler } from '../http/handler.ts';
import { makeNoticeDownloadUseCases } from '../notice-downloads/use-cases.ts';
import { noticeDownloadRoutes } from '../notice-downloads/routes.ts';
import { getPositionByIud } from '../positions/repository.ts';
import { findUserIdByFiscalCode } from '../users/repository.ts';

// The deployment's notices (MyPay's PDFs out of its ZIPs, or pagoPA's printed by the portal), linked from the exports bucket.
const links = makeNoticeLinks({ getPositionByIud }, undefined, (files) => platformNotices(files, { getPositionByIud }));

const downloads = makeNoticeDownloadUseCases({
  positions: { getPositionByIud },
  users: { findUserIdByFiscalCode },
  links,
});

export const handler = resourceHandler(noticeDownloadRoutes, {
  downloadNotice: ({ params, actor }) => downloads.noticeLink(params.id, actor),
});
