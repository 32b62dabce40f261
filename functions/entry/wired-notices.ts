import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { getExportRange, s3ExportFiles } from '../adapters/export-files.ts';
import { isMissingObject } from '../adapters/s3-client.ts';
import { makeNoticePdfs } from '../adapters/notice-pdf.ts';
import { ioConfigFromEnv, makeIo } from '../adapters/io.ts';
import { clientFromSettings } from '../adapters/fresh-client.ts';
import { sesMailer } from '../adapters/mail.ts';
import { systemClock, type IoMessages } from '../adapters/ports.ts';
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
const noticePdfs = makeNoticePdfs({
  get: (key) => missing(s3ExportFiles.get(key)),
  getRange: (key, start, end) => missing(getExportRange(key, start, end)),
});

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
    // The flow's ZIP first (the flow e-mail), then the position's own (a position listed by page does not
    // carry it: read then), then the PDF an earlier export stored on its own.
    async noticePdf(position, zipKey) {
      const own = 'noticeZip' in position ? position.noticeZip : undefined;
      const found = await noticePdfs.noticePdf(position, [zipKey, own]);
      if (found || own !== undefined) return found;
      const record = await getPositionByIud(position.iud);
      return record?.noticeZip ? noticePdfs.noticePdf(record) : null;
    },
    mailer: sesMailer,
    io,
    audit: dynamoAuditLog,
    clock: systemClock,
    metrics: businessMetrics,
    ...extra,
  });
