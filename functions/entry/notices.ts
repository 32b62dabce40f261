import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { noticeRoutes } from '../notices/routes.ts';
import { noticeUseCases } from './wired-notices.ts';

/** The API's notices: the wired use cases, and the background jobs that the flow e-mail runs as. */
const notices = noticeUseCases({
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
});

export const handler = resourceHandler(noticeRoutes, {
  emailNotice: ({ params, actor }) => notices.emailNotice(params.id, actor),
  ioNotice: ({ params, query, actor }) => notices.sendToIo(params.id, actor, { resend: query.resend }),
  ioNoticeStatus: ({ params, actor }) => notices.refreshIoStatus(params.id, actor),
  // 202: the run was started (or was already running) in the background; GET polls its progress.
  emailFlow: ({ params, actor }) => notices.startFlowEmail(params.id, actor),
  flowEmailStatus: ({ params }) => notices.flowEmailStatus(params.id),
});
