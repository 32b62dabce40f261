import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { enrolmentUseCases } from './wired-enrolments.ts';
import { enrolmentRoutes } from '../enrolments/routes.ts';

/** The enrolled users of a call; 'Reset ore' runs as a background job this function starts. */
const enrolments = enrolmentUseCases({
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
});

export const handler = resourceHandler(enrolmentRoutes, {
  listEnrolments: ({ params, query }) => enrolments.listEnrolments(params.id, query),
  enrolUser: ({ params, body, actor }) => enrolments.enrolUser(params.id, body, actor),
  updateEnrolment: ({ params, body, actor }) => enrolments.updateEnrolment(params.id, body, actor),
  rankEnrolment: ({ params, body, actor }) => enrolments.rankEnrolment(params.id, body, actor),
  unenrol: ({ params, actor }) => enrolments.unenrol(params.id, actor),
  resetHours: ({ params, actor }) => enrolments.startResetHours(params.id, actor),
  resetHoursStatus: ({ params }) => enrolments.resetHoursStatus(params.id),
});
