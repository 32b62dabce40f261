import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { s3ExportFiles } from '../adapters/export-files.ts';
import { ioConfigFromEnv, makeIo } from '../adapters/io.ts';
import { sesMailer } from '../adapters/mail.ts';
import { systemClock, type IoMessages } from '../adapters/ports.ts';
import { getFlow, updateFlow } from '../flows/repository.ts';
import { refreshingAfter } from '../payment-list/refresh.ts';
import { resourceHandler, respond } from '../http/handler.ts';
import { getPositionByIud, listPositions, recordIoMessage, recordNoticeEmail } from '../payments/repository.ts';
import { getUserItems } from '../users/repository.ts';
import { noticeRoutes } from './routes.ts';
import { makeNoticeUseCases } from './use-cases.ts';

// The IO client is made at the first send: a function deployed without the IO settings still e-mails.
let ioClient: IoMessages | undefined;
const io: IoMessages = { sendMessage: (fiscalCode, content) => (ioClient ??= makeIo(ioConfigFromEnv())).sendMessage(fiscalCode, content) };

const notices = makeNoticeUseCases({
  positions: { getPositionByIud, listPositions, recordNoticeEmail: refreshingAfter(recordNoticeEmail, (after) => after), recordIoMessage },
  users: { getUserItems },
  flows: { getFlow, updateFlow },
  noticePdf: (key) => s3ExportFiles.get(key).catch((error: Error) => (error.name === 'NoSuchKey' ? null : Promise.reject(error))),
  mailer: sesMailer,
  io,
  payeeFiscalCode: () => {
    const code = process.env.IO_PAYEE_FISCAL_CODE?.trim();
    if (!code) throw new Error('Missing environment variable IO_PAYEE_FISCAL_CODE');
    return code;
  },
  audit: dynamoAuditLog,
  clock: systemClock,
});

export const handler = resourceHandler(noticeRoutes, {
  emailNotice: ({ params, actor }) => notices.emailNotice(params.id, actor!),
  ioNotice: ({ params, actor }) => notices.sendToIo(params.id, actor!),
  emailFlow: async ({ params, actor }) => {
    const result = await notices.emailFlow(params.id, actor!);
    return result.done ? result : respond({ status: 202, body: result });
  },
});
