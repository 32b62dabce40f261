import { randomUUID } from 'node:crypto';
import { systemClock } from '../adapters/ports/clock.ts';
import { resourceHandler } from '../http/handler.ts';
import * as jobRepository from '../jobs/repository.ts';
import { stepFunctionsJobRunner } from '../jobs/runner.ts';
import { makeJobs } from '../jobs/use-cases.ts';
import { inpsIsee, isee, iseeRefresh } from './wired-isee.ts';
import { iseeRoutes } from '../isee/routes.ts';

/** Exported for the demo data (lib/local/demo-users.ts), which records its ISEE the way the API does. */
export { isee, inpsIsee };

const refresh = iseeRefresh({
  jobs: makeJobs({ jobs: jobRepository, runner: stepFunctionsJobRunner, clock: systemClock, ids: randomUUID }),
});

export const handler = resourceHandler(iseeRoutes, {
  listIseesToVerify: ({ query }) => isee.listIseesToVerify(query),
  countIseesToVerify: () => isee.countIseesToVerify(),
  getIsee: ({ params, actor }) => isee.getIsee(params.id, actor),
  listMyIsees: ({ query, actor }) => isee.listMyIsees(query, actor),
  listUserIsees: ({ params, query }) => isee.listUserIsees(params.id, query),
  uploadMyIsee: ({ body, actor }) => isee.uploadMyIsee(body, actor),
  uploadUserIsee: ({ params, body, actor }) => isee.uploadUserIsee(params.id, body, actor),
  decideIsee: ({ params, body, actor }) => isee.decideIsee(params.id, body, actor),
  deleteIsee: ({ params, actor }) => isee.deleteIsee(params.id, actor),
  fetchMyIseeFromInps: ({ actor, deadline }) => inpsIsee.fetchMyIsee(actor, deadline),
  listMyInpsQueries: ({ query, actor }) => inpsIsee.listMyQueries(actor, query),
  fetchUserIseeFromInps: ({ params, actor, deadline }) => inpsIsee.fetchUserIsee(params.id, actor, deadline),
  listUserInpsQueries: ({ params, query }) => inpsIsee.listUserQueries(params.id, query),
  checkIseeWithInps: ({ params, actor, deadline }) => inpsIsee.checkWithInps(params.id, actor, deadline),
  startCallIseeRefresh: ({ params, actor }) => refresh.startCallRefresh(params.id, actor),
  callIseeRefreshStatus: ({ params }) => refresh.callRefreshStatus(params.id),
  listIseeExpiry: ({ query }) => refresh.expiryList(query),
  startIseeExpiry: ({ actor }) => refresh.startExpiry(actor),
  startIseeNewYear: ({ actor }) => refresh.startNewYear(actor),
});
