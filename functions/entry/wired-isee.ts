import { randomUUID } from 'node:crypto';
import { dynamoAuditLog } from '../adapters/audit-log.ts';
import { inpsRuntime } from '../adapters/inps-config.ts';
import { systemClock } from '../adapters/ports/clock.ts';
import { getCall, listActiveCallIds } from '../calls/repository.ts';
import { DEFAULT_REMINDER_FROM, REMINDER_FROM } from '../domain/isee-refresh.ts';
import {
  countApprovedSubscriptions,
  pageApprovedSubscriptionsOfCall,
  syncUserIsee,
} from '../subscriptions/repository.ts';
import { ensureCitizen } from '../users/ensure-citizen.ts';
import * as userRepository from '../users/repository.ts';
import * as inpsQueries from '../isee/inps-queries-repository.ts';
import { makeInpsIseeUseCases } from '../isee/inps-use-cases.ts';
import { makeIseeRefresh, makeIseeRefreshJobs, type IseeRefreshDeps } from '../isee/refresh.ts';
import * as refreshRepository from '../isee/refresh-repository.ts';
import * as iseeRepository from '../isee/repository.ts';
import { makeIseeUseCases } from '../isee/use-cases.ts';
import { s3FileStore } from '../adapters/files.ts';
import { businessMetrics } from '../adapters/observability.ts';

/**
 * The ISEE use cases on the real adapters, shared by the ISEE API (functions/entry/isee.ts), the background
 * jobs (functions/entry/job-task.ts) and the schedules (functions/entry/scheduled-jobs.ts).
 */
export const isee = makeIseeUseCases({
  isees: iseeRepository,
  users: userRepository,
  ensureCitizen,
  files: s3FileStore,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
  subscriptions: { syncUserIsee },
});

/** The ISEE from INPS through PDND (issue 24). */
export const inpsIsee = makeInpsIseeUseCases({
  inps: () => inpsRuntime().inps,
  settings: () => inpsRuntime(),
  metrics: businessMetrics,
  isees: { getIseeItem: iseeRepository.getIseeItem, recordIsee: isee.recordIsee },
  users: userRepository,
  ensureCitizen,
  queries: inpsQueries,
  audit: dynamoAuditLog,
  clock: systemClock,
  ids: randomUUID,
});

/**
 * The refresh jobs and the expiry list. ISEE_REMINDER_FROM (MM-DD, default 12-01) is the first day of the
 * December reminders; PORTAL_URL the portal's address in them; ISEE_REFRESH_SLICE_MS a slice's time budget.
 */
const refreshDeps = (extra: Pick<IseeRefreshDeps, 'jobs' | 'reminders' | 'benefitCodeOfCall'>): IseeRefreshDeps => ({
  fetchForUser: inpsIsee.fetchForUser,
  subscriptions: { pageApprovedSubscriptionsOfCall, countApprovedSubscriptions },
  calls: { getCall, listActiveCallIds },
  users: { getUserItems: userRepository.getUserItems },
  results: refreshRepository,
  expiry: refreshRepository,
  audit: dynamoAuditLog,
  settings: () => {
    const from = process.env.ISEE_REMINDER_FROM?.trim() || DEFAULT_REMINDER_FROM;
    if (!REMINDER_FROM.test(from)) throw new Error(`ISEE_REMINDER_FROM must be MM-DD, not ${from}`);
    return {
      reminderFrom: from,
      portalUrl: process.env.PORTAL_URL?.trim() || 'http://localhost:3000',
      sliceMs: Number(process.env.ISEE_REFRESH_SLICE_MS) || 120_000,
      // INPS_DAILY_ESTIMATE: the daily calls declared in the PDND purpose (inps-config.ts).
      dailyEstimate:
        Number(process.env.INPS_DAILY_ESTIMATE) > 0 ? Math.floor(Number(process.env.INPS_DAILY_ESTIMATE)) : null,
    };
  },
  pace: () => inpsRuntime().pace(),
  metrics: businessMetrics,
  clock: systemClock,
  ids: randomUUID,
  ...extra,
});
export const iseeRefresh = (extra: Pick<IseeRefreshDeps, 'jobs'> = {}) => makeIseeRefresh(refreshDeps(extra));
/** The jobs' slices (functions/jobs/isee-jobs.ts). */
export const iseeRefreshJobs = (extra: Pick<IseeRefreshDeps, 'reminders' | 'benefitCodeOfCall'>) =>
  makeIseeRefreshJobs(refreshDeps(extra));
