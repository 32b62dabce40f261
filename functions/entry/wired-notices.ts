import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { getExportRange, s3ExportFiles } from '../adapters/export-files.ts';
import { isMissingObject } from '../adapters/s3-client.ts';
import { platformNotices } from '../adapters/platform-notices.ts';
import { paymentPlatformName } from '../adapters/payment-platform-name.ts';
import { ioConfigFromEnv, makeIo } from '../adapters/io.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { sesMailer } from '../adapters/mail.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import type { IoMessages } from '../adapters/ports/io.ts';
import { getFlow, updateFlow } from '../flows/repository.ts';
import { positionWriter } from './wired-payment-list.ts';
import { getPositionByIud, listPositions } from '../positions/repository.ts';
import { getUserItems } from '../users/repository.ts';
import { businessMetrics } from '../adapters/observability.ts';
import { makeNoticeUseCases, type NoticeDeps } from '../notices/use-cases.ts';

// The notice writes tell the payment list (its 'Email non inviata' filter follows an e-mail sent).
const { recordNoticeEmail, recordIoMessage, restoreIoMessage, recordIoStatus } = positionWriter();

const missing = <T>(read: Promise<T>) =>
  read.catch((error: unknown) => (isMissingObject(error) ? null : Promise.reject(error)));
// The deployment's notices: MyPay's PDFs out of its ZIPs, or (GPD) pagoPA's notice printed by the portal.
const notices = platformNotices(
  {
    get: (key) => missing(s3ExportFiles.get(key)),
    getRange: (key, start, end) => missing(getExportRange(key, start, end)),
  },
  { getPositionByIud },
);

// The IO client is made at the first send (a function deployed without the IO settings still e-mails), and
// again when its key is rotated.
const client = clientFromSettings(() => ioConfigFromEnv(), makeIo);
const io: IoMessages = {
  sendMessage: (fiscalCode, content, options) => client().sendMessage(fiscalCode, content, options),
  messageStatus: (fiscalCode, id, options) => client().messageStatus(fiscalCode, id, options),
};

/**
 * The notices' use cases on DynamoDB, S3, SES and IO: for the API function (with the background jobs, which
 * start the flow e-mail) and for the job function (its slices, functions/entry/job-task.ts).
 */
export const noticeUseCases = (extra: Pick<NoticeDeps, 'jobs'> = {}) =>
  makeNoticeUseCases({
    positions: {
      getPositionByIud,
      listPositions,
      recordNoticeEmail,
      recordIoMessage,
      restoreIoMessage,
      recordIoStatus,
    },
    users: { getUserItems },
    flows: { getFlow, updateFlow },
    notice: (position, zipKey) => notices.notice(position, zipKey),
    noticeDueDay: (position) => notices.dueDay(position),
    platform: paymentPlatformName(),
    mailer: sesMailer,
    io,
    audit: dynamoAuditLog,
    clock: systemClock,
    metrics: businessMetrics,
    ...extra,
  });
